/**
 * The calendar views at the plugin's URLs, for every scope: all events (`/events/…`), a category
 * with its children (`/events/category/{…/slug}/…`, `/?cal_events_cat=slug`, TEC's
 * `?tribe_eventcategory=slug` / `?tribe_events_cat=slug`), a tag (`/events/tag/{slug}/…`, `/tag/{slug}/`,
 * `/?tag=slug`); each scope's iCal feed with `?ical=1`. The path after the scope names the view
 * (request.ts); list.ts, month.ts and day.ts render them.
 */
import type { Context } from 'koa';
import { htmlToText } from '../../domain/text.ts';
import type { Feeds } from '../feeds.ts';
import { ViewCategoryDocument, ViewTagDocument } from '../generated/operations.ts';
import { guarded, type PageRouter, type Site } from '../site.ts';
import { siteToday, type Scope } from './common.ts';
import { dayView } from './day.ts';
import { listView } from './list.ts';
import { monthView } from './month.ts';
import { addDays } from '../../domain/calendar-days.ts';
import { applyQuery, isViewSegment, parseViewPath, type ViewRequest } from './request.ts';

/** WordPress's and TEC's query variables of the views and archives: not REST filters of a feed. */
const VIEW_QUERY_VARS = ['cal_events_cat', 'tag', 'post_type', 'tribe_eventcategory', 'tribe_events_cat', 'eventDisplay', 'tribe-bar-date', 'tribe-bar-search'];

const first = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);

/**
 * The REST filters of the events a view shows, for its iCal export (`?ical=1`, TEC's "Export .ics
 * file": what the page shows): a month's or a day's days, a list from its date (or, past, before it),
 * the bar's words. An upcoming list without a date keeps the REST list's own window.
 */
function viewFeedFilters(req: ViewRequest, today: string): Record<string, string> {
  const out: Record<string, string> = req.search ? { search: req.search } : {};
  if (req.view === 'month') {
    const month = req.date ?? today.slice(0, 7);
    const last = addDays(`${addDays(`${month}-28`, 4).slice(0, 7)}-01`, -1);
    return { ...out, ends_after: addDays(`${month}-01`, -1), starts_before: last };
  }
  if (req.view === 'day') {
    const day = req.date ?? today;
    return { ...out, ends_after: addDays(day, -1), starts_before: day };
  }
  if (req.past) return req.date ? { ...out, ends_before: addDays(req.date, -1) } : { ...out, ends_before: 'now', strict_dates: 'true' };
  return req.date ? { ...out, ends_after: addDays(req.date, -1) } : out;
}

export function createViews(site: Site, feeds: Feeds) {
  function allScope(ctx: Context): Scope {
    const urls = site.urls(ctx);
    return { kind: 'all', base: '/events', filter: {}, apiRoot: `${urls.namespaceRoot}/events/`, feedUrl: `${urls.site}/events.ics` };
  }

  /** A term's scope, or null when there is no such term (→ 404). `feedPath`: the archive's own path. */
  async function termScope(ctx: Context, kind: 'category' | 'tag', slug: string, feedPath?: string): Promise<Scope | null> {
    const urls = site.urls(ctx);
    const rest = kind === 'category' ? 'categories' : 'tags';
    const category = kind === 'category' ? (await site.run(ctx, ViewCategoryDocument, { slug })).eventCategory : null;
    const term = kind === 'category' ? category : (await site.run(ctx, ViewTagDocument, { slug })).eventTag;
    if (!term) return null;
    const base = category ? `/events/category/${category.path.map(encodeURIComponent).join('/')}` : `/events/tag/${encodeURIComponent(term.slug)}`;
    return {
      kind,
      base,
      slug: term.slug,
      name: term.name,
      description: term.description,
      filter: kind === 'category' ? { categories: [term.slug] } : { tags: [term.slug] },
      // TEC's X-TEC-API-ROOT of a term archive, its feed included: the events route filtered by the term.
      apiRoot: `${urls.namespaceRoot}/events/?${rest}=${encodeURIComponent(term.slug)}`,
      feedUrl: `${urls.home}${feedPath ?? `${base}/`}?ical=1`,
    };
  }

  /** Answers a view (or the scope's feed) of a scope; `segments`: the path after the scope. */
  async function serve(ctx: Context, scope: Scope | null, segments: readonly string[], opts: { home?: boolean } = {}) {
    if (!scope) return site.refuse(ctx, 404);
    const parsed = parseViewPath(segments);
    const req = parsed && applyQuery(parsed, ctx.query);
    if (!req) return site.refuse(ctx, 404);
    if (ctx.query.ical !== undefined) {
      const filters = new URLSearchParams(ctx.querystring);
      for (const name of VIEW_QUERY_VARS) filters.delete(name);
      for (const [name, value] of Object.entries(viewFeedFilters(req, siteToday(site)))) filters.set(name, value);
      if (scope.kind === 'category' && scope.slug) filters.set('categories', scope.slug);
      if (scope.kind === 'tag' && scope.slug) filters.set('tags', scope.slug);
      const name = scope.name ? `${site.name}: ${htmlToText(scope.name)}` : site.name;
      return feeds.list(ctx, filters, name, `${scope.slug ?? 'events'}.ics`, scope.kind === 'all' ? undefined : scope.apiRoot);
    }
    if (req.view === 'month') return monthView(site, ctx, scope, req);
    if (req.view === 'day') return dayView(site, ctx, scope, req);
    return listView(site, ctx, scope, req, { home: opts.home && segments.length === 0 && !ctx.query.eventDisplay, root: segments.length === 0 });
  }

  /** `/events/category/{parent/…/slug}/{view…}`: the category is the last segment before the view part. */
  async function categoryPath(ctx: Context, path: string) {
    const segments = path.split('/').filter(Boolean);
    let split = segments.findIndex(isViewSegment);
    if (split < 0) split = segments.length;
    const slug = segments[split - 1];
    if (!slug) return site.refuse(ctx, 404);
    const feedPath = split === segments.length ? `/events/category/${segments.join('/')}/` : undefined;
    return serve(ctx, await termScope(ctx, 'category', slug, feedPath), segments.slice(split));
  }

  /**
   * The home page and the plain-permalink forms (`/?cal_events_cat=`, `/?tag=`, TEC's
   * `?post_type=tribe_events`, `?tribe_eventcategory=`, `?eventDisplay=`…): a view of a scope.
   */
  async function home(ctx: Context) {
    const category = first(ctx.query.cal_events_cat) ?? first(ctx.query.tribe_eventcategory) ?? first(ctx.query.tribe_events_cat);
    const tag = first(ctx.query.tag);
    if (category) return serve(ctx, await termScope(ctx, 'category', category), []);
    if (tag) return serve(ctx, await termScope(ctx, 'tag', tag, `/tag/${encodeURIComponent(tag)}/`), []);
    const urls = site.urls(ctx);
    // The home page is the list with the namespace root as its API root; every other form is `/events/`'s.
    const scope = allScope(ctx);
    return serve(ctx, ctx.query.post_type === undefined ? { ...scope, apiRoot: `${urls.namespaceRoot}/` } : scope, [], { home: true });
  }

  function register(router: PageRouter) {
    router.get('/events.ics', guarded(site, (ctx) => feeds.list(ctx, new URLSearchParams(ctx.querystring), site.name, 'events.ics')));
    router.get('/events', guarded(site, (ctx) => serve(ctx, allScope(ctx), [])));
    router.get('/events/category/{*path}', guarded(site, (ctx) => categoryPath(ctx, ctx.params.path ?? '')));
    router.get('/events/tag/:slug', guarded(site, async (ctx) => serve(ctx, await termScope(ctx, 'tag', ctx.params.slug ?? ''), [])));
    router.get('/events/tag/:slug/{*view}', guarded(site, async (ctx) => serve(ctx, await termScope(ctx, 'tag', ctx.params.slug ?? ''), (ctx.params.view ?? '').split('/').filter(Boolean))));
    router.get('/tag/:slug', guarded(site, async (ctx) => serve(ctx, await termScope(ctx, 'tag', ctx.params.slug ?? '', `/tag/${ctx.params.slug}/`), [])));
    // After the archives: every other path under /events/ is a view of all events (or a 404).
    router.get('/events/{*view}', guarded(site, (ctx) => serve(ctx, allScope(ctx), (ctx.params.view ?? '').split('/').filter(Boolean))));
  }

  return { register, home: guarded(site, home) };
}
