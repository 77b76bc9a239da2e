/**
 * Where a request is addressed: the site URL every absolute URL is built from, and which REST
 * route it names (language prefix, `/wp-json/…` or the plain-permalink `?rest_route=…` form).
 */
import { isLang } from './i18n.ts';
import { parseQueryString } from './query-string.ts';
import { NAMESPACE, type Lang, type WpHttpRequest, type WpUrls } from './types.ts';

export function makeUrls(site: string, langPrefix: string): WpUrls {
  const home = site + langPrefix;
  const restRoot = `${home}/wp-json/`;
  const namespaceRoot = `${restRoot}${NAMESPACE}`;
  return {
    site,
    home,
    restRoot,
    namespaceRoot,
    rest: (path = '') => namespaceRoot + path,
    homeUrl: (path = '') => home + path,
  };
}

const HOST_RE = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/** A request header's value, `''` when absent (Koa's `ctx.get`). */
export function requestHeader(request: Pick<WpHttpRequest, 'headers'>, name: string): string {
  const v = request.headers[name.toLowerCase()];
  return Array.isArray(v) ? v.join(', ') : (v ?? '');
}

function firstHeader(request: Pick<WpHttpRequest, 'headers'>, name: string): string {
  return requestHeader(request, name).split(',')[0]?.trim() ?? '';
}

export interface Located {
  lang: Lang;
  langPrefix: string;
  /** REST route path, percent-encoded (`/cal/events/v1/events/8`). */
  restPath: string;
  query: Record<string, unknown>;
}

export interface LocatorOptions {
  /** `{scheme}://{host}[:port][/path]` of the site; derived from the request when absent. */
  siteUrl?: string;
  /** Honour `X-Forwarded-Proto` / `X-Forwarded-Host` when deriving the site URL. */
  trustProxy?: boolean;
  langs: ReadonlySet<string>;
}

export function createLocator(opts: LocatorOptions) {
  let basePath = '';
  let fixedSite: string | null = null;
  if (opts.siteUrl) {
    const u = new URL(opts.siteUrl);
    basePath = u.pathname.replace(/\/+$/, '');
    fixedSite = `${u.protocol}//${u.host}${basePath}`;
  }

  /** `{scheme}://{host}[/path]` of the site this request reaches. */
  function siteFor(request: Pick<WpHttpRequest, 'headers' | 'encrypted'>): string {
    return fixedSite ?? addressed(request);
  }

  /**
   * The origins that are this server's own for a request: the site URL's, and the one the request
   * was addressed to (its Host; a page elsewhere cannot make a browser send another site's Host).
   */
  function ownOrigins(request: Pick<WpHttpRequest, 'headers' | 'encrypted'>): string[] {
    return [...new Set([fixedSite, addressed(request)].flatMap((site) => (site ? [new URL(site).origin] : [])))];
  }

  /** `{scheme}://{host}` the request was addressed to. */
  function addressed(request: Pick<WpHttpRequest, 'headers' | 'encrypted'>): string {
    let proto = request.encrypted ? 'https' : 'http';
    let host = requestHeader(request, 'Host');
    if (opts.trustProxy) {
      const xfp = firstHeader(request, 'X-Forwarded-Proto').toLowerCase();
      if (xfp === 'http' || xfp === 'https') proto = xfp;
      const xfh = firstHeader(request, 'X-Forwarded-Host');
      if (xfh && HOST_RE.test(xfh)) host = xfh;
    }
    if (!HOST_RE.test(host)) host = 'localhost';
    return `${proto}://${host.toLowerCase()}`;
  }

  /** The REST route this request names, or null when it is not a REST request. */
  function locate(request: Pick<WpHttpRequest, 'path' | 'querystring'>): Located | null {
    let path = request.path;
    if (basePath && (path === basePath || path.startsWith(`${basePath}/`))) path = path.slice(basePath.length) || '/';
    let lang: Lang = 'en';
    let langPrefix = '';
    const lm = /^\/([a-z]{2})(?=\/|$)/.exec(path);
    if (lm && opts.langs.has(lm[1] as string) && isLang(lm[1] as string)) {
      lang = lm[1] as Lang;
      langPrefix = `/${lang}`;
      path = path.slice(3) || '/';
    }
    if (path === '/wp-json' || path.startsWith('/wp-json/')) {
      return { lang, langPrefix, restPath: path.slice('/wp-json'.length) || '/', query: parseQueryString(request.querystring) };
    }
    if ((path === '/' || path === '/index.php') && /(?:^|&)rest_route(?:=|\[|%5B)/i.test(request.querystring)) {
      const query = parseQueryString(request.querystring);
      const rr = query.rest_route;
      if (rr === '' || rr === undefined) return null;
      delete query.rest_route;
      // `rest_route[]=x` (an array or object) names no route: a JSON 404, not the site's HTML one.
      const route = typeof rr === 'string' ? rr : `rest_route=${JSON.stringify(rr)}`;
      const restPath = '/' + route.replace(/^\/+/, '').split('/').map(encodeURIComponent).join('/');
      return { lang, langPrefix, restPath, query };
    }
    return null;
  }

  return { siteFor, ownOrigins, locate };
}
