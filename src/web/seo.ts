/**
 * What search engines and link previews read from a public page, as pure functions of the page's
 * GraphQL data: schema.org JSON-LD (`Event`, `Place`, `Organization`), OpenGraph and Twitter card
 * meta, and the OpenStreetMap link of a venue (a plain link: no map script, no request off the host).
 * Inputs are structural (the fields the page operations select), so any operation's result fits.
 */
import { LANGS } from '../../rest-facade/wp/types.ts';
import { offerPrice } from '../domain/cost.ts';
import { escapeHtml, htmlToText } from '../domain/text.ts';

export type JsonLd = { [key: string]: JsonLdValue };
type JsonLdValue = string | number | boolean | null | JsonLd | JsonLdValue[];

export interface SeoImage {
  readonly url: string;
  readonly width?: number | null;
  readonly height?: number | null;
}

export interface SeoVenue {
  readonly name: string;
  readonly address: string;
  readonly city: string;
  readonly stateProvince: string;
  readonly zip: string;
  readonly country: string;
  readonly phone: string;
  readonly website: string;
  readonly latitude?: number | null;
  readonly longitude?: number | null;
  readonly image?: SeoImage | null;
  readonly description?: string;
  readonly excerpt?: string;
}

export interface SeoOrganizer {
  readonly name: string;
  readonly phone: string;
  readonly website: string;
  readonly email: string;
  readonly image?: SeoImage | null;
  readonly description?: string;
  readonly excerpt?: string;
}

export interface SeoEvent {
  readonly title: string;
  /** The body (HTML); a calendar view selects the excerpt alone. */
  readonly description?: string;
  readonly excerpt: string;
  /** Start and end instants (ISO 8601), and the event-local wall clocks (`YYYY-MM-DD HH:MM:SS`). */
  readonly startsAt: string;
  readonly endsAt: string;
  readonly startDate: string;
  readonly endDate: string;
  readonly allDay: boolean;
  readonly timezone: string;
  readonly cost: string;
  readonly costRaw: readonly string[];
  readonly currencyCode: string;
  readonly publishedAt?: string | null;
  readonly image?: SeoImage | null;
}

/** An absolute URL: site-relative paths (images this service keeps) are put under the site. */
export function absoluteUrl(url: string, site: string): string {
  if (/^[a-z][a-z0-9+.-]*:/i.test(url)) return url;
  return `${site.replace(/\/$/, '')}/${url.replace(/^\//, '')}`;
}

/** Plain text of an HTML field for a meta description: tags gone, spaces folded, at most `max` characters. */
export function summary(html: string, max = 200): string {
  const text = htmlToText(html).replace(/\s+/g, ' ').trim();
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > max * 0.6 ? cut.slice(0, space) : cut}…`;
}

/** A venue's address on one line (street, city, region, postcode, country; the parts it has). */
export function addressLine(v: Pick<SeoVenue, 'address' | 'city' | 'stateProvince' | 'zip' | 'country'>): string {
  return [v.address, v.city, [v.stateProvince, v.zip].filter(Boolean).join(' '), v.country].map((p) => p.trim()).filter(Boolean).join(', ');
}

/**
 * The venue on OpenStreetMap: its coordinates when it has them, else a search for its address;
 * null when it has neither.
 */
export function mapUrl(v: Pick<SeoVenue, 'address' | 'city' | 'stateProvince' | 'zip' | 'country' | 'latitude' | 'longitude'>): string | null {
  if (typeof v.latitude === 'number' && typeof v.longitude === 'number' && Number.isFinite(v.latitude) && Number.isFinite(v.longitude)) {
    const lat = v.latitude.toFixed(6);
    const lon = v.longitude.toFixed(6);
    return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lon}#map=17/${lat}/${lon}`;
  }
  const line = addressLine(v);
  return line ? `https://www.openstreetmap.org/search?query=${encodeURIComponent(line)}` : null;
}

/** ISO 8601 with the event's offset (`2027-03-13T19:00:00-05:00`); a date alone for all-day events. */
export function isoLocal(wall: string, instant: string, allDay: boolean): string {
  if (allDay) return wall.slice(0, 10);
  const local = Date.parse(`${wall.replace(' ', 'T')}Z`);
  const utc = Date.parse(instant);
  if (!Number.isFinite(local) || !Number.isFinite(utc)) return instant;
  const minutes = Math.round((local - utc) / 60_000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${wall.replace(' ', 'T').slice(0, 19)}${offset}`;
}

function withImage(out: JsonLd, image: SeoImage | null | undefined, site: string): JsonLd {
  if (image?.url) out.image = absoluteUrl(image.url, site);
  return out;
}

/** schema.org `Place` of a venue, with its `PostalAddress` and coordinates. */
export function placeJsonLd(v: SeoVenue, url: string, site: string): JsonLd {
  const out: JsonLd = { '@type': 'Place', name: htmlToText(v.name), url };
  const address: JsonLd = { '@type': 'PostalAddress' };
  const parts: Array<[string, string]> = [
    ['streetAddress', v.address],
    ['addressLocality', v.city],
    ['addressRegion', v.stateProvince],
    ['postalCode', v.zip],
    ['addressCountry', v.country],
  ];
  for (const [k, value] of parts) if (value) address[k] = value;
  out.address = address;
  if (typeof v.latitude === 'number' && typeof v.longitude === 'number') out.geo = { '@type': 'GeoCoordinates', latitude: v.latitude, longitude: v.longitude };
  if (v.phone) out.telephone = v.phone;
  if (v.website) out.sameAs = v.website;
  const description = v.excerpt || v.description ? summary(v.excerpt || v.description || '', 500) : '';
  if (description) out.description = description;
  return withImage(out, v.image, site);
}

/** schema.org `Organization` of an organizer. */
export function organizationJsonLd(o: SeoOrganizer, url: string, site: string): JsonLd {
  const out: JsonLd = { '@type': 'Organization', name: htmlToText(o.name), url: o.website || url };
  if (o.phone) out.telephone = o.phone;
  if (o.email) out.email = o.email;
  if (o.website) out.sameAs = o.website;
  const description = o.excerpt || o.description ? summary(o.excerpt || o.description || '', 500) : '';
  if (description) out.description = description;
  return withImage(out, o.image, site);
}

export interface EventJsonLdLinks {
  /** The event's public page. */
  url: string;
  site: string;
  /** Site default currency (`priceCurrency` when the event has none). */
  currencyCode: string;
  /** The first visible venue and organizer, with their pages. */
  venue?: { venue: SeoVenue; url: string } | null;
  organizer?: { organizer: SeoOrganizer; url: string } | null;
}

/**
 * schema.org `Event`: scheduled and attended in person (a venue) or online (none), its `Place`,
 * its `Organization`, and an `Offer` when it has a cost (price without currency, as the REST `json_ld`).
 * Without `@context`: an event page wraps it in `withContext`, a view's `ItemList` holds it.
 */
export function eventJsonLd(e: SeoEvent, links: EventJsonLdLinks): JsonLd {
  const out: JsonLd = {
    '@type': 'Event',
    name: htmlToText(e.title),
    url: links.url,
    startDate: isoLocal(e.startDate, e.startsAt, e.allDay),
    endDate: isoLocal(e.endDate, e.endsAt, e.allDay),
    eventStatus: 'https://schema.org/EventScheduled',
    eventAttendanceMode: links.venue ? 'https://schema.org/OfflineEventAttendanceMode' : 'https://schema.org/OnlineEventAttendanceMode',
  };
  const description = summary(e.excerpt || e.description || '', 500);
  if (description) out.description = description;
  withImage(out, e.image, links.site);
  out.location = links.venue ? placeJsonLd(links.venue.venue, links.venue.url, links.site) : { '@type': 'VirtualLocation', url: links.url };
  if (links.organizer) out.organizer = organizationJsonLd(links.organizer.organizer, links.organizer.url, links.site);
  const price = offerPrice([...e.costRaw]);
  if (e.cost !== '' && price !== '') {
    const offer: JsonLd = { '@type': 'Offer', price, priceCurrency: e.currencyCode || links.currencyCode, url: links.url, availability: 'https://schema.org/InStock' };
    if (e.publishedAt) offer.validFrom = e.publishedAt;
    out.offers = offer;
  }
  return out;
}

/**
 * schema.org `ItemList` of the events a calendar view shows, in the view's order: each a `ListItem`
 * with its position (from `first`: a later page of a list goes on counting), the event page's URL
 * and the event itself (eventJsonLd).
 */
export function eventItemList(list: { name: string; url: string; first?: number }, events: readonly { url: string; event: JsonLd }[]): JsonLd {
  const first = list.first ?? 1;
  return {
    '@context': 'https://schema.org',
    '@type': 'ItemList',
    name: list.name,
    url: list.url,
    numberOfItems: events.length,
    itemListElement: events.map((e, i) => ({ '@type': 'ListItem', position: first + i, url: e.url, item: e.event })),
  };
}

/** A JSON-LD object with its `@context` (event, venue and organizer pages). */
export function withContext(value: JsonLd): JsonLd {
  return { '@context': 'https://schema.org', ...value };
}

/** JSON for a `<script type="application/ld+json">` block: nothing in it can close the element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

export interface PageMetaInput {
  title: string;
  description: string;
  /** Canonical URL of the page. */
  url: string;
  siteName: string;
  /** `website`, `article` (events, venues, organizers). */
  type: 'website' | 'article';
  /** BCP 47 language of the page (`fr`), written as OpenGraph's `fr_FR`-style locale. */
  lang: string;
  image?: SeoImage | null;
  site: string;
}

/** `<link rel=alternate hreflang>` of a page in every language (en is the unprefixed site). */
export function languageAlternates(site: string, path: string): { lang: string; href: string }[] {
  return [...LANGS.map((lang) => ({ lang, href: `${site}${lang === 'en' ? '' : `/${lang}`}${path}` })), { lang: 'x-default', href: `${site}${path}` }];
}

export interface MetaTag {
  /** `property` (OpenGraph) or `name` (description, Twitter). */
  attr: 'property' | 'name';
  key: string;
  content: string;
}

const OG_LOCALES: Record<string, string> = { en: 'en_US', fr: 'fr_FR', de: 'de_DE', es: 'es_ES', it: 'it_IT', nl: 'nl_NL', pt: 'pt_PT', pl: 'pl_PL' };

/** `<meta name="description">`, OpenGraph and Twitter card tags of a page. */
export function pageMeta(input: PageMetaInput): MetaTag[] {
  const tags: MetaTag[] = [];
  const add = (attr: MetaTag['attr'], key: string, content: string | number | null | undefined) => {
    if (content !== null && content !== undefined && content !== '') tags.push({ attr, key, content: String(content) });
  };
  add('name', 'description', input.description);
  add('property', 'og:type', input.type);
  add('property', 'og:site_name', input.siteName);
  add('property', 'og:title', input.title);
  add('property', 'og:description', input.description);
  add('property', 'og:url', input.url);
  add('property', 'og:locale', OG_LOCALES[input.lang] ?? OG_LOCALES.en);
  if (input.image?.url) {
    add('property', 'og:image', absoluteUrl(input.image.url, input.site));
    add('property', 'og:image:width', input.image.width);
    add('property', 'og:image:height', input.image.height);
  }
  add('name', 'twitter:card', input.image?.url ? 'summary_large_image' : 'summary');
  add('name', 'twitter:title', input.title);
  add('name', 'twitter:description', input.description);
  if (input.image?.url) add('name', 'twitter:image', absoluteUrl(input.image.url, input.site));
  return tags;
}

export interface PageHeadInput extends Omit<PageMetaInput, 'url'> {
  /** The page's home: the site, with the language prefix of a `/fr/…` page. */
  home: string;
  /** Canonical path under the home (`/venue/grand-hall/`, `/events/2026-12/`), language prefix excluded. */
  path: string;
}

/**
 * The `<head>` HTML of a public page (record pages and calendar views alike): its canonical URL,
 * the same page in every language, the description, OpenGraph and Twitter card meta.
 */
export function headHtml(input: PageHeadInput): string {
  const canonical = input.home + input.path;
  return [
    `<link rel="canonical" href="${escapeHtml(canonical)}">`,
    ...languageAlternates(input.site, input.path).map((a) => `<link rel="alternate" hreflang="${a.lang}" href="${escapeHtml(a.href)}">`),
    ...pageMeta({ ...input, url: canonical }).map((m) => `<meta ${m.attr}="${m.key}" content="${escapeHtml(m.content)}">`),
  ].join('\n');
}
