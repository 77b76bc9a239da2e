/** Event representation (§4.1). */
import { eventJsonLd, organizerJsonLd, venueJsonLd } from './json-ld.ts';
import { presentImage } from './image.ts';
import { presentOrganizer, presentVenue } from './linked-post.ts';
import { defaultLock, redact } from './redact.ts';
import { presentEmbeddedTerm } from './term.ts';
import type { JsonObject, LockCheck, RestEventFragment, RestUrls } from './types.ts';
import { ZERO_DATE, dateDetails, escHtml, globalId, nsUrl, postUrl, wpStatus } from './util.ts';

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
  /**
   * Password lock rule (§3.2), applied to the event and to each nested venue/organizer; default: the
   * node's `locked` field (else `hasPassword`).
   */
  isLocked?: LockCheck;
  /** Explicit lock decision for the event itself (wins over `isLocked`). */
  locked?: boolean | null;
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
  const isLocked = opts.isLocked ?? defaultLock;
  const locked = typeof opts.locked === 'boolean' ? opts.locked : isLocked(node);
  const withJsonLd = opts.jsonLd && !locked;
  const gid = globalId(urls, node.databaseId);
  const url = eventUrl(node, urls);

  const linkedOpts = { jsonLd: withJsonLd, isLocked };
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
    modified_utc: node.modifiedUtc,
    url,
    rest_url: eventRestUrl(urls, node.databaseId),
    title: node.title,
    description: node.description,
    excerpt: node.excerpt,
    slug: node.slug ?? '',
    image: presentImage(node.image),
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
    website: node.website === null || node.website === undefined ? url : escHtml(node.website),
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
      url,
      currencyCode: opts.settings?.currencyCode ?? opts.currencyCode ?? DEFAULT_CURRENCY_CODE,
      location: venue && !isLocked(venue) ? venueJsonLd(venue) : null,
      organizer: organizer && !isLocked(organizer) ? organizerJsonLd(organizer) : null,
    });
  }
  return locked ? redact(out) : out;
}
