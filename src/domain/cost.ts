/**
 * Event cost (contract §4.2.2), after TEC's `Tribe__Cost_Utils`.
 *
 * Stored cost: one or several strings as sent. Numbers are extracted with TEC's cost regex
 * (`[,.]?\d+[,.]?\d*`, so `"15-25"` yields 15 and 25); a string without a number counts as itself.
 */
import { slugify } from './slug.ts';
import { escapeHtml } from './text.ts';

export type CurrencyPosition = 'prefix' | 'postfix' | '';

export interface CostFormatOptions {
  /** The event's own `currency_symbol` (`""` when none). */
  currencySymbol?: string | null;
  /** The event's own `currency_position` (`prefix` | `postfix` | `suffix` | `""`). */
  currencyPosition?: string | null;
  /** Site default symbol (TEC option, `$`). */
  siteSymbol?: string;
  /** Site default position (`prefix` unless `postfix`/`suffix`). */
  sitePosition?: string;
}

interface CostEntry {
  /** The text as found (`"15"`, `"1,500"`, `"Free"`). */
  text: string;
  numeric: boolean;
  /** Numeric value (numbers only). */
  value: number;
  /** `cost_details.values` member: the number as a string, or the slug of a non-numeric cost. */
  detail: string;
  /** Dedupe/sort key (PHP's array index). */
  key: string;
}

const COST_RE = /[,.]?(\d+)[,.]?(\d*)/g;

/**
 * The longest cost accepted, all its strings together. A cost is parsed whole on every read (each
 * number in it is a value), so an unbounded one made every read of the event slower; a price list
 * longer than this belongs in the description.
 */
export const MAX_COST_LENGTH = 1000;

/** PHP `is_numeric` for plain decimal strings. */
function isNumeric(text: string): boolean {
  return /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i.test(text);
}

/** `(float)` of a PHP string: its leading number, else 0. */
function phpFloat(text: string): number {
  const m = /^\s*[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?/i.exec(text);
  return m ? Number(m[0]) : 0;
}

// Parsing is pure and a calendar's events share a few costs (`Free`, `$10`), read on every list
// (formatted and as values; a cost without a number is transliterated for its slug): keep recent
// parses (bounded; the cache starts over when full). Entries are frozen, so sharing them is safe.
const PARSE_LIMIT = 5_000;
const parses = new Map<string, readonly CostEntry[]>();

function parseOne(cost: string): readonly CostEntry[] {
  let out = parses.get(cost);
  if (out === undefined) {
    out = Object.freeze(parseUncached(cost).map((e) => Object.freeze(e)));
    if (parses.size >= PARSE_LIMIT) parses.clear();
    parses.set(cost, out);
  }
  return out;
}

function parseUncached(cost: string): CostEntry[] {
  const matches = [...cost.matchAll(COST_RE)];
  if (!matches.length) {
    const key = slugify(cost);
    return [{ text: cost, numeric: false, value: 0, detail: key, key: `s:${key}` }];
  }
  return matches.map((m) => {
    const raw = m[0];
    const detail = raw.replace(/,/g, '');
    if (!isNumeric(raw.replace(/[,.]/g, '.')) || !isNumeric(detail)) {
      const key = slugify(raw);
      return { text: raw, numeric: false, value: 0, detail: key, key: `s:${key}` };
    }
    const value = Number(detail);
    return { text: raw.replace(/[,.]+$/, ''), numeric: true, value, detail, key: `n:${value}` };
  });
}

function entries(stored: readonly (string | null | undefined)[] | string | null | undefined): CostEntry[] {
  const list = typeof stored === 'string' ? [stored] : (stored ?? []);
  const seen = new Map<string, CostEntry>();
  for (const cost of list) {
    if (cost === null || cost === undefined || String(cost).trim() === '') continue;
    for (const entry of parseOne(String(cost))) if (!seen.has(entry.key)) seen.set(entry.key, entry);
  }
  return [...seen.values()];
}

/**
 * `cost_details.values`: the extracted numbers as strings (thousands separators removed), a slug for
 * a cost without a number (`"Free"` → `"free"`), sorted numerically; `[]` when there is no cost.
 */
export function parseCostValues(stored: readonly (string | null | undefined)[] | string | null | undefined): string[] {
  return entries(stored)
    .map((e) => ({ detail: e.detail, sortValue: e.numeric ? e.value : phpFloat(e.detail) }))
    .sort((a, b) => a.sortValue - b.sortValue)
    .map((e) => e.detail);
}

/**
 * `text.split(/\s*,\s*\/)` in linear time (the expression rescans a run of white space from each of
 * its characters when no comma follows): white space around the commas goes, not at the ends.
 */
function splitOnCommas(text: string): string[] {
  const parts = text.split(',');
  const last = parts.length - 1;
  return last === 0 ? parts : parts.map((p, i) => (i === 0 ? p.trimEnd() : i === last ? p.trimStart() : p.trim()));
}

function withCurrency(text: string, symbol: string, suffix: boolean): string {
  return suffix ? `${text}${symbol}` : `${symbol}${text}`;
}

/**
 * The formatted `cost`: `""` without cost; otherwise the lowest and highest value, `0` shown as
 * `Free`, numbers with the currency symbol (event's, else the site's) before or after them, costs
 * without a number as entered; joined by `" – "` when they differ. HTML-escaped.
 */
export function formatCost(
  stored: readonly (string | null | undefined)[] | string | null | undefined,
  options: CostFormatOptions = {},
): string {
  const list = entries(stored);
  if (!list.length) return '';
  const symbol = options.currencySymbol || (options.siteSymbol ?? '$');
  const position = options.currencyPosition || options.sitePosition || 'prefix';
  const suffix = position !== 'prefix';
  return showRange(list, (text) => withCurrency(text, symbol, suffix));
}

/**
 * The lowest and highest cost (numbers when there are any), shown as `low – high` when they differ;
 * `0` as `Free`, numbers through `number`, costs without a number as entered; HTML-escaped.
 */
function showRange(list: CostEntry[], number: (text: string) => string): string {
  const [first] = list;
  if (!first) return '';
  let min: CostEntry;
  let max: CostEntry;
  const numbers = list.filter((e) => e.numeric);
  if (list.length === 1 && !first.numeric) {
    min = max = first;
  } else if (numbers.length) {
    min = numbers.reduce((a, b) => (b.value < a.value ? b : a));
    max = numbers.reduce((a, b) => (b.value > a.value ? b : a));
  } else {
    const sorted = [...list].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    min = sorted[0] ?? first;
    max = sorted.at(-1) ?? first;
  }
  const show = (e: CostEntry): string => {
    if (!e.numeric) return escapeHtml(e.text.trim());
    if (e.value === 0) return 'Free';
    return escapeHtml(number(e.text));
  };
  const low = show(min);
  const high = show(max);
  return low === high ? low : `${low} \u2013 ${high}`;
}

/**
 * JSON-LD `offers.price` (TEC's `tribe_get_cost()` without currency, then `normalize_price`): the
 * formatted cost without its currency symbol (`"€10 – €20"` → `"10 – 20"`), and `"0"` when that is
 * just `Free`. `""` without cost.
 */
export function offerPrice(stored: readonly (string | null | undefined)[] | string | null | undefined): string {
  const list = entries(stored);
  if (!list.length) return '';
  const price = showRange(list, (text) => text);
  return /^\s*free\s*$/i.test(price) ? '0' : price;
}

/**
 * Currency symbol and position inferred from a cost as sent on a REST write (`parse_currency_symbol`
 * / `parse_currency_position`): `"20$"` → `$`/`postfix`, `"$20"` → `$`/`prefix`, `"20"` → `""`/`""`.
 * A string is split on commas; inconsistent symbols or positions give `""`, and so does a "symbol"
 * longer than 16 characters (it would overflow its column: a 500).
 */
export function inferCurrency(cost: string | readonly string[] | null | undefined): { symbol: string; position: CurrencyPosition } {
  const none = { symbol: '', position: '' as CurrencyPosition };
  if (cost === null || cost === undefined) return none;
  const originals = typeof cost === 'string' ? splitOnCommas(cost) : [...cost];
  if (!originals.length || originals.every((c) => !c)) return none;

  // parse_cost_range( $original_costs, null, false ): index => cost, insertion order, later duplicates overwrite.
  const parsed = new Map<string, { numeric: boolean; text: string }>();
  for (const original of originals) {
    const matches = [...String(original ?? '').matchAll(COST_RE)];
    if (!matches.length) {
      parsed.set(`s:${slugify(String(original ?? ''))}`, { numeric: false, text: String(original ?? '') });
      continue;
    }
    for (const m of matches) {
      const numericCost = m[0].replace(/[,.]/g, '.');
      if (isNumeric(numericCost)) parsed.set(`n:${Number(numericCost)}`, { numeric: true, text: m[0] });
      else parsed.set(`s:${slugify(numericCost)}`, { numeric: false, text: m[0] });
    }
  }

  const symbols: string[] = [];
  let i = 0;
  for (const entry of parsed.values()) {
    if (entry.numeric) {
      const original = originals[i] ?? '';
      symbols.push(String(original).split(entry.text).join('').trim());
      if (symbols[symbols.length - 1] !== symbols[0]) return none;
    }
    i++;
  }
  const symbol = symbols[0] ?? '';
  // Longer than the stored column (16): text around the number rather than a currency symbol.
  if (!symbol || symbol.length > 16) return none;

  const positions: CurrencyPosition[] = [];
  for (const original of originals) {
    const at = String(original ?? '').trim().indexOf(symbol);
    if (at === -1) continue;
    positions.push(at === 0 ? 'prefix' : 'postfix');
    if (positions[positions.length - 1] !== positions[0]) return { symbol, position: '' };
  }
  return { symbol, position: positions[0] ?? '' };
}
