import { describe, expect, it } from 'vitest';
import { hashPostPassword, portableHashMatches, postPasswordMatches } from '../../src/domain/phpass.ts';

describe('phpass portable hashes (WordPress post-password cookies)', () => {
  it('checks phpass\'s own test vector', () => {
    // test.php of phpass 0.3: the portable hash of "test12345".
    expect(portableHashMatches('test12345', '$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0')).toBe(true);
    expect(portableHashMatches('test12346', '$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0')).toBe(false);
  });

  it('hashes as WordPress\'s PasswordHash(8, true): $P$B, a fresh salt each time, and only the right password matches', () => {
    const a = hashPostPassword('tecbench-secret');
    const b = hashPostPassword('tecbench-secret');
    expect(a).toMatch(/^\$P\$B[./0-9A-Za-z]{30}$/);
    expect(a).not.toBe(b);
    expect(postPasswordMatches('tecbench-secret', a)).toBe(true);
    expect(postPasswordMatches('tecbench-secret', b)).toBe(true);
    expect(postPasswordMatches('tecbench-secreT', a)).toBe(false);
    expect(postPasswordMatches('', a)).toBe(false);
    // Not ASCII: UTF-8 bytes, as PHP hashes the form's bytes.
    expect(postPasswordMatches('mot de passe é', hashPostPassword('mot de passe é'))).toBe(true);
  });

  it('refuses cookies that are not WordPress\'s setting, and over-long passwords', () => {
    // phpass's vector uses 2^11 rounds: WordPress's post_password_required() takes $P$B only.
    expect(postPasswordMatches('test12345', '$P$9IQRaTwmfeRo7ud9Fh4E2PdI0S3r.L0')).toBe(false);
    expect(postPasswordMatches('x', '$P$Z' + 'a'.repeat(30))).toBe(false);
    expect(postPasswordMatches('x', '')).toBe(false);
    expect(postPasswordMatches('x', 'garbage')).toBe(false);
    expect(() => hashPostPassword('x'.repeat(4097))).toThrow(RangeError);
    expect(postPasswordMatches('x'.repeat(4097), hashPostPassword('x'))).toBe(false);
  });
});
