import type { DocumentNode } from 'graphql';
import type { Middleware } from 'koa';
import type { Executor, PreparedOperation } from '../schema/executor.ts';
import type { AppState, SiteSettings } from '../src/services/context.ts';
import { categoryHandlers, categoryRoutes } from './resources/categories/routes.ts';
import { writePermission, type RouteDeps } from './resources/common.ts';
import { eventHandlers, eventRoutes } from './resources/events/routes.ts';
import { organizerHandlers, organizerRoutes } from './resources/organizers/routes.ts';
import { bindRoutes, endpointKey, type EndpointImpl, type ResourceHandlers, type RouteSkeleton } from './resources/route-shapes.ts';
import { tagHandlers, tagRoutes } from './resources/tags/routes.ts';
import { venueHandlers, venueRoutes } from './resources/venues/routes.ts';
import * as generated from './generated/operations.ts';
import { createWpRestDispatch, createWpRestMiddleware, type WpDispatch } from './wp/mount.ts';
import { msg, tableError, wpError } from './wp/errors.ts';
import type { Caller, RouteDef } from './wp/types.ts';
import { PresentedRecords, type PresentedValidity } from './presenters/presented.ts';

/** Every resource, in the order the namespace index lists its routes (the root and `/doc` come first, from wp/). */
const RESOURCES: ReadonlyArray<{ routes: readonly RouteSkeleton[]; handlers: ResourceHandlers }> = [
  { routes: eventRoutes, handlers: eventHandlers },
  { routes: venueRoutes, handlers: venueHandlers },
  { routes: organizerRoutes, handlers: organizerHandlers },
  { routes: categoryRoutes, handlers: categoryHandlers },
  { routes: tagRoutes, handlers: tagHandlers },
];

export const RESOURCE_ROUTES: readonly RouteSkeleton[] = RESOURCES.flatMap((r) => r.routes);

/** The resource routes with their handlers, in the index's order; every write (any method but GET) checks `writePermission`. */
function bindResourceRoutes(deps: RouteDeps): RouteDef[] {
  const impls: Record<string, EndpointImpl> = {};
  for (const { routes, handlers } of RESOURCES) {
    for (const route of routes) {
      for (const e of route.endpoints) {
        const handler = handlers[e.handler](deps);
        impls[endpointKey(e.methods, route.pattern)] = e.methods[0] === 'GET' ? { handler } : { handler, permission: writePermission };
      }
    }
  }
  return bindRoutes(RESOURCE_ROUTES, impls);
}

/**
 * Every operation document generated from the `.graphql` files under resources/ (each with the
 * fragments it spreads), validated once at startup.
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
  /** Presented records of anonymous list pages (rest-facade/presenters/presented.ts). */
  presented?: PresentedRecords | null;
}

/**
 * The presented records of anonymous list pages (rest-facade/presenters/presented.ts), valid as long
 * as `validity` (the response cache) says; null when `ttlS` is 0. Handed to `createRestDispatch`.
 */
export function createPresentedRecords(opts: { ttlS: number; maxBytes: number; validity: PresentedValidity }): PresentedRecords | null {
  return opts.ttlS > 0 ? new PresentedRecords(opts) : null;
}

/**
 * The `cal/events/v1` REST facade: WordPress-compatible routes, each translated into one GraphQL
 * operation run in-process, its result shaped by the presenters. No calendar logic lives here.
 * `dispatch` answers one request (the pages call it in-process); the middleware serves it over HTTP.
 */
export function createRestDispatch({ executor, config, logger, now, presented = null }: RestOptions): WpDispatch {
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
    presented,
  };
  return createWpRestDispatch({
    routes: bindResourceRoutes(deps),
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
