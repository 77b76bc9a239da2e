/**
 * schema.org JSON-LD of events, venues and organizers (§4.6). Strings taken from post fields go
 * through `esc_js` like TEC's `Tribe__JSON_LD__Abstract` (HTML-escaped, `\n` shown as two
 * characters).
 */
import type { RestEventFragment, RestOrganizerFragment, RestVenueFragment } from '../generated/operations.ts';
import { offerPrice } from '../../src/domain/cost.ts';
import { stripAllTags } from '../../src/domain/text.ts';
import { absoluteImageUrl } from './image.ts';
import { escJs, isoWithOffset, type JsonObject } from './util.ts';

/** The post-like fragments (events, venues, organizers). */
type RestPost = RestEventFragment | RestVenueFragment | RestOrganizerFragment;

const EXCERPT_WORDS = 55;
const EXCERPT_MORE = ' [&hellip;]';

/**
 * `tribe_events_get_the_excerpt()` from the rendered fields: the manual excerpt when there is one,
 * else the content cut to 55 words without markup; `wpautop`ed (hence the trailing newline).
 */
export function jsonLdDescription(node: Pick<RestPost, 'description' | 'excerpt'>): string {
  const excerpt = (node.excerpt ?? '').trim();
  if (excerpt) return `${excerpt}\n`;
  const words = stripAllTags(node.description ?? '')
    .split(/[\n\r\t ]+/)
    .filter(Boolean);
  if (!words.length) return '';
  const text = words.length > EXCERPT_WORDS ? words.slice(0, EXCERPT_WORDS).join(' ') + EXCERPT_MORE : words.join(' ');
  return `<p>${text}</p>\n`;
}

/**
 * The name as WordPress's `get_the_title()` gives it outside the admin: `Protected: …` for a
 * password-protected record, `Private: …` for a private one (the REST `title` has no prefix).
 */
function displayTitle(name: string, node: RestPost): string {
  if (node.hasPassword) return `Protected: ${name}`;
  return node.status === 'PRIVATE' ? `Private: ${name}` : name;
}

function base(type: string, name: string, node: RestPost, site: string): JsonObject {
  const out: JsonObject = { '@type': type, name: escJs(displayTitle(name, node)), description: escJs(jsonLdDescription(node)) };
  if (node.image?.url) out.image = absoluteImageUrl(node.image.url, site);
  return out;
}

/** `addressRegion`: the state for US venues, else the province; the stored state/province as a fallback. */
function region(v: RestVenueFragment): string {
  const us = v.country === 'United States' || v.country === 'US' || v.country === 'USA';
  return (us ? v.state : v.province) || v.stateprovince || v.state || v.province || '';
}

/** Venue JSON-LD (`Place`, no `@context`). */
export function venueJsonLd(v: RestVenueFragment, site: string): JsonObject {
  const out = base('Place', v.name, v, site);
  out.url = '';
  const address: JsonObject = { '@type': 'PostalAddress' };
  const parts: Array<[string, string]> = [
    ['streetAddress', v.address],
    ['addressLocality', v.city],
    ['addressRegion', region(v)],
    ['postalCode', v.zip],
    ['addressCountry', v.country],
  ];
  for (const [k, val] of parts) if (val) address[k] = val;
  out.address = address;
  if (v.latitude && v.longitude) out.geo = { '@type': 'GeoCoordinates', latitude: v.latitude, longitude: v.longitude };
  out.telephone = v.phone ?? '';
  out.sameAs = v.website ?? '';
  return out;
}

/** Organizer JSON-LD (`Person`, no `@context`). REC: the e-mail is not entity-obfuscated. */
export function organizerJsonLd(o: RestOrganizerFragment, site: string): JsonObject {
  const out = base('Person', o.name, o, site);
  out.url = o.website ?? '';
  out.telephone = o.phone ?? '';
  out.email = o.email ?? '';
  out.sameAs = o.website ?? '';
  return out;
}


export interface EventJsonLdInput {
  /** The site URL (image URLs of files this service keeps are made absolute under it). */
  site: string;
  /** The event's public `url` (already built). */
  url: string;
  /** Site default currency code (`priceCurrency` when the event has none). */
  currencyCode: string;
  /** JSON-LD of the first venue (`location`), when visible. */
  location?: JsonObject | null;
  /** JSON-LD of the first organizer, when visible. */
  organizer?: JsonObject | null;
}

/** Event JSON-LD (§4.6). */
export function eventJsonLd(e: RestEventFragment, input: EventJsonLdInput): JsonObject {
  const out: JsonObject = { '@context': 'http://schema.org', ...base('Event', e.title, e, input.site) };
  out.url = input.url;
  out.eventAttendanceMode = 'https://schema.org/OfflineEventAttendanceMode';
  out.eventStatus = 'https://schema.org/EventScheduled';
  out.startDate = isoWithOffset(e.startDate, e.startDateUtc);
  out.endDate = isoWithOffset(e.endDate, e.endDateUtc);
  if (input.location) out.location = input.location;
  if (input.organizer) out.organizer = input.organizer;
  const price = offerPrice(e.costRaw);
  if (e.cost !== '' && price !== '') {
    out.offers = {
      '@type': 'Offer',
      price,
      priceCurrency: e.currencyCode || input.currencyCode,
      url: input.url,
      category: 'primary',
      availability: 'inStock',
      validFrom: `${String(e.date).slice(0, 10)}T00:00:00+00:00`,
    };
  }
  out.performer = 'Organization';
  return out;
}
