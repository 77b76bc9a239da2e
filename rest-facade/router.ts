import type { DocumentNode } from 'graphql';
import type { Middleware } from 'koa';
import type { Executor, PreparedOperation } from '../schema/executor.ts';
import type { AppState, SiteSettings } from '../src/services/context.ts';
import { categoryEndpoints } from './resources/categories/endpoints.ts';
import { routeTable, type Endpoint, type RouteDeps } from './resources/endpoint.ts';
import { eventEndpoints } from './resources/events/endpoints.ts';
import { organizerEndpoints } from './resources/organizers/endpoints.ts';
import { tagEndpoints } from './resources/tags/endpoints.ts';
import { venueEndpoints } from './resources/venues/endpoints.ts';
import * as generated from './generated/operations.ts';
import { createWpRestDispatch, createWpRestMiddleware, type WpDispatch } from './wp/mount.ts';
import { msg, tableError, wpError } from './wp/errors.ts';
import type { Caller, RouteDef } from './wp/types.ts';

/**
 * Every endpoint, one object each in its resource's folder (resources/endpoint.ts), in the order the
 * namespace index lists their routes (the root and `/doc` come first, from wp/).
 */
export const RESOURCE_ENDPOINTS: readonly Endpoint[] = [...eventEndpoints, ...venueEndpoints, ...organizerEndpoints, ...categoryEndpoints, ...tagEndpoints];

/** The endpoints' routes, each endpoint with its handler and its permission check. */
function resourceRoutes(deps: RouteDeps): RouteDef[] {
  return routeTable(RESOURCE_ENDPOINTS, (e, route) => ({
    methods: e.methods,
    args: route.args,
    handler: e.handler(deps),
    ...(e.permission === 'public' ? {} : { permission: e.permission }),
  }));
}

/**
 * Every operation document generated from the `.graphql` files under resources/ (each with the
 * fragments it spreads), each validated against the schema on its first run.
 */
function loadOperations(executor: Executor): Map<DocumentNode, PreparedOperation> {
  const documents = Object.values(generated).filter((d) => d.definitions.some((def) => def.kind === 'OperationDefinition'));
  return new Map(documents.map((d) => [d, executor.prepare(d)]));
}

/** What the facade reads of the service's configuration (src/server/config.ts's Config is one). */
export interface RestConfig {
  site: Pick<SiteSettings, 'timezone' | 'postsPerPage' | 'maxPerPage' | 'currencyCode'>;
  siteUrl: string | undefined;
  trustProxy: boolean;
  bodyLimit: number;
  corsOrigins: readonly string[];
}

interface RestOptions {
  executor: Executor;
  config: RestConfig;
  logger: RouteDeps['logger'];
  now?: () => Date;
}

/**
 * The `cal/events/v1` REST facade: WordPress-compatible routes, each translated into one GraphQL
 * operation run in-process, its result shaped by the presenters. No calendar logic lives here.
 * `dispatch` answers one request (the pages call it in-process); the middleware serves it over HTTP.
 */
export function createRestDispatch({ executor, config, logger, now }: RestOptions): WpDispatch {
  const operations = loadOperations(executor);
  const deps: RouteDeps = {
    execute: executor.execute,
    operation: (document) => {
      const op = operations.get(document);
      if (!op) throw new Error('not an operation of rest-facade/generated/operations.ts');
      return op;
    },
    logger,
    currencyCode: config.site.currencyCode,
  };
  return createWpRestDispatch({
    routes: resourceRoutes(deps),
    siteUrl: config.siteUrl,
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimit,
    credentialedOrigins: config.corsOrigins,
    logger,
    now,
    settings: { siteTimezone: config.site.timezone, postsPerPage: config.site.postsPerPage, maxPerPage: config.site.maxPerPage },
    authenticate: (request, out) => {
      const state = request.state as AppState;
      const failure = state.authError;
      if (failure?.error === 'throttled') {
        out.set('Retry-After', String(failure.retryAfter));
        return wpError('too_many_requests', msg('error.too_many_requests'), 429);
      }
      if (failure) return tableError('incorrect_password');
      const viewer = state.cal?.viewer;
      return viewer ? ({ anonymous: false, id: viewer.id, login: viewer.login, roles: [viewer.role] } satisfies Caller) : null;
    },
  });
}

/** The facade served over HTTP. */
export function createRestMiddleware(dispatch: WpDispatch): Middleware<AppState> {
  return createWpRestMiddleware(dispatch) as Middleware<AppState>;
}
