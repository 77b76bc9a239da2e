/**
 * Small pure helpers shared by the presenters: URL building (§4, §5.3), PHP-compatible string
 * escaping (`esc_js`, `urlencode`) and wall-clock splitting (§4.2.1).
 */
import { NAMESPACE } from '../wp/types.ts';
import type { PostStatus } from '../generated/operations.ts';

/**
 * Absolute-URL context. Structurally compatible with `WpUrls` (rest-facade/wp/types.ts): pass
 * `req.urls` directly.
 */
export interface RestUrls {
  /** `home_url()` without trailing slash, e.g. `http://localhost:8080` or `http://localhost:8080/fr`. */
  home: string;
  /** `rest_url()`, e.g. `http://localhost:8080/wp-json/` (a missing trailing slash is tolerated). */
  restRoot: string;
  /** Host used in `global_id` (no scheme, no port); default: the host name of `home`. */
  host?: string;
  /** The site URL without the language prefix (files under `/wp-content/uploads/`); default: `home`. */
  site?: string;
}

export type JsonObject = Record<string, unknown>;

export const ZERO_DATE = '0000-00-00 00:00:00';

/** `publish`, `future`, … from the GraphQL enum. */
export function wpStatus(status: PostStatus | string): string {
  return String(status).toLowerCase();
}

/** `rest_url()` with a guaranteed trailing slash. */
export function restRoot(urls: RestUrls): string {
  return urls.restRoot.endsWith('/') ? urls.restRoot : `${urls.restRoot}/`;
}

/** `home_url()` without trailing slash. */
export function homeRoot(urls: RestUrls): string {
  return urls.home.replace(/\/+$/, '');
}

/** The site URL without trailing slash nor language prefix. */
export function siteRoot(urls: RestUrls): string {
  return (urls.site ?? urls.home).replace(/\/+$/, '');
}

/** `{restRoot}cal/events/v1{path}`. */
export function nsUrl(urls: RestUrls, path = ''): string {
  return `${restRoot(urls)}${NAMESPACE}${path}`;
}

/** `{restRoot}wp/v2{path}` (term `_links`). */
export function wpV2Url(urls: RestUrls, path = ''): string {
  return `${restRoot(urls)}wp/v2${path}`;
}

/** `{host}{home path}?id={id}` — no scheme, no port (§4.1). */
export function globalId(urls: RestUrls, id: number): string {
  return `${globalIdPrefix(urls)}?id=${id}`;
}

/** `{host}{home path}` by site: a page presents hundreds of global IDs over the same one or two URLs (URL parsing is the cost). */
const globalIdPrefixes = new Map<string, string>();
function globalIdPrefix(urls: RestUrls): string {
  // NUL cannot occur in a host or a URL; a missing host is keyed apart from an empty one.
  const key = urls.host === undefined ? urls.home : `${urls.host}\u0000${urls.home}`;
  let prefix = globalIdPrefixes.get(key);
  if (prefix !== undefined) return prefix;
  let host = urls.host;
  let path = '';
  try {
    const u = new URL(homeRoot(urls));
    host ??= u.hostname;
    path = u.pathname.replace(/\/+$/, '');
  } catch {
    host ??= homeRoot(urls).replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').replace(/[:/].*$/, '');
  }
  prefix = `${host}${path}`;
  if (globalIdPrefixes.size >= 1000) globalIdPrefixes.clear();
  globalIdPrefixes.set(key, prefix);
  return prefix;
}

/** Post types of the public URLs (§0.1). */
export type PostKind = 'cal_events' | 'cal_venue' | 'cal_organizer';
const PRETTY_BASE: Record<PostKind, string> = { cal_events: 'event', cal_venue: 'venue', cal_organizer: 'organizer' };

/**
 * Public page of a post: `{home}/{event|venue|organizer}/{slug}/` for published (and private)
 * records, `{home}/?post_type={type}&p={id}` for drafts, pending, scheduled and trashed ones (or
 * when there is no slug).
 */
export function postUrl(urls: RestUrls, kind: PostKind, id: number, status: PostStatus | string, slug: string | null | undefined): string {
  const st = wpStatus(status);
  if ((st === 'publish' || st === 'private') && slug) return `${homeRoot(urls)}/${PRETTY_BASE[kind]}/${slug}/`;
  return `${homeRoot(urls)}/?post_type=${kind}&p=${id}`;
}

const WALL_CLOCK = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;

/** Six zero-padded strings split from a `YYYY-MM-DD HH:MM:SS` string (§4.2.1). */
export function dateDetails(text: string): { year: string; month: string; day: string; hour: string; minutes: string; seconds: string } {
  // The common form (every wall clock the core answers): cut, not matched and padded.
  if (text?.length === 19 && WALL_CLOCK.test(text)) {
    return { year: text.slice(0, 4), month: text.slice(5, 7), day: text.slice(8, 10), hour: text.slice(11, 13), minutes: text.slice(14, 16), seconds: text.slice(17, 19) };
  }
  const m = /^(\d{1,4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?)?/.exec(text ?? '');
  const p = (s: string | undefined, w = 2) => (s ?? '0').padStart(w, '0');
  if (!m) return { year: '0000', month: '00', day: '00', hour: '00', minutes: '00', seconds: '00' };
  return { year: p(m[1], 4), month: p(m[2]), day: p(m[3]), hour: p(m[4]), minutes: p(m[5]), seconds: p(m[6]) };
}

function wallMillis(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2}):(\d{2})/.exec(text ?? '');
  if (!m) return null;
  const [, year = '', month = '', day = '', hour = '', minute = '', second = ''] = m;
  return Date.UTC(+year, +month - 1, +day, +hour, +minute, +second);
}

/**
 * ISO 8601 with the offset implied by a local/UTC wall-clock pair:
 * (`2026-12-05 19:00:00`, `2026-12-06 00:00:00`) → `2026-12-05T19:00:00-05:00`.
 */
export function isoWithOffset(local: string, utc: string): string {
  const l = wallMillis(local);
  const u = wallMillis(utc);
  const minutes = l === null || u === null ? 0 : Math.round((l - u) / 60000);
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const off = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${String(local).slice(0, 10)}T${String(local).slice(11, 19) || '00:00:00'}${off}`;
}

/** PHP "empty" as used by TEC's `array_filter` on venues/organizers: `""`, `"0"`, `0`, `false`, `null`, `[]`. */
export function isEmptyValue(v: unknown): boolean {
  if (v === null || v === undefined || v === false || v === '' || v === '0' || v === 0) return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === 'object' && v && Object.keys(v).length === 0) return true;
  return false;
}

/**
 * `_wp_specialchars( $text, ENT_COMPAT )` without double encoding: `& < > "` (existing entities
 * are kept).
 */
function specialcharsCompat(text: string): string {
  return text
    .replace(/&(?!(?:[a-zA-Z][a-zA-Z0-9]*|#[0-9]+|#x[0-9a-fA-F]+);)/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** PHP `stripslashes`. */
function stripslashes(text: string): string {
  return text.replace(/\\(.?)/gs, (_m, c: string) => (c === '0' ? '\0' : c));
}

/** PHP `addslashes`. */
function addslashes(text: string): string {
  return text.replace(/[\\'"\0]/g, (c) => (c === '\0' ? '\\0' : `\\${c}`));
}

/**
 * WordPress `esc_js()`: HTML special characters escaped, `'` back-slashed, CR removed and LF shown as
 * the two characters `\n` (§4.6).
 */
export function escJs(text: string | null | undefined): string {
  if (text === null || text === undefined) return '';
  let s = specialcharsCompat(String(text));
  s = stripslashes(s).replace(/&#(?:x0*27|0*39);?/gi, "'");
  s = s.replace(/\r/g, '');
  return addslashes(s).replace(/\n/g, '\\n');
}

/** Replace lone surrogates so that `encodeURIComponent` cannot throw. */
function wellFormed(s: string): string {
  return s.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');
}

/** PHP `urlencode()`: everything but `A-Za-z0-9-_.` percent-encoded (upper-case hex), space as `+`. */
export function phpUrlencode(value: string): string {
  return encodeURIComponent(wellFormed(value))
    .replace(/[!'()*~]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`)
    .replace(/%20/g, '+');
}

/**
 * A value appended "as is" (PHP `add_query_arg` on a URL without query, §5.3): spaces, `:` and `,`
 * stay literal. REC: the characters that would change how the query parses (`%`, `&`, `#`, `+`)
 * and control characters are percent-encoded.
 */
export function rawQueryValue(value: string): string {
  return wellFormed(value).replace(/[%&#+\u0000-\u001f\u007f]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`);
}
