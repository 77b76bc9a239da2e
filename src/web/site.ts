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
import { readPostPass } from './post-password.ts';

/** The site's own face (CAL_SITE_*, docs/site.md); src/server/config.ts's SiteBranding is one. */
export interface WebBranding {
  /** Any face variable is set: no developer links anywhere. */
  configured: boolean;
  title: string | undefined;
  logoUrl: string | undefined;
  nav: readonly { label: string; url: string }[];
  stylesheet: { url: string } | { css: Buffer; hash: string } | undefined;
}

/** What the pages read of the service's configuration (src/server/config.ts's Config is one). */
export interface WebConfig {
  site: Pick<SiteSettings, 'timezone' | 'timezoneMode' | 'postsPerPage' | 'maxPerPage' | 'currencyCode'>;
  siteUrl: string | undefined;
  trustProxy: boolean;
  branding: WebBranding;
}

/** The site's name when CAL_SITE_TITLE gives none. */
export const SITE_NAME = 'cal-events';
/** Where a stylesheet file of the site (CAL_SITE_STYLESHEET) is served. */
export const CUSTOM_STYLESHEET = 'site-custom.css';

const templates = new Eta({ views: new URL('./templates/', import.meta.url).pathname, autoEscape: true, cache: true, autoTrim: false });

/**
 * The CSP of the pages: only this host's scripts (no inline script); styles and images also from
 * the origins of the site's own stylesheet and logo (CAL_SITE_STYLESHEET, CAL_SITE_LOGO_URL).
 */
export function pageCsp(branding?: Pick<WebBranding, 'logoUrl' | 'stylesheet'>): string {
  const originOf = (url: string | undefined) => (url && /^https?:/.test(url) ? ` ${new URL(url).origin}` : '');
  const style = branding?.stylesheet && 'url' in branding.stylesheet ? originOf(branding.stylesheet.url) : '';
  const logo = branding?.logoUrl?.startsWith('http:') ? originOf(branding.logoUrl) : '';
  return `default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'${style}; img-src 'self' data: https:${logo}; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'`;
}
const PAGE_CSP = pageCsp();

/** Security headers of every HTML answer. */
export function securityHeaders(ctx: Context, csp = PAGE_CSP) {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Content-Security-Policy', csp);
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
  /** The home page: the only one that may show the developer links (when the site's face is not configured). */
  home?: boolean;
}

export interface Site {
  config: WebConfig;
  /** The site's name: CAL_SITE_TITLE, else SITE_NAME. */
  name: string;
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
  /**
   * A form post comes from this site's own pages: its `Origin` is the site's (CAL_SITE_URL or the
   * address it was reached at), or, without one, `Sec-Fetch-Site` does not say cross-site.
   */
  sameOrigin(ctx: Context): boolean;
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
  const branding = config.branding;
  const name = branding.title ?? SITE_NAME;
  const csp = pageCsp(branding);

  /** The header, footer and stylesheets of the layout: the site's own face, or the service's. */
  function face(u: WpUrls, s: PageStrings, home: boolean) {
    // A path of the site's own (CAL_SITE_NAV, logo) is under the page's home: its language is kept.
    const resolve = (url: string) => (url.startsWith('/') ? u.home + url : url);
    const nav = branding.nav.length ? branding.nav.map((l) => ({ label: l.label, url: resolve(l.url) })) : [{ label: s('site.events'), url: `${u.home}/events/` }];
    const sheet = branding.stylesheet;
    return {
      logoUrl: branding.logoUrl ? (branding.logoUrl.startsWith('/') ? u.site + branding.logoUrl : branding.logoUrl) : undefined,
      nav,
      stylesheets: [`${u.site}/assets/site.css`, ...(sheet ? ['url' in sheet ? sheet.url : `${u.site}/assets/${CUSTOM_STYLESHEET}?v=${sheet.hash}`] : [])],
      // The API reference, GraphiQL and the REST root: a developer's, shown on the home page of a site that has no face of its own.
      developer: home && !branding.configured,
    };
  }

  function discovery(ctx: Context, u: WpUrls, apiRoot = `${u.namespaceRoot}/`) {
    ctx.set('Link', `<${u.restRoot}>; rel="https://api.w.org/"`);
    ctx.set('X-TEC-API-ROOT', apiRoot);
    ctx.set('X-TEC-API-VERSION', 'v1');
    ctx.set('X-TEC-API-ORIGIN', u.home);
  }

  function render(ctx: Context, status: number, view: string, data: Record<string, unknown>, head: PageHead) {
    const u = urls(ctx);
    const s = t(ctx);
    const look = face(u, s, Boolean(head.home));
    const body = templates.render(view, { urls: u, siteName: name, t: s, developer: look.developer, ...data });
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    securityHeaders(ctx, csp);
    discovery(ctx, u, head.apiRoot);
    ctx.body = templates.render('layout', {
      urls: u,
      lang: lang(ctx),
      siteName: name,
      ...look,
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
    name,
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
    sameOrigin(ctx) {
      const origin = ctx.get('Origin').trim().toLowerCase();
      if (!origin) return ctx.get('Sec-Fetch-Site').trim().toLowerCase() !== 'cross-site';
      return locator.ownOrigins(koaRequest(ctx)).includes(origin);
    },
  };
}

/**
 * A route handler that answers a `PageRefusal` (the core refused the page's data) with the error
 * page, and reads the visitor's post-password cookie for the core (post-password.ts).
 */
export function guarded(site: Site, handler: (ctx: Context) => Promise<void> | void) {
  return async (ctx: Context) => {
    readPostPass(ctx, site.urls(ctx));
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
      if (error.retryAfter !== undefined) ctx.set('Retry-After', String(error.retryAfter));
      site.refuse(ctx, error.status, error.message);
    }
  };
}
