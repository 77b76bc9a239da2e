/**
 * What every page module shares (src/web/views/*, src/web/pages/*): the request's URLs and language,
 * its typed GraphQL data (page-data.ts), the eta templates, the security and discovery headers of
 * every HTML answer, and the error page. Modules receive one `Site` and register their routes.
 */
import type Router from '@koa/router';
import type { Context } from 'koa';
import { Eta } from 'eta';
import { createLocator, makeUrls } from '../../rest-facade/wp/locate.ts';
import { koaRequest } from '../../rest-facade/wp/mount.ts';
import { LANGS, type Lang, type WpUrls } from '../../rest-facade/wp/types.ts';
import type { AppState, SiteSettings } from '../services/context.ts';
import type { Executor } from '../../schema/executor.ts';
import { pageLang, pageStrings, type PageStrings } from './i18n.ts';
import { createPageData, PageRefusal, type PageRun } from './page-data.ts';

/** What the pages read of the service's configuration (src/server/config.ts's Config is one). */
export interface WebConfig {
  site: Pick<SiteSettings, 'timezone' | 'timezoneMode' | 'postsPerPage' | 'maxPerPage' | 'currencyCode'>;
  siteUrl: string | undefined;
  trustProxy: boolean;
  /** CAL_HTTP_MAX_AGE_S: browser lifetime of anonymous pages. */
  httpMaxAgeS: number;
}

export const SITE_NAME = 'cal-events';

const templates = new Eta({ views: new URL('./templates/', import.meta.url).pathname, autoEscape: true, cache: true, autoTrim: false });

/** Security headers of every HTML answer; the CSP allows only this host's scripts (no inline script). */
const PAGE_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
export function securityHeaders(ctx: Context) {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Content-Security-Policy', PAGE_CSP);
}

/**
 * The cache policy of a public answer (pages, sitemap, robots.txt), as the API's GET reads have it
 * (src/server/http-cache.ts): anonymous answers are `public, max-age=<CAL_HTTP_MAX_AGE_S>` (with
 * `Vary: Authorization` when positive, so a shared cache never hands them to a signed-in visitor),
 * signed-in ones `private, no-cache`. Pages set no cookie and vary with nothing else but the path.
 */
export function cacheHeaders(ctx: Context, maxAgeS: number) {
  if ((ctx.state as AppState).cal?.viewer) {
    ctx.set('Cache-Control', 'private, no-cache');
    return;
  }
  ctx.set('Cache-Control', `public, max-age=${maxAgeS}`);
  if (maxAgeS > 0) ctx.vary('Authorization');
}

/** What a page hands the layout besides its own template data. */
export interface PageHead {
  pageTitle: string;
  /** The `rel=alternate` iCal feed (default: every event). */
  feedUrl?: string;
  /** Already serialized (scriptJson). */
  jsonLd?: string;
  /** `<link rel=prev/next>` of a paged view. */
  prev?: string;
  next?: string;
  /** Scripts of this server (`/assets/…`), loaded deferred. */
  scripts?: string[];
  /** More of `<head>`, already HTML: canonical and language links, description, OpenGraph and Twitter meta (seo.ts). */
  head?: string;
  /** Where this page's data lives in the REST API (`X-TEC-API-ROOT`; default the namespace root). */
  apiRoot?: string;
}

export interface Site {
  config: WebConfig;
  executor: Executor;
  now: () => Date;
  /** Runs one of src/web/generated/operations.ts's documents with the request's context. */
  run: PageRun;
  urls(ctx: Context): WpUrls;
  /** The page language (`/fr/…` → fr; default en). */
  lang(ctx: Context): Lang;
  /** The page's strings in its language. */
  t(ctx: Context): PageStrings;
  /** WordPress's and TEC's discovery headers. */
  discovery(ctx: Context, urls: WpUrls, apiRoot?: string): void;
  /** Renders `view` inside the layout and answers it as HTML with the security and discovery headers. */
  render(ctx: Context, status: number, view: string, data: Record<string, unknown>, head: PageHead): void;
  /** The HTML error page of a status (404 unknown / not readable, 401, 403, 429, …). */
  refuse(ctx: Context, status: number, message?: string): void;
  /** Renders a template alone (no layout): the `/docs` page. */
  template(view: string, data: Record<string, unknown>): string;
}

export type PageRouter = Router<AppState>;

export function createSite({ config, executor, now }: { config: WebConfig; executor: Executor; now?: () => Date }): Site {
  const locator = createLocator({ siteUrl: config.siteUrl, trustProxy: config.trustProxy, langs: new Set(LANGS) });
  const { run } = createPageData(executor);
  const prefixOf = (ctx: Context) => (ctx.state as { webLang?: string }).webLang ?? '';
  const urls = (ctx: Context): WpUrls => {
    const prefix = prefixOf(ctx);
    return makeUrls(locator.siteFor(koaRequest(ctx)), prefix ? `/${prefix}` : '');
  };
  const lang = (ctx: Context) => pageLang(prefixOf(ctx));
  const t = (ctx: Context) => pageStrings(lang(ctx));

  function discovery(ctx: Context, u: WpUrls, apiRoot = `${u.namespaceRoot}/`) {
    ctx.set('Link', `<${u.restRoot}>; rel="https://api.w.org/"`);
    ctx.set('X-TEC-API-ROOT', apiRoot);
    ctx.set('X-TEC-API-VERSION', 'v1');
    ctx.set('X-TEC-API-ORIGIN', u.home);
  }

  function render(ctx: Context, status: number, view: string, data: Record<string, unknown>, head: PageHead) {
    const u = urls(ctx);
    const s = t(ctx);
    const body = templates.render(view, { urls: u, siteName: SITE_NAME, t: s, ...data });
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    securityHeaders(ctx);
    if (status === 200) cacheHeaders(ctx, config.httpMaxAgeS);
    discovery(ctx, u, head.apiRoot);
    ctx.body = templates.render('layout', {
      urls: u,
      lang: lang(ctx),
      siteName: SITE_NAME,
      t: s,
      pageTitle: head.pageTitle,
      feedUrl: head.feedUrl ?? `${u.site}/events.ics`,
      jsonLd: head.jsonLd,
      prev: head.prev,
      next: head.next,
      scripts: head.scripts ?? [],
      head: head.head,
      body,
    });
  }

  function refuse(ctx: Context, status: number, message = '') {
    const s = t(ctx);
    const code = [400, 403, 404].includes(status) ? 404 : status;
    if (code === 401) ctx.set('WWW-Authenticate', 'Basic realm="cal-events"');
    const heading =
      code === 404 ? s('error.notFound') : code === 401 ? s('error.signIn') : code === 403 ? s('error.forbidden') : code === 429 ? s('error.throttled') : s('error.other');
    render(ctx, code, 'error', { heading, message: code === 404 ? s('error.notFoundText') : message }, { pageTitle: heading });
  }

  return {
    config,
    executor,
    now: now ?? (() => new Date()),
    run,
    urls,
    lang,
    t,
    discovery,
    render,
    refuse,
    template: (view, data) => templates.render(view, data),
  };
}

/** A route handler that answers a `PageRefusal` (the core refused the page's data) with the error page. */
export function guarded(site: Site, handler: (ctx: Context) => Promise<void> | void) {
  return async (ctx: Context) => {
    // Credentials that failed (or a sign-in throttle) are answered before any data is read, as the APIs do.
    const failure = (ctx.state as AppState).authError;
    if (failure?.error === 'throttled') {
      ctx.set('Retry-After', String(failure.retryAfter));
      return site.refuse(ctx, 429);
    }
    if (failure) return site.refuse(ctx, 401);
    try {
      await handler(ctx);
    } catch (error) {
      if (!(error instanceof PageRefusal)) throw error;
      site.refuse(ctx, error.status, error.message);
    }
  };
}
