import { describe, expect, it } from 'vitest';
import { nextSlugCandidate, normalizeSlugLookup, slugify, trashedSlug, truncateSlug } from '../../src/domain/slug.ts';
import { describeCases } from '../helpers/cases.ts';

describe('slugify', () => {
  describeCases({ slugify }, {
    'matches the samples': [
      ['Summer Jazz Night', 'summer-jazz-night'],
      ['All Day Fair', 'all-day-fair'],
      ['Inline Linked Event', 'inline-linked-event'],
      ['Grand Hall', 'grand-hall'],
      ['Theatre', 'theatre'],
    ],
    'folds accents and drops punctuation like sanitize_title': [
      ['Café Olé', 'cafe-ole'],
      ['Müller Straße', 'muller-strasse'],
      ['Æsir', 'aesir'],
      ['Łódź', 'lodz'],
      ["Don't Stop", 'dont-stop'],
      ['Rock & Roll', 'rock-roll'],
      ['Rock &amp; Roll', 'rock-roll'],
      ['Summer:Jazz', 'summerjazz'],
      ['C++ night', 'c-night'],
      ['100% fun', '100-fun'],
      ['Summer Jazz Night (updated)', 'summer-jazz-night-updated'],
    ],
    'turns spaces, dots, slashes and dashes into single dashes': [
      ['v1.2 release', 'v1-2-release'],
      ['AC/DC tribute', 'ac-dc-tribute'],
      ['Jazz — Night – live', 'jazz-night-live'],
      ['  --Hello--  ', 'hello'],
      ['a  b\tc', 'a-b-c'],
    ],
    'keeps underscores, strips tags, keeps camel case together': [
      ['a_b c', 'a_b-c'],
      ['<b>Bold</b> move', 'bold-move'],
      ['fooBar', 'foobar'],
    ],
    'returns an empty string when nothing is left': [
      ['!!!', ''],
      ['', ''],
    ],
  });

  it('limits slugs to 200 characters', () => {
    const slug = slugify('word '.repeat(100));
    expect(slug.length).toBeLessThanOrEqual(200);
    expect(slug.endsWith('-')).toBe(false);
    expect(truncateSlug('a-b', 2)).toBe('a');
  });
});

describe('normalizeSlugLookup', () => {
  describeCases({ normalizeSlugLookup }, {
    'lower-cases and drops characters other than letters, digits, - and _': [
      ['Summer-Jazz-Night', 'summer-jazz-night'],
      [' summer jazz!night ', 'summerjazznight'],
      ['a_b', 'a_b'],
      ['!!!', ''],
    ],
  });
});

describe('nextSlugCandidate', () => {
  describeCases({ nextSlugCandidate }, {
    'suffixes -2, -3… on clashes': [
      ['jazz-night', [], 'jazz-night'],
      ['jazz-night', ['jazz-night'], 'jazz-night-2'],
      ['jazz-night', ['jazz-night', 'jazz-night-2', 'jazz-night-3'], 'jazz-night-4'],
      ['jazz-night', ['jazz-night-2'], 'jazz-night'],
    ],
  });

  it('keeps suffixed slugs within 200 characters', () => {
    const base = 'a'.repeat(200);
    const next = nextSlugCandidate(base, [base]);
    expect(next).toBe(`${'a'.repeat(198)}-2`);
  });
});

describe('trashedSlug', () => {
  describeCases({ trashedSlug }, {
    'marks trashed slugs': [
      ['minimal-event', 'minimal-event__trashed'],
      ['minimal-event__trashed', 'minimal-event__trashed'],
    ],
  });
});
