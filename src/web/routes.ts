/**
 * The calendar's public face, outside `/wp-json`: server-rendered pages (`/`, `/event/{slug}/`,
 * venues, organizers, category and tag archives), iCal feeds (`/events.ics`, `?ical=1`,
 * `/event/{slug}.ics`), the OpenAPI 3.1 document, the API reference page (`/docs`), and the
 * WordPress/TEC discovery headers on every page. Every datum comes from the REST facade run
 * in-process (rest-call.ts: the same argument tables, defaults, caps and visibility, the same
 * GraphQL operations); nothing here knows a calendar rule.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import Router from '@koa/router';
import type { Context, Middleware } from 'koa';
import { Eta } from 'eta';
import { DateTime } from 'luxon';
import { getT } from '../../rest-facade/wp/i18n.ts';
import { createLocator, makeUrls } from '../../rest-facade/wp/locate.ts';
import { koaRequest, type WpDispatch } from '../../rest-facade/wp/mount.ts';
import { LANGS, type WpUrls } from '../../rest-facade/wp/types.ts';
import type { AppState } from '../context.ts';
import { escapeHtml, htmlToText } from '../domain/text.ts';
import type { Config } from '../server/config.ts';
import type { Executor } from '../server/yoga.ts';
import { buildCalendar, etagOf, lastModified, type RestEvent } from './ical.ts';
import { createFeedSeriesLoader } from './feed-series.ts';
import { buildOpenApi } from './openapi.ts';
import { createRestGet, type RestAnswer } from './rest-call.ts';
import { createPageOperations } from './page-ops.ts';
import { pageText } from './page-text.ts';
import { createRecordPages, languageAlternates, type PageRender } from './record-pages.ts';
import { pageMeta, scriptJson } from './seo.ts';

/** Most events one feed carries (pages of `CAL_MAX_PER_PAGE` are fetched up to this). */
export const FEED_MAX_EVENTS = 500;
const SITE_NAME = 'cal-events';
const LANG_RE = new RegExp(`^/(${LANGS.filter((l) => l !== 'en').join('|')})(/.*)?$`);

const templates = new Eta({ views: new URL('./templates/', import.meta.url).pathname, autoEscape: true, cache: true, autoTrim: false });
const siteCss = readFileSync(new URL('./templates/site.css', import.meta.url), 'utf8');
// Swagger UI's prebuilt browser files, served from the package (no CDN), and the script that starts it.
const require = createRequire(import.meta.url);
const swaggerUiDir = dirname(require.resolve('swagger-ui-dist/package.json'));
const DOCS_ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui-bundle.js': { file: join(swaggerUiDir, 'swagger-ui-bundle.js'), type: 'application/javascript; charset=utf-8' },
  'swagger-ui.css': { file: join(swaggerUiDir, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'docs.js': { file: new URL('./templates/docs.js', import.meta.url).pathname, type: 'application/javascript; charset=utf-8' },
};
const favicon = readFileSync(new URL('./templates/favicon.ico', import.meta.url));

/** Security headers of every HTML answer; the CSP allows only this host's scripts (no inline script). */
const PAGE_CSP = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data: https:; font-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";
function securityHeaders(ctx: Context) {
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'strict-origin-when-cross-origin');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Content-Security-Policy', PAGE_CSP);
}

function when(e: RestEvent): string {
  const start = DateTime.fromSQL(e.start_date);
  const end = DateTime.fromSQL(e.end_date);
  const day = (d: DateTime) => d.toFormat('cccc d LLLL yyyy');
  if (e.all_day) return start.hasSame(end, 'day') ? `${day(start)} (all day)` : `${day(start)} – ${day(end)}`;
  if (start.hasSame(end, 'day')) return `${day(start)}, ${start.toFormat('HH:mm')} – ${end.toFormat('HH:mm')}`;
  return `${day(start)}, ${start.toFormat('HH:mm')} – ${day(end)}, ${end.toFormat('HH:mm')}`;
}
const isoStart = (e: RestEvent) => (e.all_day ? e.start_date.slice(0, 10) : DateTime.fromSQL(e.utc_start_date, { zone: 'utc' }).setZone(e.timezone).toISO() ?? '');

function listItems(events: RestEvent[]) {
  return events.map((e) => ({
    url: e.url,
    title: e.title,
    when: when(e),
    isoStart: isoStart(e),
    venueName: e.venue && !Array.isArray(e.venue) ? e.venue.venue : undefined,
  }));
}

/** WordPress's query variables of the term archives (`/?cal_events_cat=slug`, `/?tag=slug`): not REST filters. */
const ARCHIVE_QUERY_VARS = ['cal_events_cat', 'tag', 'post_type'];

export function createWebRouter({ rest, executor, config, now }: { rest: WpDispatch; executor: Executor; config: Config; now?: () => Date }): Middleware<AppState> {
  const restGet = createRestGet(rest);
  const feedSeries = createFeedSeriesLoader(executor, config.site.maxPerPage);
  const locator = createLocator({ siteUrl: config.siteUrl, trustProxy: config.trustProxy, langs: new Set(LANGS) });
  const router = new Router();
  const records = createRecordPages({
    ops: createPageOperations(executor),
    config,
    urlsOf: (ctx) => urlsOf(ctx),
    langOf: (ctx) => langOf(ctx),
    render: (ctx, view, data, head, apiRoot) => recordPage(ctx, view, data, head, apiRoot),
    notFound: (ctx) => refusal(ctx, { status: 404, body: null, headers: {} }),
    now,
    eventFeed: async (ctx) => {
      const id = ctx.query.p;
      const answer = await get(ctx, typeof id === 'string' && ctx.path === '/' ? `/events/${id}` : `/events/by-slug/${encodeURIComponent(String(ctx.params.slug))}`);
      if (answer.status !== 200) return refusal(ctx, answer);
      return sendCalendar(ctx, [answer.body], answer.body.title, `${answer.body.slug || answer.body.id}.ics`);
    },
  });

  const urlsOf = (ctx: Context): WpUrls => {
    const lang = (ctx.state as { webLang?: string }).webLang ?? '';
    return makeUrls(locator.siteFor(koaRequest(ctx)), lang ? `/${lang}` : '');
  };
  const langOf = (ctx: Context) => (ctx.state as { webLang?: string }).webLang ?? '';
  const get = <T = any>(ctx: Context, path: string, query?: URLSearchParams): Promise<RestAnswer<T>> => restGet<T>(ctx, path, query, langOf(ctx));

  /** WordPress's and TEC's discovery headers (`apiRoot`: where this page's data lives in the REST API). */
  function discovery(ctx: Context, urls: WpUrls, apiRoot = `${urls.namespaceRoot}/`) {
    ctx.set('Link', `<${urls.restRoot}>; rel="https://api.w.org/"`);
    ctx.set('X-TEC-API-ROOT', apiRoot);
    ctx.set('X-TEC-API-VERSION', 'v1');
    ctx.set('X-TEC-API-ORIGIN', urls.home);
  }

  function page(ctx: Context, status: number, view: string, data: Record<string, unknown>, apiRoot?: string) {
    const urls = urlsOf(ctx);
    const body = templates.render(view, { urls, siteName: SITE_NAME, ...data });
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    securityHeaders(ctx);
    discovery(ctx, urls, apiRoot);
    ctx.body = templates.render('layout', {
      urls,
      lang: langOf(ctx) || 'en',
      siteName: SITE_NAME,
      pageTitle: data.pageTitle ?? SITE_NAME,
      feedUrl: data.feedUrl ?? `${urls.site}/events.ics`,
      jsonLd: data.jsonLd,
      head: data.head,
      body,
    });
  }

  /** A record page (record-pages.ts): its view in the layout, with canonical, language alternates, meta and JSON-LD. */
  function recordPage(ctx: Context, view: string, data: Record<string, unknown>, head: PageRender, apiRoot?: string) {
    const urls = urlsOf(ctx);
    const lang = langOf(ctx) || 'en';
    const canonical = urls.home + head.path;
    const attr = (s: string) => escapeHtml(s);
    const links = [
      `<link rel="canonical" href="${attr(canonical)}">`,
      ...languageAlternates(urls.site, head.path).map((a) => `<link rel="alternate" hreflang="${a.lang}" href="${attr(a.href)}">`),
      ...(head.prev ? [`<link rel="prev" href="${attr(head.prev)}">`] : []),
      ...(head.next ? [`<link rel="next" href="${attr(head.next)}">`] : []),
      ...pageMeta({ title: head.pageTitle, description: head.description, url: canonical, siteName: SITE_NAME, type: head.type, lang, image: head.image, site: urls.site }).map(
        (m) => `<meta ${m.attr}="${m.key}" content="${attr(m.content)}">`,
      ),
    ];
    page(ctx, 200, view, { ...data, t: pageText(lang), pageTitle: head.pageTitle, feedUrl: head.feedUrl, jsonLd: head.jsonLd ? scriptJson(head.jsonLd) : undefined, head: links.join('\n') }, apiRoot);
  }

  /** A REST refusal as a page: unknown records and records the caller may not see are 404; wrong credentials and throttling keep their status. */
  function refusal(ctx: Context, answer: RestAnswer) {
    const status = [400, 403, 404].includes(answer.status) ? 404 : answer.status;
    if (status === 401) ctx.set('WWW-Authenticate', 'Basic realm="cal-events"');
    const heading = status === 404 ? 'Not found' : status === 401 ? 'Sign-in required' : status === 403 ? 'Not allowed' : status === 429 ? 'Too many attempts' : 'Error';
    const message = status === 404 ? 'There is nothing at this address.' : String(answer.body?.message ?? '');
    if (answer.headers['retry-after']) ctx.set('Retry-After', answer.headers['retry-after']);
    page(ctx, status, 'error', { heading, message, pageTitle: heading });
  }

  /** Every event a feed holds: the REST list with the client's filters, page after page up to FEED_MAX_EVENTS. */
  async function feedEvents(ctx: Context, filters: URLSearchParams): Promise<RestAnswer<RestEvent[]>> {
    filters.delete('ical');
    const single = filters.has('page') || filters.has('per_page');
    if (!single) filters.set('per_page', String(config.site.maxPerPage));
    const events: RestEvent[] = [];
    for (let pageNo = 1; ; pageNo++) {
      if (!single) filters.set('page', String(pageNo));
      const answer = await get<{ events: RestEvent[]; total_pages: number }>(ctx, '/events', filters);
      if (answer.status === 404 && pageNo > 1) break;
      if (answer.status !== 200) return { ...answer, body: [] as RestEvent[], status: answer.status, headers: { ...answer.headers, error: JSON.stringify(answer.body) } };
      events.push(...answer.body.events);
      if (single || pageNo >= answer.body.total_pages || events.length >= FEED_MAX_EVENTS) break;
    }
    return { status: 200, body: events.slice(0, FEED_MAX_EVENTS), headers: {} };
  }

  /**
   * Recurring series in a feed: the series data of the listed events, the REST records of overrides
   * not listed (a client expanding the RRULE would show their original slot otherwise) and of series
   * whose listed occurrences are all overrides (the series' own fields).
   */
  async function withSeries(ctx: Context, events: RestEvent[]) {
    const recurrence = await feedSeries(ctx as Context & { state: AppState }, events.map((e) => e.id));
    const listed = new Set(events.map((e) => e.id));
    const plainMember = new Set([...recurrence.members].filter(([, m]) => !m.overridden).map(([, m]) => m.seriesId));
    const more: RestEvent[] = [];
    const masters = new Map<number, RestEvent>();
    const record = async (id: number) => {
      const answer = await get<RestEvent>(ctx, `/events/${id}`);
      return answer.status === 200 ? answer.body : null;
    };
    for (const series of recurrence.series.values()) {
      for (const id of series.overrides) {
        if (listed.has(id)) continue;
        const e = await record(id);
        if (e) more.push(e);
      }
      if (!plainMember.has(series.id)) {
        const master = await record(series.id);
        if (master) masters.set(series.id, master);
      }
    }
    if (more.length) {
      // Their RECURRENCE-IDs.
      const extra = await feedSeries(ctx as Context & { state: AppState }, more.map((e) => e.id));
      for (const [id, m] of extra.members) recurrence.members.set(id, m);
    }
    return { events: [...events, ...more], recurrence, masters };
  }

  /** An iCal answer with validators; 304 when the client's copy is current. */
  async function sendCalendar(ctx: Context, listed: RestEvent[], name: string, filename: string, apiRoot?: string) {
    const urls = urlsOf(ctx);
    const { events, recurrence, masters } = await withSeries(ctx, listed);
    const text = buildCalendar(events, { name, siteTimezone: config.site.timezone, host: new URL(urls.site).host, url: urls.home + '/' }, recurrence, masters);
    const etag = etagOf(text);
    const modified = lastModified(events);
    ctx.set('ETag', etag);
    if (modified) ctx.set('Last-Modified', modified.toUTCString());
    ctx.set('Cache-Control', ctx.state.cal?.viewer ? 'private, no-cache' : 'public, no-cache');
    ctx.set('X-Content-Type-Options', 'nosniff');
    discovery(ctx, urls, apiRoot);
    const inm = ctx.get('If-None-Match');
    const ims = Date.parse(ctx.get('If-Modified-Since'));
    const fresh = inm ? inm.split(',').some((t) => t.trim() === etag || t.trim() === `W/${etag}`) : modified !== null && Number.isFinite(ims) && modified.getTime() <= ims;
    if (fresh) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'text/calendar; charset=utf-8';
    ctx.set('Content-Disposition', `inline; filename="${filename}"`);
    ctx.body = text;
  }

  /** A REST error answered to a feed client in the REST error shape. */
  function feedError(ctx: Context, answer: RestAnswer) {
    ctx.status = answer.status;
    if (answer.headers['retry-after']) ctx.set('Retry-After', answer.headers['retry-after']);
    if (answer.status === 401) ctx.set('WWW-Authenticate', 'Basic realm="cal-events"');
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = answer.headers.error ?? JSON.stringify(answer.body);
  }

  async function listFeed(ctx: Context, filters: URLSearchParams, name: string, filename: string, apiRoot?: string) {
    const answer = await feedEvents(ctx, filters);
    if (answer.status !== 200) return feedError(ctx, answer);
    await sendCalendar(ctx, answer.body, name, filename, apiRoot);
  }

  async function archive(ctx: Context, kind: 'categories' | 'tags', slug: string, feedPath: string) {
    const urls = urlsOf(ctx);
    const terms = await get<{ categories?: any[]; tags?: any[] }>(ctx, `/${kind}`, new URLSearchParams({ slug }));
    const term = terms.status === 200 ? (terms.body[kind] ?? [])[0] : undefined;
    if (!term) return refusal(ctx, terms.status === 200 ? { status: 404, body: null, headers: {} } : terms);
    const filters = new URLSearchParams(ctx.querystring);
    for (const queryVar of ARCHIVE_QUERY_VARS) filters.delete(queryVar);
    filters.set(kind, slug);
    // TEC's X-TEC-API-ROOT of a term archive, its feed included: the events route filtered by the term.
    const apiRoot = `${urls.namespaceRoot}/events/?${kind}=${encodeURIComponent(slug)}`;
    if (ctx.query.ical !== undefined) return listFeed(ctx, filters, `${SITE_NAME}: ${htmlToText(term.name)}`, `${slug}.ics`, apiRoot);
    const list = await get(ctx, '/events', filters);
    if (list.status !== 200) return refusal(ctx, list);
    page(
      ctx,
      200,
      'listing',
      {
        heading: term.name,
        description: term.description ? escapeHtml(term.description) : '',
        events: listItems(list.body.events),
        total: list.body.total,
        feedUrl: `${urls.home}${feedPath}?ical=1`,
        pageTitle: term.name,
      },
      apiRoot,
    );
  }

  router.get('/', async (ctx, next) => {
    // The plain-permalink REST form (`/?rest_route=…`, also malformed as `rest_route[]=`) belongs to the REST server.
    if (Object.keys(ctx.query).some((k) => k === 'rest_route' || k.startsWith('rest_route['))) return next();
    // Plain-permalink term archives, as WordPress links them without pretty permalinks.
    const category = ctx.query.cal_events_cat;
    const tag = ctx.query.tag;
    if (ctx.query.p === undefined && typeof category === 'string' && category) return archive(ctx, 'categories', category, `/events/category/${encodeURIComponent(category)}/`);
    if (ctx.query.p === undefined && typeof tag === 'string' && tag) return archive(ctx, 'tags', tag, `/tag/${encodeURIComponent(tag)}/`);
    if (ctx.query.post_type !== undefined || ctx.query.p !== undefined) {
      const id = String(ctx.query.p ?? '');
      const kinds: Record<string, string> = { cal_events: 'events', cal_venue: 'venues', cal_organizer: 'organizers' };
      const kind = kinds[String(ctx.query.post_type ?? 'cal_events')];
      if (!kind || !/^\d+$/.test(id)) return refusal(ctx, { status: 404, body: null, headers: {} });
      if (kind === 'events') return records.eventPage(ctx, { id: Number(id) });
      return kind === 'venues' ? records.venuePage(ctx, { id: Number(id) }) : records.organizerPage(ctx, { id: Number(id) });
    }
    if (ctx.query.ical !== undefined) return listFeed(ctx, new URLSearchParams(ctx.querystring), SITE_NAME, 'events.ics');
    const list = await get(ctx, '/events');
    if (list.status !== 200) return refusal(ctx, list);
    page(ctx, 200, 'home', { events: listItems(list.body.events), pageTitle: 'Upcoming events' });
  });

  router.get('/events.ics', (ctx) => listFeed(ctx, new URLSearchParams(ctx.querystring), SITE_NAME, 'events.ics'));
  router.get('/events', async (ctx) => {
    if (ctx.query.ical !== undefined) return listFeed(ctx, new URLSearchParams(ctx.querystring), SITE_NAME, 'events.ics');
    const urls = urlsOf(ctx);
    const list = await get(ctx, '/events', new URLSearchParams(ctx.querystring));
    if (list.status !== 200) return refusal(ctx, list);
    page(ctx, 200, 'listing', { heading: 'Events', events: listItems(list.body.events), total: list.body.total, feedUrl: `${urls.site}/events.ics`, pageTitle: 'Events' }, `${urls.namespaceRoot}/events/`);
  });
  router.get('/event/:slug', async (ctx) => {
    const slug = ctx.params.slug as string;
    if (slug.endsWith('.ics')) {
      const answer = await get(ctx, `/events/by-slug/${encodeURIComponent(slug.slice(0, -4))}`);
      if (answer.status !== 200) return feedError(ctx, answer);
      return sendCalendar(ctx, [answer.body], answer.body.title, slug);
    }
    return records.eventPage(ctx, { slug });
  });
  router.get('/events/category/{*path}', (ctx) => {
    const segments = String(ctx.params.path).split('/').filter(Boolean);
    const slug = segments[segments.length - 1] ?? '';
    return archive(ctx, 'categories', slug, `/events/category/${segments.join('/')}/`);
  });
  router.get('/events/tag/:slug', (ctx) => archive(ctx, 'tags', ctx.params.slug as string, `/events/tag/${ctx.params.slug}/`));
  router.get('/tag/:slug', (ctx) => archive(ctx, 'tags', ctx.params.slug as string, `/tag/${ctx.params.slug}/`));
  records.mount(router);

  router.get('/wp-json/cal/events/v1/openapi.json', (ctx) => {
    const urls = urlsOf(ctx);
    const settings = { siteTimezone: config.site.timezone, postsPerPage: config.site.postsPerPage, maxPerPage: config.site.maxPerPage };
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = buildOpenApi(urls, { settings, now: now?.() ?? new Date() }, getT((langOf(ctx) || 'en') as 'en'));
  });

  router.get('/docs', (ctx) => {
    const urls = urlsOf(ctx);
    ctx.type = 'text/html; charset=utf-8';
    securityHeaders(ctx);
    discovery(ctx, urls);
    ctx.body = templates.render('docs', { urls, siteName: SITE_NAME, specUrl: `${urls.namespaceRoot}/openapi.json` });
  });
  router.get('/docs/:asset', (ctx, next) => {
    const asset = DOCS_ASSETS[ctx.params.asset as string];
    if (!asset) return next();
    ctx.type = asset.type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = createReadStream(asset.file);
  });
  router.get('/favicon.ico', (ctx) => {
    ctx.type = 'image/x-icon';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = favicon;
  });
  router.get('/assets/site.css', (ctx) => {
    ctx.type = 'text/css; charset=utf-8';
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = siteCss;
  });

  const routes = router.routes();
  return async (ctx, next) => {
    const original = ctx.path;
    const m = LANG_RE.exec(original);
    if (m) {
      (ctx.state as { webLang?: string }).webLang = m[1];
      ctx.path = m[2] || '/';
    }
    await routes(ctx as any, async () => {
      ctx.path = original;
      (ctx.state as { webLang?: string }).webLang = undefined;
      // Not ours: another answer (REST, GraphQL) or, for any other path outside the APIs, an HTML 404.
      await next();
      if (ctx.status === 404 && ctx.body === undefined && (ctx.method === 'GET' || ctx.method === 'HEAD') && !/^\/(?:[a-z]{2}\/)?wp-json(?:\/|$)|^\/graphql/.test(original)) {
        refusal(ctx, { status: 404, body: null, headers: {} });
      }
    });
  };
}
