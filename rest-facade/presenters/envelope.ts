/**
 * What the collection envelopes (§5.1) share, and their `rest_url` / `next_rest_url` /
 * `previous_rest_url` (§5.3); each resource's presenter builds its own envelope from them.
 *
 * Events, venues, organizers — like PHP's `add_query_arg()` chain:
 * - `rest_url` = `{ns}/{collection}/?` + the first group (`page` first), values appended as is
 *   (literal spaces, `:` and `,`); when a second group exists the first group is re-encoded
 *   form-style (PHP `urlencode`: `+` for space, `%3A`, `%2C`) and the second group is appended as is.
 * - `next_rest_url` / `previous_rest_url` = every parameter but `page`, form-encoded, then
 *   `&page={n±1}` (no `page` at all for page 1).
 * REC (§5.3): every filter the client sent is carried; the ones PHP drops are appended after the
 * documented second group (so they, too, switch the first group to form encoding).
 *
 * Categories, tags: `rest_url` is the bare `{ns}/{collection}/` (REC: plus the carried filters,
 * form-encoded), `next_rest_url` adds `page=n+1` when `page < total_pages`, `previous_rest_url` is
 * `rest_url` for page 2 and adds `page=n-1` beyond (even past the end).
 */
import type { JsonObject, RestUrls } from './util.ts';
import { nsUrl, phpUrlencode, rawQueryValue } from './util.ts';

export type QueryPairs = ReadonlyArray<readonly [string, unknown]>;

/**
 * A query value as written in a URL: lists as CSV, booleans as `1`/`0`; `null` for what is
 * skipped (`null`, `undefined`, `""`, `[]`, objects).
 */
export function stringifyValue(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'boolean') return v ? '1' : '0';
  if (typeof v === 'number') return Number.isFinite(v) ? String(v) : null;
  if (typeof v === 'bigint') return String(v);
  if (Array.isArray(v)) {
    const parts = v.map((x) => (Array.isArray(x) ? null : stringifyValue(x))).filter((x): x is string => x !== null);
    return parts.length ? parts.join(',') : null;
  }
  if (typeof v !== 'string') return null;
  return v === '' ? null : v;
}

export function present(pairs: QueryPairs): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of pairs) {
    const s = stringifyValue(v);
    if (s !== null) out.push([k, s]);
  }
  return out;
}

export function encodePairs(pairs: Array<[string, string]>, mode: 'raw' | 'form'): string {
  return pairs.map(([k, v]) => `${phpUrlencode(k)}=${mode === 'raw' ? rawQueryValue(v) : phpUrlencode(v)}`).join('&');
}

export function withQuery(base: string, query: string): string {
  return query ? `${base}?${query}` : base;
}

export interface PostListUrlInput {
  /** `{ns}/{collection}/` (trailing slash). */
  base: string;
  page: number;
  /** First group without `page` (documented order). */
  first: QueryPairs;
  /** Second group (events: `venue`, `organizer`, `featured`) followed by the REC-carried filters. */
  second: QueryPairs;
  hasNext: boolean;
  hasPrevious: boolean;
}

/** `rest_url`, `next_rest_url`, `previous_rest_url` of an event/venue/organizer list (§5.3). */
export function postListUrls(input: PostListUrlInput): { rest_url: string; next_rest_url?: string; previous_rest_url?: string } {
  const first = present([['page', input.page], ...input.first]);
  const second = present(input.second);
  const restQuery = second.length ? `${encodePairs(first, 'form')}&${encodePairs(second, 'raw')}` : encodePairs(first, 'raw');
  const out: { rest_url: string; next_rest_url?: string; previous_rest_url?: string } = { rest_url: withQuery(input.base, restQuery) };
  const rest = encodePairs([...first.filter(([k]) => k !== 'page'), ...second], 'form');
  const pageUrl = (n: number) => withQuery(input.base, n <= 1 ? rest : rest ? `${rest}&page=${n}` : `page=${n}`);
  if (input.hasNext) out.next_rest_url = pageUrl(input.page + 1);
  if (input.hasPrevious) out.previous_rest_url = pageUrl(input.page - 1);
  return out;
}

/** Common envelope input. */
export interface ListEnvelopeInput<T = JsonObject> {
  items: readonly T[];
  /** Matching records over all pages. */
  total: number;
  totalPages: number;
  page: number;
  /** Effective (capped) page size. */
  perPage: number;
  urls: RestUrls;
}

/** §5.1 `{<collection>, rest_url, next_rest_url?, previous_rest_url?, total, total_pages}` of a post-type list. */
export function postEnvelope(collection: string, input: ListEnvelopeInput, first: QueryPairs, second: QueryPairs): JsonObject {
  const urls = postListUrls({
    base: nsUrl(input.urls, `/${collection}/`),
    page: input.page,
    first,
    second,
    hasNext: input.page < input.totalPages,
    hasPrevious: input.page > 1 && input.page - 1 <= input.totalPages,
  });
  const out: JsonObject = { [collection]: [...input.items], rest_url: urls.rest_url };
  if (urls.next_rest_url !== undefined) out.next_rest_url = urls.next_rest_url;
  if (urls.previous_rest_url !== undefined) out.previous_rest_url = urls.previous_rest_url;
  out.total = input.total;
  out.total_pages = input.totalPages;
  return out;
}

/** `X-TEC-Total` / `X-TEC-TotalPages` of every list response (§5.1). */
export function listHeaders(total: number, totalPages: number): Record<string, string> {
  return { 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(totalPages) };
}
