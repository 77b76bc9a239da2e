/**
 * Search phrases (contract §5.4 events, §5.6 venues/organizers).
 */

/**
 * The longest search phrase accepted. The database matches each word as a substring
 * (`ILIKE '%word%'`), which costs the searched text's length times the word's where both repeat
 * themselves: 1,000 characters against a megabyte of text took 12 s. WordPress sets no bound; no
 * search of a calendar is this long.
 */
export const MAX_SEARCH_LENGTH = 100;

/**
 * The search phrase's own faults, before any word is looked for: blank, or longer than
 * `MAX_SEARCH_LENGTH`. Returns the error's message and code, or null.
 */
export function searchPhraseFault(phrase: string): { message: string; code: 'EMPTY' | 'TOO_LONG' } | null {
  if (!phrase.trim()) return { message: 'The search text cannot be empty.', code: 'EMPTY' };
  if (phrase.length > MAX_SEARCH_LENGTH) return { message: `The search text is too long (${MAX_SEARCH_LENGTH} characters at most).`, code: 'TOO_LONG' };
  return null;
}

/** WordPress' default English search stop words (`wp_search_stopwords`). */
export const SEARCH_STOPWORDS: readonly string[] = [
  'about', 'an', 'are', 'as', 'at', 'be', 'by', 'com', 'for', 'from', 'how', 'in', 'is', 'it', 'of', 'on',
  'or', 'that', 'the', 'this', 'to', 'was', 'what', 'when', 'where', 'who', 'will', 'with', 'www',
];

/** `WP_Query::parse_search_terms`: trims quotes, drops single letters/dashes and stop words. */
function checkTerms(terms: string[]): string[] {
  const checked: string[] = [];
  for (let term of terms) {
    term = /^".+"$/s.test(term) ? term.replace(/^["']+|["']+$/g, '') : term.replace(/^["' ]+|["' ]+$/g, '');
    if (!term || (term.length === 1 && /^[a-z-]$/i.test(term))) continue;
    if (SEARCH_STOPWORDS.includes(term.toLowerCase())) continue;
    checked.push(term);
  }
  return checked;
}

/**
 * WordPress keyword search (`WP_Query::parse_search`): the phrase is split into words, quoted phrases
 * kept together; stop words and single letters are dropped; with no usable word, or more than 9, the
 * whole phrase is one term. A term starting with `-` excludes. Every `include` term must occur
 * (case-insensitively) in the title, excerpt or content; no `exclude` term may. Terms are lower-cased.
 */
export function parseSearchTerms(phrase: string | null | undefined): { include: string[]; exclude: string[] } {
  const s = String(phrase ?? '').replace(/[\r\n]/g, '');
  let terms: string[];
  const matches = s.match(/".*?("|$)|((?<=[\t ",+])|^)[^\t ",+]+/g);
  if (matches && matches.length) {
    terms = checkTerms(matches);
    if (!terms.length || terms.length > 9) terms = [s];
  } else {
    terms = [s];
  }
  const include: string[] = [];
  const exclude: string[] = [];
  for (const raw of terms) {
    const term = raw.toLowerCase();
    if (term.startsWith('-')) {
      const word = term.slice(1);
      if (word && !exclude.includes(word)) exclude.push(word);
    } else if (term.trim() && !include.includes(term)) {
      include.push(term);
    }
  }
  return { include, exclude };
}

/**
 * Words of a venue/organizer search (§5.6): split on anything but letters, digits and `-`,
 * lower-cased, duplicates removed.
 */
export function splitLinkedSearchWords(phrase: string | null | undefined): string[] {
  const words = String(phrase ?? '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}-]+/u)
    .filter(Boolean);
  return [...new Set(words)];
}
