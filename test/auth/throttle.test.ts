import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authenticate } from '../../src/server/auth.ts';
import { LoginThrottle, loginThrottle, resetThrottle } from '../../src/services/throttle.ts';
import { clearCredentialCache, hashPassword } from '../../src/services/users.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

/** A throttle on a hand-driven clock. */
function clocked(opts: ConstructorParameters<typeof LoginThrottle>[0] = {}) {
  let t = Date.parse('2026-03-01T10:00:00Z');
  const throttle = new LoginThrottle({ ...opts, now: () => t });
  return { throttle, advance: (ms: number) => (t += ms) };
}

describe('LoginThrottle', () => {
  it('refuses an address after 10 failures within a minute, with the time to wait', () => {
    const { throttle, advance } = clocked();
    for (let i = 0; i < 10; i++) {
      expect(throttle.check({ login: 'alice', ip: '10.0.0.1' })).toBeNull();
      throttle.fail({ login: `user${i}`, ip: '10.0.0.1' }); // any logins: the address counts
      advance(1000);
    }
    expect(throttle.check({ login: 'alice', ip: '10.0.0.1' })).toEqual({ retryAfter: 50, scope: 'address' });
    expect(throttle.check({ login: 'alice', ip: '10.0.0.2' })).toBeNull();
    // Sliding: the first failure leaves the window 60 s after it happened, and one attempt is allowed again.
    advance(49_500);
    expect(throttle.check({ login: 'alice', ip: '10.0.0.1' })).toEqual({ retryAfter: 1, scope: 'address' });
    advance(500);
    expect(throttle.check({ login: 'alice', ip: '10.0.0.1' })).toBeNull();
    throttle.fail({ login: 'alice', ip: '10.0.0.1' });
    expect(throttle.check({ login: 'alice', ip: '10.0.0.1' })).toEqual({ retryAfter: 1, scope: 'address' });
    advance(60_000);
    expect(throttle.check({ login: 'alice', ip: '10.0.0.1' })).toBeNull();
  });

  it('does not let one address lock a login for everyone else', () => {
    const { throttle } = clocked();
    for (let i = 0; i < 50; i++) throttle.fail({ login: 'alice', ip: '10.0.0.1' });
    expect(throttle.check({ login: 'alice', ip: '10.0.0.1' })?.scope).toBe('address');
    expect(throttle.check({ login: 'alice', ip: '10.0.0.2' })).toBeNull();
  });

  it('throttles a login guessed at from many addresses, except from addresses its owner used before', () => {
    const { throttle, advance } = clocked();
    throttle.succeed({ login: 'alice', ip: '192.0.2.1' });
    for (let i = 0; i < 10; i++) throttle.fail({ login: 'alice', ip: `10.0.0.${i}` });
    expect(throttle.check({ login: 'alice', ip: '10.0.1.1' })).toEqual({ retryAfter: 60, scope: 'login' });
    expect(throttle.check({ login: 'ALICE', ip: '10.0.1.1' })?.scope).toBe('login');
    expect(throttle.check({ login: 'alice', ip: '192.0.2.1' })).toBeNull();
    expect(throttle.check({ login: 'bob', ip: '10.0.1.1' })).toBeNull();
    advance(60_000);
    expect(throttle.check({ login: 'alice', ip: '10.0.1.1' })).toBeNull();
  });

  it('counts each address for at most 3 of a login’s failures', () => {
    const { throttle } = clocked();
    for (let a = 0; a < 3; a++) for (let i = 0; i < 5; i++) throttle.fail({ login: 'alice', ip: `10.0.0.${a}` });
    expect(throttle.check({ login: 'alice', ip: '10.0.1.1' })).toBeNull(); // 9 counted
    throttle.fail({ login: 'alice', ip: '10.0.0.9' });
    expect(throttle.check({ login: 'alice', ip: '10.0.1.1' })?.scope).toBe('login');
  });

  it('throttles by login alone when no address is known', () => {
    const { throttle } = clocked();
    for (let i = 0; i < 10; i++) throttle.fail({ login: 'alice' });
    expect(throttle.check({ login: 'alice' })?.scope).toBe('login');
    expect(throttle.check({ login: 'bob' })).toBeNull();
  });

  it('keeps its memory bounded', () => {
    const { throttle } = clocked({ maxEntries: 100 });
    for (let i = 0; i < 1000; i++) throttle.fail({ login: `u${i}`, ip: `10.0.${i >> 8}.${i & 255}` });
    expect(throttle.size).toBeLessThanOrEqual(200);
  });

  it('can be reset', () => {
    const { throttle } = clocked();
    for (let i = 0; i < 10; i++) throttle.fail({ login: 'alice', ip: '10.0.0.1' });
    throttle.reset();
    expect(throttle.check({ login: 'alice', ip: '10.0.0.1' })).toBeNull();
  });
});

describe('authenticate with throttling', () => {
  let db: TestDatabase;
  const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

  beforeAll(async () => {
    db = await createTestDatabase();
    await db.prisma.user.create({ data: { login: 'alice', role: 'AUTHOR', passwordHash: await hashPassword('right password') } });
  });
  afterAll(() => db.close());
  beforeEach(() => {
    resetThrottle();
    clearCredentialCache();
  });

  it('answers throttled on the 11th attempt after 10 wrong passwords; the right password works from another address', async () => {
    const { throttle, advance } = clocked();
    for (let i = 0; i < 10; i++) {
      expect(await authenticate(db.prisma, { header: basic('alice', `wrong ${i}`), ip: '10.0.0.1', throttle })).toEqual({ error: 'invalid_credentials' });
    }
    const throttled = await authenticate(db.prisma, { header: basic('alice', 'right password'), ip: '10.0.0.1', throttle });
    expect(throttled).toEqual({ error: 'throttled', retryAfter: 60 });
    const elsewhere = await authenticate(db.prisma, { header: basic('alice', 'right password'), ip: '10.0.0.2', throttle });
    expect(elsewhere).toMatchObject({ viewer: { login: 'alice', role: 'AUTHOR' } });
    // After the window the first address may try again.
    advance(60_000);
    expect(await authenticate(db.prisma, { header: basic('alice', 'right password'), ip: '10.0.0.1', throttle })).toMatchObject({ viewer: { login: 'alice' } });
  });

  it('counts only wrong credentials, not malformed headers or anonymous requests', async () => {
    const { throttle } = clocked({ limit: 2 });
    for (let i = 0; i < 5; i++) {
      expect(await authenticate(db.prisma, { header: 'Bearer abc', ip: '10.0.0.1', throttle })).toEqual({ error: 'malformed_authorization' });
      expect(await authenticate(db.prisma, { header: `Basic ${Buffer.from('no-colon').toString('base64')}`, ip: '10.0.0.1', throttle })).toEqual({
        error: 'malformed_authorization',
      });
      expect(await authenticate(db.prisma, { header: undefined, ip: '10.0.0.1', throttle })).toEqual({ viewer: null });
      expect(await authenticate(db.prisma, { header: basic('alice', 'right password'), ip: '10.0.0.1', throttle })).toMatchObject({ viewer: { login: 'alice' } });
    }
    expect(throttle.check({ login: 'alice', ip: '10.0.0.1' })).toBeNull();
    await authenticate(db.prisma, { header: basic('nobody', 'x'), ip: '10.0.0.1', throttle });
    await authenticate(db.prisma, { header: basic('nobody', 'x'), ip: '10.0.0.1', throttle });
    expect(await authenticate(db.prisma, { header: basic('alice', 'right password'), ip: '10.0.0.1', throttle })).toMatchObject({ error: 'throttled' });
  });

  it('uses the process-wide throttle by default; resetThrottle clears it', async () => {
    for (let i = 0; i < loginThrottle.limit; i++) await authenticate(db.prisma, { header: basic('alice', 'nope'), ip: '10.9.9.9' });
    expect(await authenticate(db.prisma, { header: basic('alice', 'right password'), ip: '10.9.9.9' })).toMatchObject({ error: 'throttled' });
    resetThrottle();
    expect(await authenticate(db.prisma, { header: basic('alice', 'right password'), ip: '10.9.9.9' })).toMatchObject({ viewer: { login: 'alice' } });
  });
});
