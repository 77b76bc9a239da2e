import { describe, expect, it } from 'vitest';
import { MAX_SEARCH_LENGTH, parseSearchTerms, searchPhraseFault, splitLinkedSearchWords } from '../../src/domain/search.ts';

describe('parseSearchTerms', () => {
  it('splits words, keeps quoted phrases and lower-cases', () => {
    expect(parseSearchTerms('jazz')).toEqual({ include: ['jazz'], exclude: [] });
    expect(parseSearchTerms('Summer Jazz')).toEqual({ include: ['summer', 'jazz'], exclude: [] });
    expect(parseSearchTerms('"big band" night')).toEqual({ include: ['big band', 'night'], exclude: [] });
    expect(parseSearchTerms('jazz,blues+soul')).toEqual({ include: ['jazz', 'blues', 'soul'], exclude: [] });
  });

  it('excludes words starting with -', () => {
    expect(parseSearchTerms('jazz -night')).toEqual({ include: ['jazz'], exclude: ['night'] });
    expect(parseSearchTerms('"-big band" jazz')).toEqual({ include: ['jazz'], exclude: ['big band'] });
    // WordPress reads `-"big band"` as a lone dash (dropped) and a phrase.
    expect(parseSearchTerms('-"big band"')).toEqual({ include: ['big band'], exclude: [] });
  });

  it('drops stop words and single letters, falling back to the whole phrase', () => {
    expect(parseSearchTerms('the jazz of summer')).toEqual({ include: ['jazz', 'summer'], exclude: [] });
    expect(parseSearchTerms('the')).toEqual({ include: ['the'], exclude: [] });
    expect(parseSearchTerms('a b c')).toEqual({ include: ['a b c'], exclude: [] });
  });

  it('treats more than nine words as one phrase', () => {
    const phrase = 'one two three four five six seven eight nine ten';
    expect(parseSearchTerms(phrase)).toEqual({ include: [phrase], exclude: [] });
  });
});

describe('splitLinkedSearchWords', () => {
  it('splits on anything but letters, digits and -', () => {
    expect(splitLinkedSearchWords('Grand Hall')).toEqual(['grand', 'hall']);
    expect(splitLinkedSearchWords('Boston-area, 02110!')).toEqual(['boston-area', '02110']);
    expect(splitLinkedSearchWords('Café  Müller')).toEqual(['café', 'müller']);
    expect(splitLinkedSearchWords('  ')).toEqual([]);
  });
});

describe('searchPhraseFault', () => {
  it('refuses a blank phrase and one longer than MAX_SEARCH_LENGTH', () => {
    expect(searchPhraseFault(' \t')).toMatchObject({ code: 'EMPTY' });
    expect(searchPhraseFault('x'.repeat(MAX_SEARCH_LENGTH))).toBeNull();
    expect(searchPhraseFault('x'.repeat(MAX_SEARCH_LENGTH + 1))).toMatchObject({ code: 'TOO_LONG' });
  });
});
