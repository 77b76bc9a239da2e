/**
 * What a calendar view request asks for, read from the plugin's URL scheme and its query forms:
 *
 *   {base}/                         list (upcoming)          {base}/list/, {base}/list/page/2/, ?page=2 / ?paged=2
 *   {base}/month/, {base}/YYYY-MM/, {base}/month/YYYY-MM/    month
 *   {base}/today/, {base}/YYYY-MM-DD/, {base}/day/YYYY-MM-DD/ day
 *   ?eventDisplay=list|month|day|past|upcoming  ?tribe-bar-date=YYYY-MM[-DD]  ?tribe-bar-search=words
 *
 * where {base} is `/events`, `/events/category/{parent/…/slug}` or `/events/tag/{slug}`. Presentation
 * of the request only: the calendar itself comes from the core.
 */
import { parseCalendarDate } from '../../domain/calendar-days.ts';
import { MAX_SEARCH_LENGTH } from '../../domain/search.ts';

export type ViewName = 'list' | 'month' | 'day';

export interface ViewRequest {
  view: ViewName;
  /** List: past events, latest first. */
  past: boolean;
  /** Month `YYYY-MM` or day / list start `YYYY-MM-DD`; undefined: the current month / today / upcoming. */
  date?: string;
  /** List page (1-based). */
  page: number;
  /** `tribe-bar-search` / `search`. */
  search?: string;
}

const MONTH_RE = /^\d{4}-\d{2}$/;
const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A `YYYY-MM` that names a real month. */
export const isMonth = (text: string) => MONTH_RE.test(text) && parseCalendarDate(`${text}-01`) !== null;
/** A `YYYY-MM-DD` that names a real day. */
export const isDay = (text: string) => DAY_RE.test(text) && parseCalendarDate(text) !== null;

/** Segments that start the view part of a path (everything before them names the category). */
export function isViewSegment(segment: string): boolean {
  return ['list', 'month', 'today', 'day', 'page', 'past', 'upcoming'].includes(segment) || MONTH_RE.test(segment) || DAY_RE.test(segment);
}

/** The view a path's view segments name, or null when they name none (→ 404). Dates are checked. */
export function parseViewPath(segments: readonly string[]): ViewRequest | null {
  const [a, b, c, d, ...rest] = segments;
  if (rest.length) return null;
  const list = (page = '1', past = false): ViewRequest | null => (/^[1-9]\d{0,5}$/.test(page) ? { view: 'list', past, page: Number(page) } : null);
  if (a === undefined) return list();
  if (a === 'list' || a === 'upcoming' || a === 'past') {
    const past = a === 'past';
    if (b === undefined) return list('1', past);
    if (b === 'page' && c !== undefined && d === undefined) return list(c, past);
    return null;
  }
  if (a === 'page' && b !== undefined && c === undefined) return list(b);
  if (c !== undefined) return null;
  if (a === 'month') {
    if (b === undefined) return { view: 'month', past: false, page: 1 };
    return isMonth(b) ? { view: 'month', past: false, page: 1, date: b } : null;
  }
  if (a === 'today' && b === undefined) return { view: 'day', past: false, page: 1 };
  if (a === 'day') {
    if (b === undefined) return { view: 'day', past: false, page: 1 };
    return isDay(b) ? { view: 'day', past: false, page: 1, date: b } : null;
  }
  if (b !== undefined) return null;
  if (isMonth(a)) return { view: 'month', past: false, page: 1, date: a };
  if (isDay(a)) return { view: 'day', past: false, page: 1, date: a };
  return null;
}

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * TEC's query forms on top of the path: `eventDisplay` picks the view, `tribe-bar-date` the date,
 * `tribe-bar-search` the words, `page`/`paged` the list page. Null when a given value is not one
 * (an impossible date, a page that is not a number) → 404.
 */
export function applyQuery(req: ViewRequest, query: Record<string, string | string[] | undefined>): ViewRequest | null {
  const out: ViewRequest = { ...req };
  const display = first(query.eventDisplay)?.toLowerCase();
  if (display) {
    if (display === 'past' || display === 'upcoming' || display === 'list' || display === 'photo' || display === 'summary') {
      out.view = 'list';
      out.past = display === 'past';
    } else if (display === 'month') out.view = 'month';
    else if (display === 'day') out.view = 'day';
    else return null;
  }
  const date = first(query['tribe-bar-date'])?.trim();
  if (date) {
    if (isDay(date)) out.date = out.view === 'month' ? date.slice(0, 7) : date;
    else if (isMonth(date)) out.date = out.view === 'month' ? date : `${date}-01`;
    else return null;
  } else if (out.date && out.view !== 'month' && isMonth(out.date)) out.date = `${out.date}-01`;
  else if (out.date && out.view === 'month' && isDay(out.date)) out.date = out.date.slice(0, 7);
  const search = (first(query['tribe-bar-search']) ?? first(query.search))?.trim();
  // Longer phrases are refused by the search itself (src/domain/search.ts): the page cuts them.
  if (search) out.search = search.slice(0, MAX_SEARCH_LENGTH);
  const page = first(query.page) ?? first(query.paged);
  if (page !== undefined && page !== '') {
    if (!/^[1-9]\d{0,5}$/.test(page)) return null;
    out.page = Number(page);
  }
  return out;
}
