/**
 * The calendar's public face, outside `/wp-json`: this module only mounts the page modules —
 * the calendar views (views/: list, month, day, category and tag archives), the record pages
 * (pages/: events, venues, organizers), the iCal feeds (feeds.ts), the static assets, the API
 * reference and OpenAPI document (assets.ts) — under the language prefixes (`/fr/…`), with an
 * HTML 404 for any other path outside the APIs. Each page reads its data through its own typed
 * GraphQL operations (page-data.ts); nothing here knows a calendar rule.
 */
import Router from '@koa/router';
import type { Middleware } from 'koa';
import type { WpDispatch } from '../../rest-facade/wp/mount.ts';
import { LANGS } from '../../rest-facade/wp/types.ts';
import type { AppState } from '../services/context.ts';
import type { Executor } from '../../schema/executor.ts';
import { registerAssets } from './assets.ts';
import { createFeeds } from './feeds.ts';
import { createPages } from './pages/index.ts';
import { createSite, type WebConfig } from './site.ts';
import { routeMatched } from '../telemetry/scope.ts';
import { createViews } from './views/index.ts';

const LANG_RE = new RegExp(`^/(${LANGS.filter((l) => l !== 'en').join('|')})(/.*)?$`);

export function createWebRouter({ rest, executor, config, now }: { rest: WpDispatch; executor: Executor; config: WebConfig; now?: () => Date }): Middleware<AppState> {
  const site = createSite({ config, executor, now });
  const feeds = createFeeds(site, rest);
  const views = createViews(site, feeds);
  const records = createPages(site, feeds);
  const router = new Router<AppState>();
  // The template of the route that answers (never the URL) names the request in metrics, logs and traces.
  router.use((ctx, next) => {
    const layer = (ctx as { matched?: { path: string; methods: string[] }[] }).matched?.findLast((l) => l.methods.length > 0);
    if (layer) routeMatched(layer.path, /\.ics$|ical/.test(layer.path) ? 'feeds' : 'pages');
    return next();
  });

  router.get('/', async (ctx, next) => {
    // The plain-permalink REST form (`/?rest_route=…`, also malformed as `rest_route[]=`) belongs to the REST server.
    if (Object.keys(ctx.query).some((k) => k === 'rest_route' || k.startsWith('rest_route['))) return next();
    // A record by ID (`?p=`, `?post_type=cal_events&p=`), else a view (home, plain-permalink archives, TEC's query forms).
    if (ctx.query.p !== undefined && (await records.byId(ctx))) return;
    if (ctx.query.post_type !== undefined && ctx.query.post_type !== 'tribe_events' && (await records.byId(ctx))) return;
    return views.home(ctx);
  });
  records.register(router);
  views.register(router);
  registerAssets(router, site);

  const routerMiddleware = router.routes();
  // The router fills `params` and `router` itself: the context only has to carry them from the start.
  const routes: Middleware<AppState> = (ctx, next) => routerMiddleware(Object.assign(ctx, { params: {}, router }), next);
  return async (ctx, next) => {
    const original = ctx.path;
    const m = LANG_RE.exec(original);
    const state = ctx.state as { webLang?: string };
    if (m) {
      state.webLang = m[1];
      ctx.path = m[2] || '/';
    }
    await routes(ctx, async () => {
      ctx.path = original;
      state.webLang = undefined;
      // Not ours: another answer (REST, GraphQL) or, for any other path outside the APIs, an HTML 404.
      await next();
      if (ctx.status === 404 && ctx.body === undefined && (ctx.method === 'GET' || ctx.method === 'HEAD') && !/^\/(?:[a-z]{2}\/)?wp-json(?:\/|$)|^\/graphql/.test(original)) {
        site.refuse(ctx, 404);
      }
    });
  };
}
