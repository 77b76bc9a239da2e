/**
 * REST shapes of The Events Calendar (`tribe/events/v1`) and of cal-events (`cal/events/v1`, the
 * same shapes) → the records the transfer services write. References (author, image, venues,
 * organizers, terms, parent) stay source IDs here; the import translates them.
 */
import { formatCost, parseCostValues } from '../domain/cost.ts';
import type { EventRecord, OrganizerRecord, TermRecord, VenueRecord } from './restore.ts';

type Json = Record<string, unknown>;

export const ZERO_DATE = '0000-00-00 00:00:00';

/** A source image: its ID there and the URL to download it from. */
export interface SourceImage {
  id: number;
  url: string;
}

export interface Mapped<R> {
  sourceId: number;
  /** Source user ID (`author`). */
  author: number | null;
  image: SourceImage | null;
  record: R;
}

export class MapError extends Error {}

/** A nested JSON object of the source's answer (`cost_details`), or undefined when it is none. */
const object = (v: unknown): Json | undefined => (typeof v === 'object' && v !== null ? (v as Json) : undefined);

const str = (v: unknown): string => (v === undefined || v === null || v === false ? '' : String(v));

function need(o: Json, key: string): string {
  const v = o[key];
  if (typeof v !== 'string' || !v) throw new MapError(`missing "${key}"`);
  return v;
}

function id(o: Json): number {
  const n = Number(o?.id);
  if (!Number.isInteger(n) || n < 1) throw new MapError('missing or invalid "id"');
  return n;
}

const STAMP = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
function stamp(o: Json, key: string): string {
  const v = need(o, key);
  if (!STAMP.test(v) || v === ZERO_DATE) throw new MapError(`"${key}" is not a date: ${v}`);
  return v;
}

/** A date WordPress may leave unset (`0000-00-00 00:00:00`, or absent): null then. */
function optionalStamp(o: Json, key: string): string | null {
  const v = str(o[key]);
  return v === '' || v === ZERO_DATE ? null : stamp(o, key);
}

/** HTML entities the REST output escapes in URLs (`esc_url`, `esc_html`). */
export function unescapeHtml(text: string): string {
  return text
    .replace(/&#0?38;|&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;|&#0?34;/g, '"')
    .replace(/&#0?39;|&apos;/g, "'");
}

function image(v: unknown): SourceImage | null {
  if (!v || typeof v !== 'object') return null;
  const i = v as Json;
  return typeof i.url === 'string' && i.url ? { id: Number(i.id) || 0, url: unescapeHtml(i.url) } : null;
}

/**
 * Fields every post shares. WordPress leaves the GMT dates of a post never published at
 * `0000-00-00 00:00:00`: `date_utc` stays unset (a draft has no publication date), and so does
 * `modified_utc` of a draft never edited since it was created (the REST API answers it so, as the
 * plugin does; the next save sets it). A draft or pending post has no slug until it is published
 * (`""`), kept as none.
 */
function common(o: Json) {
  const modifiedLocal = optionalStamp(o, 'modified') ?? stamp(o, 'date');
  const dateLocal = optionalStamp(o, 'date') ?? modifiedLocal;
  return {
    authorId: null,
    status: need(o, 'status'),
    trashedFromStatus: null,
    slug: str(o.slug) || null,
    content: str(o.description),
    excerpt: str(o.excerpt),
    password: '',
    dateUtc: optionalStamp(o, 'date_utc'),
    dateLocal,
    modifiedUtc: optionalStamp(o, 'modified_utc'),
    modifiedLocal,
    imageId: null,
  };
}

const author = (o: Json) => (Number(o.author) > 0 ? Number(o.author) : null);

/**
 * The stored cost behind a formatted `cost` and its `cost_details`: the REST API shows only the
 * formatted text, so the first candidate that formats back to exactly that text is kept.
 */
export function storedCost(cost: string, details: Json | undefined, site: { symbol: string; position: string }): string[] {
  if (!cost) return [];
  const symbol = str(details?.currency_symbol);
  const position = str(details?.currency_position);
  const values: string[] = Array.isArray(details?.values) ? details!.values.map(String) : [];
  const plain = symbol ? cost.split(symbol).join('').trim() : cost;
  const siteStripped = cost.split(site.symbol).join('').trim();
  const candidates = [[cost], [plain], [siteStripped], values, [values.join(' - ')], [siteStripped.replace(/\s*–\s*/g, ' - ')]];
  for (const c of candidates) {
    if (!c.length || c.some((s) => !s)) continue;
    const formatted = formatCost(c, { currencySymbol: symbol, currencyPosition: position, siteSymbol: site.symbol, sitePosition: site.position });
    if (formatted === cost && JSON.stringify(parseCostValues(c)) === JSON.stringify(values)) return c;
  }
  return [cost];
}

const ids = (v: unknown): number[] => {
  const list = Array.isArray(v) ? v : v && typeof v === 'object' ? [v] : [];
  return list.map((x: Json) => Number(x?.id)).filter((n) => Number.isInteger(n) && n > 0);
};

/** What the mapping needs to know of the source site: its default currency. */
export interface SourceSite {
  symbol: string;
  position: string;
}

export function mapEvent(o: Json, site: SourceSite): Mapped<EventRecord> {
  const url = str(o.url);
  const website = str(o.website);
  const costDetails = object(o.cost_details);
  const record: EventRecord = {
    ...common(o),
    title: need(o, 'title'),
    startLocal: stamp(o, 'start_date'),
    endLocal: stamp(o, 'end_date'),
    startUtc: stamp(o, 'utc_start_date'),
    endUtc: stamp(o, 'utc_end_date'),
    timezone: need(o, 'timezone'),
    allDay: o.all_day === true,
    cost: storedCost(str(o.cost), costDetails, site),
    currencySymbol: str(costDetails?.currency_symbol),
    currencyPosition: str(costDetails?.currency_position),
    currencyCode: str(costDetails?.currency_code),
    // The event's own URL stands for "no website stored" (escaped or not: `&#038;p=ID` of a draft).
    website: !website || unescapeHtml(website) === unescapeHtml(url) ? null : unescapeHtml(website),
    showMap: o.show_map === undefined ? null : o.show_map !== false,
    showMapLink: o.show_map_link === undefined ? null : o.show_map_link !== false,
    hideFromListings: o.hide_from_listings === true,
    sticky: o.sticky === true,
    featured: o.featured === true,
    parentId: null,
    venueIds: ids(o.venue),
    organizerIds: ids(o.organizer),
    categoryIds: ids(o.categories),
    tagIds: ids(o.tags),
  };
  return { sourceId: id(o), author: author(o), image: image(o.image), record };
}

const num = (v: unknown): number | null => (v === null || v === undefined || v === '' || Number.isNaN(Number(v)) ? null : Number(v));

export function mapVenue(o: Json): Mapped<VenueRecord> {
  const record: VenueRecord = {
    ...common(o),
    name: need(o, 'venue'),
    address: str(o.address),
    city: str(o.city),
    country: str(o.country),
    province: str(o.province),
    state: str(o.state),
    stateprovince: str(o.stateprovince),
    zip: str(o.zip),
    phone: str(o.phone),
    website: unescapeHtml(str(o.website)),
    latitude: num(o.geo_lat),
    longitude: num(o.geo_lng),
    showMap: o.show_map === undefined ? null : o.show_map !== false,
    showMapLink: o.show_map_link === undefined ? null : o.show_map_link !== false,
  };
  return { sourceId: id(o), author: author(o), image: image(o.image), record };
}

export function mapOrganizer(o: Json): Mapped<OrganizerRecord> {
  const record: OrganizerRecord = {
    ...common(o),
    name: need(o, 'organizer'),
    phone: str(o.phone),
    website: unescapeHtml(str(o.website)),
    email: str(o.email),
  };
  return { sourceId: id(o), author: author(o), image: image(o.image), record };
}

export function mapTerm(o: Json): Mapped<TermRecord> {
  const record: TermRecord = {
    name: unescapeHtml(need(o, 'name')),
    slug: need(o, 'slug'),
    description: str(o.description),
    parentId: Number(o.parent) > 0 ? Number(o.parent) : null,
  };
  return { sourceId: id(o), author: null, image: null, record };
}
