/** Event representation (§4.1). */
import { eventJsonLd, organizerJsonLd, venueJsonLd } from '../../presenters/json-ld.ts';
import { presentImage } from '../../presenters/image.ts';
import { presentOrganizer } from '../organizers/presenter.ts';
import { presentVenue } from '../venues/presenter.ts';
import { redact } from '../../presenters/redact.ts';
import { presentEmbeddedTerm } from '../terms/presenter.ts';
import { listHeaders, postEnvelope, stringifyValue, type ListEnvelopeInput } from '../../presenters/envelope.ts';
import type { RestEventFragment } from '../../generated/operations.ts';
import type { WpResponse } from '../../wp/types.ts';
import { DATE_BOUND_NAMES, type DateBoundValues } from '../../../src/domain/date-window.ts';
import { wireName } from '../params.ts';
import { escapeHtml } from '../../../src/domain/text.ts';
import { ZERO_DATE, dateDetails, globalId, nsUrl, postUrl, siteRoot, wpStatus, type JsonObject, type RestUrls } from '../../presenters/util.ts';

export interface EventPresentSettings {
  /** Site default currency code (TEC option, `USD`): JSON-LD `priceCurrency` fallback. */
  currencyCode: string;
}

export interface EventPresentOptions {
  /** Add `json_ld` to the event and to its nested venue/organizers (single reads only). */
  jsonLd: boolean;
  settings?: EventPresentSettings;
  /** Shorthand for `settings.currencyCode` (default `USD`). */
  currencyCode?: string;
}

export const DEFAULT_CURRENCY_CODE = 'USD';

/** `{restRoot}cal/events/v1/events/{id}`. */
export function eventRestUrl(urls: RestUrls, id: number): string {
  return nsUrl(urls, `/events/${id}`);
}

/** Public page of an event. */
export function eventUrl(node: Pick<RestEventFragment, 'databaseId' | 'status' | 'slug'>, urls: RestUrls): string {
  return postUrl(urls, 'cal_events', node.databaseId, node.status, node.slug);
}

/**
 * §4.1 event, keys in the order of the samples. `json_ld` only with `opts.jsonLd` and when the event
 * is not locked; a locked event is redacted (§4.7), a locked nested venue/organizer too.
 */
export function presentEvent(node: RestEventFragment, urls: RestUrls, opts: EventPresentOptions): JsonObject {
  // The core's decision (§3.2): password-protected and not opened by this request.
  const locked = node.locked;
  const withJsonLd = opts.jsonLd && !locked;
  const gid = globalId(urls, node.databaseId);
  const url = eventUrl(node, urls);

  const linkedOpts = { jsonLd: withJsonLd };
  const venues = node.venues.map((v) => presentVenue(v, urls, linkedOpts));
  const organizers = node.organizers.map((o) => presentOrganizer(o, urls, linkedOpts));

  const out: JsonObject = {
    id: node.databaseId,
    global_id: gid,
    global_id_lineage: [gid],
    author: String(node.authorId ?? 0),
    status: wpStatus(node.status),
    date: node.date,
    date_utc: node.dateUtc ?? ZERO_DATE,
    modified: node.modified,
    modified_utc: node.editedDateUtc ?? ZERO_DATE,
    url,
    rest_url: eventRestUrl(urls, node.databaseId),
    title: node.title,
    description: node.description,
    excerpt: node.excerpt,
    slug: node.slug ?? '',
    image: presentImage(node.image, siteRoot(urls)),
    all_day: node.allDay,
    start_date: node.startDate,
    start_date_details: dateDetails(node.startDate),
    end_date: node.endDate,
    end_date_details: dateDetails(node.endDate),
    utc_start_date: node.startDateUtc,
    utc_start_date_details: dateDetails(node.startDateUtc),
    utc_end_date: node.endDateUtc,
    utc_end_date_details: dateDetails(node.endDateUtc),
    timezone: node.timezone,
    timezone_abbr: node.timezoneAbbr,
    cost: node.cost,
    cost_details: {
      currency_symbol: node.currencySymbol ?? '',
      currency_code: node.currencyCode ?? '',
      currency_position: node.currencyPosition ?? '',
      values: [...node.costValues],
    },
    website: node.website === null || node.website === undefined ? url : escapeHtml(node.website),
    show_map: node.showMap,
    show_map_link: node.showMapLink,
    hide_from_listings: node.hideFromListings,
    sticky: node.sticky,
    featured: node.featured,
    categories: node.categories.map((t) => presentEmbeddedTerm(t, 'category', urls)),
    tags: node.tags.map((t) => presentEmbeddedTerm(t, 'tag', urls)),
    venue: venues.length === 1 ? venues[0] : venues,
    organizer: organizers,
  };

  if (withJsonLd) {
    const venue = node.venues[0];
    const organizer = node.organizers[0];
    out.json_ld = eventJsonLd(node, {
      // TEC's event link is the permalink with a trailing slash; on a not-yet-public event's
      // `?post_type=…&p=ID` link that slash arrives escaped, then once more plain (sample
      // GET_events_id_trashed_authenticated: `…&p=9%2F/`).
      url: url.includes('?') ? `${url}%2F/` : url,
      site: siteRoot(urls),
      currencyCode: opts.settings?.currencyCode ?? opts.currencyCode ?? DEFAULT_CURRENCY_CODE,
      location: venue && !venue.locked ? venueJsonLd(venue, siteRoot(urls)) : null,
      organizer: organizer && !organizer.locked ? organizerJsonLd(organizer, siteRoot(urls)) : null,
    });
  }
  return locked ? redact(out) : out;
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
export type EventWindowValues = DateBoundValues<string | null>;

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
  if (input.window) for (const bound of DATE_BOUND_NAMES) p[wireName(bound)] = input.window[bound] ?? null;
  p.per_page = input.perPage;
  p.status = stringifyValue(p.status) ?? 'publish';
  return postEnvelope('events', input, EVENTS_FIRST.map((k) => [k, p[k]] as const), EVENTS_SECOND.map((k) => [k, p[k]] as const));
}

/** `{ body: eventsEnvelope(input), headers: X-TEC-* }` — a `WpResponse` for `GET /events`. */
export function eventsListResponse(input: EventsEnvelopeInput): WpResponse {
  return { body: eventsEnvelope(input), headers: listHeaders(input.total, input.totalPages) };
}
