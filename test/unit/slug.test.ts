import { describe, expect, it } from 'vitest';
import { nextSlugCandidate, normalizeSlugLookup, slugify, trashedSlug, truncateSlug } from '../../src/domain/slug.ts';

describe('slugify', () => {
  it('matches the samples', () => {
    expect(slugify('Summer Jazz Night')).toBe('summer-jazz-night');
    expect(slugify('All Day Fair')).toBe('all-day-fair');
    expect(slugify('Inline Linked Event')).toBe('inline-linked-event');
    expect(slugify('Grand Hall')).toBe('grand-hall');
    expect(slugify('Theatre')).toBe('theatre');
  });

  it('folds accents and drops punctuation like sanitize_title', () => {
    expect(slugify('Café Olé')).toBe('cafe-ole');
    expect(slugify('Müller Straße')).toBe('muller-strasse');
    expect(slugify('Æsir')).toBe('aesir');
    expect(slugify('Łódź')).toBe('lodz');
    expect(slugify("Don't Stop")).toBe('dont-stop');
    expect(slugify('Rock & Roll')).toBe('rock-roll');
    expect(slugify('Rock &amp; Roll')).toBe('rock-roll');
    expect(slugify('Summer:Jazz')).toBe('summerjazz');
    expect(slugify('C++ night')).toBe('c-night');
    expect(slugify('100% fun')).toBe('100-fun');
    expect(slugify('Summer Jazz Night (updated)')).toBe('summer-jazz-night-updated');
  });

  it('turns spaces, dots, slashes and dashes into single dashes', () => {
    expect(slugify('v1.2 release')).toBe('v1-2-release');
    expect(slugify('AC/DC tribute')).toBe('ac-dc-tribute');
    expect(slugify('Jazz — Night – live')).toBe('jazz-night-live');
    expect(slugify('  --Hello--  ')).toBe('hello');
    expect(slugify('a  b\tc')).toBe('a-b-c');
  });

  it('keeps underscores, strips tags, keeps camel case together', () => {
    expect(slugify('a_b c')).toBe('a_b-c');
    expect(slugify('<b>Bold</b> move')).toBe('bold-move');
    expect(slugify('fooBar')).toBe('foobar');
  });

  it('limits slugs to 200 characters', () => {
    const slug = slugify('word '.repeat(100));
    expect(slug.length).toBeLessThanOrEqual(200);
    expect(slug.endsWith('-')).toBe(false);
    expect(truncateSlug('a-b', 2)).toBe('a');
  });

  it('returns an empty string when nothing is left', () => {
    expect(slugify('!!!')).toBe('');
    expect(slugify('')).toBe('');
  });
});

describe('normalizeSlugLookup', () => {
  it('lower-cases and drops characters other than letters, digits, - and _', () => {
    expect(normalizeSlugLookup('Summer-Jazz-Night')).toBe('summer-jazz-night');
    expect(normalizeSlugLookup(' summer jazz!night ')).toBe('summerjazznight');
    expect(normalizeSlugLookup('a_b')).toBe('a_b');
    expect(normalizeSlugLookup('!!!')).toBe('');
  });
});

describe('nextSlugCandidate', () => {
  it('suffixes -2, -3… on clashes', () => {
    expect(nextSlugCandidate('jazz-night', [])).toBe('jazz-night');
    expect(nextSlugCandidate('jazz-night', ['jazz-night'])).toBe('jazz-night-2');
    expect(nextSlugCandidate('jazz-night', ['jazz-night', 'jazz-night-2', 'jazz-night-3'])).toBe('jazz-night-4');
    expect(nextSlugCandidate('jazz-night', ['jazz-night-2'])).toBe('jazz-night');
  });

  it('keeps suffixed slugs within 200 characters', () => {
    const base = 'a'.repeat(200);
    const next = nextSlugCandidate(base, [base]);
    expect(next).toBe(`${'a'.repeat(198)}-2`);
  });

  it('marks trashed slugs', () => {
    expect(trashedSlug('minimal-event')).toBe('minimal-event__trashed');
    expect(trashedSlug('minimal-event__trashed')).toBe('minimal-event__trashed');
  });
});
