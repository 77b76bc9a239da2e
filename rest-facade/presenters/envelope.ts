/**
 * Collection envelopes (§5.1) and their `rest_url` / `next_rest_url` / `previous_rest_url` (§5.3).
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
import type { Taxonomy } from './term.ts';
import { TAXONOMY_COLLECTION } from './term.ts';
import type { WpResponse } from '../wp/types.ts';
import type { JsonObject, RestUrls } from './types.ts';
import { nsUrl, phpUrlencode, rawQueryValue } from './util.ts';

/**
 * A query value: lists are written as CSV, booleans as `1`/`0`; `null`/`undefined`/`""`/`[]` (and
 * objects) are skipped.
 */
export type QueryValue = string | number | boolean | readonly (string | number)[] | null | undefined;
export type QueryPairs = ReadonlyArray<readonly [string, unknown]>;

function stringifyValue(v: unknown): string | null {
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

function present(pairs: QueryPairs): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [k, v] of pairs) {
    const s = stringifyValue(v);
    if (s !== null) out.push([k, s]);
  }
  return out;
}

function encodePairs(pairs: Array<[string, string]>, mode: 'raw' | 'form'): string {
  return pairs.map(([k, v]) => `${phpUrlencode(k)}=${mode === 'raw' ? rawQueryValue(v) : phpUrlencode(v)}`).join('&');
}

function withQuery(base: string, query: string): string {
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

/**
 * URL parameters of `GET /events` (wire names). Pass the values actually used: normalized dates
 * (or give the connection's `window`), the effective status list (default `publish`; `any` for
 * callers with `edit_posts` who sent none), and for the other filters only what the client sent
 * (e.g. `sentParams(req, [...])`); `password` is never written into URLs.
 */
export interface EventsUrlParams {
  start_date?: string | null;
  end_date?: string | null;
  search?: string | null;
  geoloc?: boolean | null;
  geoloc_lat?: number | string | null;
  geoloc_lng?: number | string | null;
  status?: string | readonly string[] | null;
  post_parent?: number | null;
  include?: readonly number[] | null;
  starts_before?: string | null;
  starts_after?: string | null;
  ends_before?: string | null;
  ends_after?: string | null;
  venue?: readonly number[] | null;
  organizer?: readonly number[] | null;
  /** `true` → `featured=1`; REC: `false` → `featured=0` (PHP drops it). */
  featured?: boolean | null;
  /** REC-carried (PHP drops them), appended in this order after the second group. */
  categories?: readonly (number | string)[] | null;
  tags?: readonly (number | string)[] | null;
  ticketed?: boolean | null;
  strict_dates?: boolean | string | null;
}

/** The GraphQL `EventConnection.window` (normalized bounds actually queried, §5.5). */
export interface EventWindowValues {
  startDate?: string | null;
  endDate?: string | null;
  startsBefore?: string | null;
  startsAfter?: string | null;
  endsBefore?: string | null;
  endsAfter?: string | null;
}

const WINDOW_KEYS = [
  ['start_date', 'startDate'],
  ['end_date', 'endDate'],
  ['starts_before', 'startsBefore'],
  ['starts_after', 'startsAfter'],
  ['ends_before', 'endsBefore'],
  ['ends_after', 'endsAfter'],
] as const;

const EVENTS_FIRST = [
  'per_page', 'start_date', 'end_date', 'search', 'geoloc', 'geoloc_lat', 'geoloc_lng', 'status', 'post_parent',
  'include', 'starts_before', 'starts_after', 'ends_before', 'ends_after',
] as const;
const EVENTS_SECOND = ['venue', 'organizer', 'featured', 'categories', 'tags', 'ticketed', 'strict_dates'] as const;

export interface EventsEnvelopeInput extends ListEnvelopeInput {
  params?: EventsUrlParams | Record<string, unknown>;
  /** When given, the date parameters are taken from it (and any date in `params` is ignored). */
  window?: EventWindowValues | null;
}

/** §5.1 `{events, rest_url, next_rest_url?, previous_rest_url?, total, total_pages}`. */
export function eventsEnvelope(input: EventsEnvelopeInput): JsonObject {
  const p: Record<string, unknown> = { ...(input.params ?? {}) };
  if (input.window) for (const [wire, key] of WINDOW_KEYS) p[wire] = input.window[key] ?? null;
  p.per_page = input.perPage;
  p.status = stringifyValue(p.status) ?? 'publish';
  return postEnvelope('events', input, EVENTS_FIRST.map((k) => [k, p[k]] as const), EVENTS_SECOND.map((k) => [k, p[k]] as const));
}

/** URL parameters of `GET /venues` and `GET /organizers` (wire names; see {@link EventsUrlParams}). */
export interface LinkedPostsUrlParams {
  event?: number | null;
  has_events?: boolean | string | null;
  /** Effective status list; default `publish`. */
  status?: string | readonly string[] | null;
  /** REC-carried (PHP drops them), appended after the documented group. */
  search?: string | null;
  only_with_upcoming?: boolean | string | null;
}

const LINKED_FIRST = ['per_page', 'event', 'has_events', 'status'] as const;
const LINKED_SECOND = ['search', 'only_with_upcoming'] as const;

export interface LinkedPostsEnvelopeInput extends ListEnvelopeInput {
  params?: LinkedPostsUrlParams | Record<string, unknown>;
}

/** §5.1 `{venues|organizers, rest_url, next_rest_url?, previous_rest_url?, total, total_pages}`. */
export function linkedPostsEnvelope(kind: 'venue' | 'organizer', input: LinkedPostsEnvelopeInput): JsonObject {
  const p: Record<string, unknown> = { ...(input.params ?? {}) };
  p.per_page = input.perPage;
  p.status = stringifyValue(p.status) ?? 'publish';
  const collection = kind === 'venue' ? 'venues' : 'organizers';
  return postEnvelope(collection, input, LINKED_FIRST.map((k) => [k, p[k]] as const), LINKED_SECOND.map((k) => [k, p[k]] as const));
}

/** §5.1 venues envelope. */
export function venuesEnvelope(input: LinkedPostsEnvelopeInput): JsonObject {
  return linkedPostsEnvelope('venue', input);
}

/** §5.1 organizers envelope. */
export function organizersEnvelope(input: LinkedPostsEnvelopeInput): JsonObject {
  return linkedPostsEnvelope('organizer', input);
}

function postEnvelope(collection: string, input: ListEnvelopeInput, first: QueryPairs, second: QueryPairs): JsonObject {
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

/** URL parameters of `GET /categories` and `GET /tags` the client sent (REC: carried; PHP carries none). */
export interface TermsUrlParams {
  per_page?: number | null;
  search?: string | null;
  exclude?: readonly number[] | null;
  include?: readonly number[] | null;
  order?: string | null;
  orderby?: string | null;
  hide_empty?: boolean | string | null;
  /** Categories only. */
  parent?: number | null;
  post?: number | null;
  event?: number | null;
  slug?: string | null;
}

const TERMS_ORDER = ['per_page', 'search', 'exclude', 'include', 'order', 'orderby', 'hide_empty', 'parent', 'post', 'event', 'slug'] as const;

/** `rest_url`, `next_rest_url`, `previous_rest_url` of a term list (§5.3). */
export function termListUrls(input: {
  base: string;
  page: number;
  totalPages: number;
  params?: TermsUrlParams | Record<string, unknown>;
}): { rest_url: string; next_rest_url?: string; previous_rest_url?: string } {
  const p = (input.params ?? {}) as Record<string, unknown>;
  const filters = encodePairs(present(TERMS_ORDER.map((k) => [k, p[k]] as const)), 'form');
  const pageUrl = (n: number) => withQuery(input.base, n <= 1 ? filters : filters ? `${filters}&page=${n}` : `page=${n}`);
  const out: { rest_url: string; next_rest_url?: string; previous_rest_url?: string } = { rest_url: withQuery(input.base, filters) };
  if (input.page < input.totalPages) out.next_rest_url = pageUrl(input.page + 1);
  if (input.page > 1) out.previous_rest_url = pageUrl(input.page - 1);
  return out;
}

/** §5.1 term envelope — different order: `{rest_url, total, total_pages, categories|tags, next_rest_url?, previous_rest_url?}`. */
export function termsEnvelope(taxonomy: Taxonomy, input: ListEnvelopeInput & { params?: TermsUrlParams | Record<string, unknown> }): JsonObject {
  const collection = TAXONOMY_COLLECTION[taxonomy];
  const urls = termListUrls({ base: nsUrl(input.urls, `/${collection}/`), page: input.page, totalPages: input.totalPages, params: input.params });
  const out: JsonObject = { rest_url: urls.rest_url, total: input.total, total_pages: input.totalPages, [collection]: [...input.items] };
  if (urls.next_rest_url !== undefined) out.next_rest_url = urls.next_rest_url;
  if (urls.previous_rest_url !== undefined) out.previous_rest_url = urls.previous_rest_url;
  return out;
}

/** `X-TEC-Total` / `X-TEC-TotalPages` of every list response (§5.1). */
export function listHeaders(total: number, totalPages: number): Record<string, string> {
  return { 'X-TEC-Total': String(total), 'X-TEC-TotalPages': String(totalPages) };
}

/* ------------------------------------------------ handler responses (envelope + X-TEC-* headers) */

/** `{ body: eventsEnvelope(input), headers: X-TEC-* }` — a `WpResponse` for `GET /events`. */
export function eventsListResponse(input: EventsEnvelopeInput): WpResponse {
  return { body: eventsEnvelope(input), headers: listHeaders(input.total, input.totalPages) };
}

/** `WpResponse` for `GET /venues` / `GET /organizers`. */
export function linkedPostsListResponse(kind: 'venue' | 'organizer', input: LinkedPostsEnvelopeInput): WpResponse {
  return { body: linkedPostsEnvelope(kind, input), headers: listHeaders(input.total, input.totalPages) };
}

/** `WpResponse` for `GET /categories` / `GET /tags`. */
export function termsListResponse(taxonomy: Taxonomy, input: ListEnvelopeInput & { params?: TermsUrlParams | Record<string, unknown> }): WpResponse {
  return { body: termsEnvelope(taxonomy, input), headers: listHeaders(input.total, input.totalPages) };
}
