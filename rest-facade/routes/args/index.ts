/**
 * The resource routes of `cal/events/v1` in registration order (as the namespace index lists
 * them), with their endpoints' methods and argument tables — but no handlers. Handlers are bound
 * with `bindRoutes()`:
 *
 *   const routes = bindRoutes(RESOURCE_ROUTES, {
 *     'GET /events': { handler: listEvents },
 *     'POST /events': { handler: createEvent, permission: canCreateEvents },
 *     'GET /events/(?P<id>\\d+)': { handler: getEvent },
 *     …
 *   });
 *   app.use(createWpRestMiddleware({ routes }));
 *
 * Keys are `"<first method of the endpoint> <pattern>"`. The namespace root and `/doc` are added
 * by the mount itself.
 */
import type { ArgMap, EndpointDef, HttpMethod, RouteDef } from '../../wp/types.ts';
import * as ev from './events.ts';
import * as ve from './venues.ts';
import * as or from './organizers.ts';
import * as ca from './categories.ts';
import * as ta from './tags.ts';

export * from './events.ts';
export * from './venues.ts';
export * from './organizers.ts';
export * from './categories.ts';
export * from './tags.ts';
export { withArgs } from '../../wp/route.ts';

export interface EndpointSkeleton {
  methods: readonly HttpMethod[];
  args: ArgMap;
}
export interface RouteSkeleton {
  pattern: string;
  endpoints: readonly EndpointSkeleton[];
}

const ID = '(?P<id>\\d+)';
const SLUG = '(?P<slug>[^/]+)';
const UPDATE: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH'];

export const RESOURCE_ROUTES: readonly RouteSkeleton[] = [
  { pattern: '/events', endpoints: [{ methods: ['GET'], args: ev.eventsListArgs }, { methods: ['POST'], args: ev.eventsCreateArgs }] },
  {
    pattern: `/events/${ID}`,
    endpoints: [
      { methods: ['GET'], args: ev.eventGetArgs },
      { methods: ['DELETE'], args: ev.eventDeleteArgs },
      { methods: UPDATE, args: ev.eventUpdateArgs },
    ],
  },
  {
    pattern: `/events/by-slug/${SLUG}`,
    endpoints: [
      { methods: ['GET'], args: ev.eventBySlugGetArgs },
      { methods: ['DELETE'], args: ev.eventBySlugDeleteArgs },
      { methods: UPDATE, args: ev.eventBySlugUpdateArgs },
    ],
  },
  { pattern: '/venues', endpoints: [{ methods: ['GET'], args: ve.venuesListArgs }, { methods: ['POST'], args: ve.venuesCreateArgs }] },
  {
    pattern: `/venues/${ID}`,
    endpoints: [
      { methods: ['GET'], args: ve.venueGetArgs },
      { methods: ['DELETE'], args: ve.venueDeleteArgs },
      { methods: UPDATE, args: ve.venueUpdateArgs },
    ],
  },
  {
    pattern: `/venues/by-slug/${SLUG}`,
    endpoints: [
      { methods: ['GET'], args: ve.venueBySlugGetArgs },
      { methods: ['DELETE'], args: ve.venueBySlugDeleteArgs },
      { methods: UPDATE, args: ve.venueBySlugUpdateArgs },
    ],
  },
  { pattern: '/organizers', endpoints: [{ methods: ['GET'], args: or.organizersListArgs }, { methods: ['POST'], args: or.organizersCreateArgs }] },
  {
    pattern: `/organizers/${ID}`,
    endpoints: [
      { methods: ['GET'], args: or.organizerGetArgs },
      { methods: ['DELETE'], args: or.organizerDeleteArgs },
      { methods: UPDATE, args: or.organizerUpdateArgs },
    ],
  },
  {
    pattern: `/organizers/by-slug/${SLUG}`,
    endpoints: [
      { methods: ['GET'], args: or.organizerBySlugGetArgs },
      { methods: ['DELETE'], args: or.organizerBySlugDeleteArgs },
      { methods: UPDATE, args: or.organizerBySlugUpdateArgs },
    ],
  },
  { pattern: '/categories', endpoints: [{ methods: ['GET'], args: ca.categoriesListArgs }, { methods: ['POST'], args: ca.categoriesCreateArgs }] },
  {
    pattern: `/categories/${ID}`,
    endpoints: [
      { methods: ['GET'], args: ca.categoryGetArgs },
      { methods: UPDATE, args: ca.categoryUpdateArgs },
      { methods: ['DELETE'], args: ca.categoryDeleteArgs },
    ],
  },
  { pattern: '/tags', endpoints: [{ methods: ['GET'], args: ta.tagsListArgs }, { methods: ['POST'], args: ta.tagsCreateArgs }] },
  {
    pattern: `/tags/${ID}`,
    endpoints: [
      { methods: ['GET'], args: ta.tagGetArgs },
      { methods: UPDATE, args: ta.tagUpdateArgs },
      { methods: ['DELETE'], args: ta.tagDeleteArgs },
    ],
  },
];

export type EndpointImpl = Pick<EndpointDef, 'handler'> & Partial<Pick<EndpointDef, 'permission' | 'args'>>;

/** Key of an endpoint in `bindRoutes()`: `"GET /events"`, `"POST /events/(?P<id>\\d+)"`. */
export function endpointKey(methods: readonly HttpMethod[], pattern: string): string {
  return `${methods[0]} ${pattern}`;
}

/**
 * Attach handlers (and permissions, optionally replaced args) to the skeletons. Endpoints without
 * an implementation get `fallback` or, without one, are left out (an unimplemented method then
 * answers `rest_no_route`).
 */
export function bindRoutes(
  skeletons: readonly RouteSkeleton[],
  impls: Record<string, EndpointImpl>,
  fallback?: (key: string) => EndpointImpl,
): RouteDef[] {
  const out: RouteDef[] = [];
  for (const s of skeletons) {
    const endpoints: EndpointDef[] = [];
    for (const e of s.endpoints) {
      const key = endpointKey(e.methods, s.pattern);
      const impl = impls[key] ?? fallback?.(key);
      if (!impl) continue;
      endpoints.push({ methods: e.methods, args: impl.args ?? e.args, handler: impl.handler, ...(impl.permission ? { permission: impl.permission } : {}) });
    }
    if (endpoints.length) out.push({ pattern: s.pattern, endpoints });
  }
  return out;
}
