import { readdirSync, readFileSync } from 'node:fs';
import type { Middleware } from 'koa';
import type { Config } from '../src/config.ts';
import type { Executor, PreparedOperation } from '../src/yoga.ts';
import type { AppState } from '../src/app.ts';
import { bindRoutes, RESOURCE_ROUTES } from './routes/args/index.ts';
import { writePermission, type RouteDeps } from './routes/common.ts';
import { createEvent, deleteEvent, getEvent, listEvents, updateEvent } from './routes/events.ts';
import { linkedPostHandlers } from './routes/linked-posts.ts';
import { termHandlers } from './routes/terms.ts';
import { createWpRestMiddleware } from './wp/mount.ts';
import { msg, tableError, wpError } from './wp/errors.ts';
import type { Caller } from './wp/types.ts';

const operationsDir = new URL('./operations/', import.meta.url);

/** Every named operation of operations/*.graphql, parsed and validated once at startup. */
function loadOperations(executor: Executor): Map<string, PreparedOperation> {
  const files = readdirSync(operationsDir).filter((f) => f.endsWith('.graphql'));
  const source = files.map((f) => readFileSync(new URL(f, operationsDir), 'utf8')).join('\n');
  return new Map(executor.prepare(source).map((op) => [op.name, op]));
}

const ID = '(?P<id>\\d+)';
const SLUG = '(?P<slug>[^/]+)';

/**
 * The `cal/events/v1` REST facade: WordPress-compatible routes, each translated into one GraphQL
 * operation run in-process, its result shaped by the presenters. No calendar logic lives here.
 */
export function createRestMiddleware({
  executor,
  config,
  logger,
  now,
}: {
  executor: Executor;
  config: Config;
  logger: RouteDeps['logger'];
  now?: () => Date;
}): Middleware<AppState> {
  const operations = loadOperations(executor);
  const deps: RouteDeps = {
    execute: executor.execute,
    operation: (name) => {
      const op = operations.get(name);
      if (!op) throw new Error(`unknown REST operation ${name}`);
      return op;
    },
    logger,
    currencyCode: config.site.currencyCode,
  };
  const venue = linkedPostHandlers('venue');
  const organizer = linkedPostHandlers('organizer');
  const category = termHandlers('category');
  const tag = termHandlers('tag');
  const write = { permission: writePermission };
  const routes = bindRoutes(RESOURCE_ROUTES, {
    'GET /events': { handler: listEvents(deps) },
    'POST /events': { handler: createEvent(deps), ...write },
    [`GET /events/${ID}`]: { handler: getEvent(deps) },
    [`DELETE /events/${ID}`]: { handler: deleteEvent(deps), ...write },
    [`POST /events/${ID}`]: { handler: updateEvent(deps), ...write },
    [`GET /events/by-slug/${SLUG}`]: { handler: getEvent(deps) },
    [`DELETE /events/by-slug/${SLUG}`]: { handler: deleteEvent(deps), ...write },
    [`POST /events/by-slug/${SLUG}`]: { handler: updateEvent(deps), ...write },
    ...linkedRoutes('venues', venue, deps),
    ...linkedRoutes('organizers', organizer, deps),
    ...termRoutes('categories', category, deps),
    ...termRoutes('tags', tag, deps),
  });

  return createWpRestMiddleware({
    routes,
    siteUrl: config.siteUrl,
    trustProxy: config.trustProxy,
    logger,
    now,
    settings: { siteTimezone: config.site.timezone, postsPerPage: config.site.postsPerPage, maxPerPage: config.site.maxPerPage },
    authenticate: (ctx) => {
      const state = ctx.state as AppState;
      const failure = state.authError;
      if (failure?.error === 'throttled') {
        ctx.set('Retry-After', String(failure.retryAfter));
        return wpError('too_many_requests', msg('error.too_many_requests'), 429);
      }
      if (failure) return tableError('incorrect_password');
      const viewer = state.cal?.viewer;
      return viewer ? ({ anonymous: false, id: viewer.id, login: viewer.login, roles: [viewer.role] } satisfies Caller) : null;
    },
  }) as Middleware<AppState>;
}

function linkedRoutes(base: string, h: ReturnType<typeof linkedPostHandlers>, deps: RouteDeps) {
  const write = { permission: writePermission };
  return {
    [`GET /${base}`]: { handler: h.list(deps) },
    [`POST /${base}`]: { handler: h.create(deps), ...write },
    [`GET /${base}/${ID}`]: { handler: h.get(deps) },
    [`DELETE /${base}/${ID}`]: { handler: h.remove(deps), ...write },
    [`POST /${base}/${ID}`]: { handler: h.update(deps), ...write },
    [`GET /${base}/by-slug/${SLUG}`]: { handler: h.get(deps) },
    [`DELETE /${base}/by-slug/${SLUG}`]: { handler: h.remove(deps), ...write },
    [`POST /${base}/by-slug/${SLUG}`]: { handler: h.update(deps), ...write },
  };
}

function termRoutes(base: string, h: ReturnType<typeof termHandlers>, deps: RouteDeps) {
  const write = { permission: writePermission };
  return {
    [`GET /${base}`]: { handler: h.list(deps) },
    [`POST /${base}`]: { handler: h.create(deps), ...write },
    [`GET /${base}/${ID}`]: { handler: h.get(deps) },
    [`POST /${base}/${ID}`]: { handler: h.update(deps), ...write },
    [`DELETE /${base}/${ID}`]: { handler: h.remove(deps), ...write },
  };
}
