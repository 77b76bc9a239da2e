/**
 * `import --from` accepts a site's address as well as its events REST root: the REST API root is
 * found as WordPress clients find it (the `Link: <…/wp-json/>; rel="https://api.w.org/"` header of
 * any page, else the `<link rel="https://api.w.org/">` of its HTML, else `/wp-json/`), including
 * sites without pretty permalinks (`/?rest_route=/`), and the events namespace from its index:
 * The Events Calendar's `tribe/events/v1`, else cal-events' `cal/events/v1`.
 */
import { SourceError, type Source } from './source.ts';

const API_REL = 'https://api.w.org/';
export const EVENT_NAMESPACES = ['tribe/events/v1', 'cal/events/v1'] as const;
const EVENTS_ROOT = /^\/?(?:tribe|cal)\/events\/v1\/?$/;

/** The events REST root named by `from` itself (`…/wp-json/tribe/events/v1`, `…?rest_route=/cal/events/v1`), else null. */
export function eventsRootOf(from: string): string | null {
  const u = new URL(from);
  const route = u.searchParams.get('rest_route');
  if (route !== null) return EVENTS_ROOT.test(route) ? withRoute(u, route.replace(/^\/?/, '/').replace(/\/$/, '')) : null;
  if (/\/(?:tribe|cal)\/events\/v1\/?$/.test(u.pathname)) return `${u.origin}${u.pathname.replace(/\/$/, '')}`;
  return null;
}

/** `base?rest_route=/route`, the slashes of the route left readable as WordPress prints them. */
function withRoute(u: URL, route: string): string {
  return `${u.origin}${u.pathname}?rest_route=${route}`;
}

/** The `rel="https://api.w.org/"` target of a `Link` header, resolved against `base`. */
export function apiLinkOf(header: string | null, base: string): string | null {
  if (!header) return null;
  for (const m of header.matchAll(/<([^>]*)>((?:\s*;\s*[^;,]+)*)/g)) {
    const [, target = '', params = ''] = m;
    const rels = /;\s*rel\s*=\s*"?([^";]+)"?/i.exec(params)?.[1]?.split(/\s+/) ?? [];
    if (rels.includes(API_REL)) return new URL(target, base).href;
  }
  return null;
}

function apiLinkInHtml(html: string, base: string): string | null {
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    if (!/\brel\s*=\s*["']?https:\/\/api\.w\.org\/["'\s>]/i.test(tag)) continue;
    const href = /\bhref\s*=\s*["']([^"']+)["']/i.exec(tag)?.[1];
    if (href) return new URL(href.replace(/&#0?38;|&amp;/g, '&'), base).href;
  }
  return null;
}

/** The REST API root (`…/wp-json/` or `…/?rest_route=/`) of the site `from` is a page of. */
async function apiRootOf(from: string, headers: Record<string, string>, timeoutMs: number): Promise<string> {
  const u = new URL(from);
  if (u.searchParams.has('rest_route')) return withRoute(u, '/');
  if (/\/wp-json\/?$/.test(u.pathname)) return `${u.origin}${u.pathname.replace(/\/?$/, '/')}`;
  let res: Response;
  try {
    res = await fetch(from, { headers: { Accept: 'text/html,application/json;q=0.9,*/*;q=0.8', ...headers }, redirect: 'follow', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    throw new SourceError(`${from}: ${(error as Error).name === 'TimeoutError' ? 'timeout' : (error as Error).message}${cause ? `: ${cause.code ?? cause.message}` : ''}`);
  }
  const base = res.url || from;
  const linked = apiLinkOf(res.headers.get('link'), base);
  const body = await res.text().catch(() => '');
  if (linked) return linked;
  if ((res.headers.get('content-type') ?? '').includes('html')) {
    const inHtml = apiLinkInHtml(body, base);
    if (inHtml) return inHtml;
  }
  return new URL('wp-json/', base.replace(/[?#].*$/, '').replace(/\/?$/, '/')).href;
}

/**
 * The events REST root of `from`: as given when it names one, else discovered. Raises a
 * SourceError saying what was found when the site serves no events API.
 */
export async function discoverEventsRoot(from: string, source: Pick<Source, 'get' | 'authHeaders' | 'timeoutMs'>): Promise<string> {
  const direct = eventsRootOf(from);
  if (direct) return direct;
  const apiRoot = await apiRootOf(from, source.authHeaders, source.timeoutMs);
  const res = await source.get(apiRoot);
  const namespaces = (res.body as { namespaces?: unknown } | null)?.namespaces;
  if (res.status !== 200 || !Array.isArray(namespaces)) {
    throw new SourceError(`${from}: no WordPress REST API found (${apiRoot} answered ${res.status}${Array.isArray(namespaces) ? '' : ' without a list of namespaces'})`);
  }
  const namespace = EVENT_NAMESPACES.find((ns) => namespaces.includes(ns));
  if (!namespace) {
    throw new SourceError(`${from}: the site's REST API (${apiRoot}) has no events namespace (${EVENT_NAMESPACES.join(' or ')}); is The Events Calendar active? It serves: ${namespaces.join(', ') || 'nothing'}`);
  }
  const u = new URL(apiRoot);
  return u.searchParams.has('rest_route') ? withRoute(u, `/${namespace}`) : `${apiRoot.replace(/\/?$/, '/')}${namespace}`;
}
