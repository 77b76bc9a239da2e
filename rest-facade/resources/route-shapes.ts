/**
 * The shapes of the resource routes, as the namespace index lists them: a post type (events,
 * venues, organizers) has a collection, `/{id}` and `/by-slug/{slug}`; a taxonomy (categories,
 * tags) a collection and `/{id}`. A route skeleton names its endpoints' methods, argument tables
 * and handler; `bindRoutes()` attaches the handlers.
 */
import type { ArgMap, EndpointDef, HttpMethod, RouteDef, WpRequest, WpResponse } from '../wp/types.ts';
import type { RouteDeps } from './common.ts';

export type HandlerName = 'list' | 'get' | 'create' | 'update' | 'remove';
/** A resource's handlers, each built once from the facade's dependencies. */
export type ResourceHandlers = Record<HandlerName, (deps: RouteDeps) => (req: WpRequest) => Promise<WpResponse>>;

export interface EndpointSkeleton {
  methods: readonly HttpMethod[];
  args: ArgMap;
  handler: HandlerName;
}
export interface RouteSkeleton {
  pattern: string;
  endpoints: readonly EndpointSkeleton[];
}

export interface PostArgTables {
  list: ArgMap;
  create: ArgMap;
  get: ArgMap;
  delete: ArgMap;
  update: ArgMap;
  getBySlug: ArgMap;
  deleteBySlug: ArgMap;
  updateBySlug: ArgMap;
}

export interface TermArgTables {
  list: ArgMap;
  create: ArgMap;
  get: ArgMap;
  update: ArgMap;
  delete: ArgMap;
}

const ID = '(?P<id>\\d+)';
const SLUG = '(?P<slug>[^/]+)';
const UPDATE: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH'];

/** A collection: list and create. */
function collection(base: string, args: { list: ArgMap; create: ArgMap }): RouteSkeleton {
  return {
    pattern: base,
    endpoints: [
      { methods: ['GET'], args: args.list, handler: 'list' },
      { methods: ['POST'], args: args.create, handler: 'create' },
    ],
  };
}

/** The argument tables of one item's endpoints (`/{id}`, `/by-slug/{slug}`). */
interface ItemArgTables {
  get: ArgMap;
  delete: ArgMap;
  update: ArgMap;
}

/**
 * One item: read, delete and update. Posts list delete before update, taxonomies update before
 * delete, as WordPress does.
 */
function item(pattern: string, args: ItemArgTables, order: 'delete-first' | 'update-first'): RouteSkeleton {
  const get: EndpointSkeleton = { methods: ['GET'], args: args.get, handler: 'get' };
  const remove: EndpointSkeleton = { methods: ['DELETE'], args: args.delete, handler: 'remove' };
  const update: EndpointSkeleton = { methods: UPDATE, args: args.update, handler: 'update' };
  return { pattern, endpoints: order === 'delete-first' ? [get, remove, update] : [get, update, remove] };
}

/** `/events`, `/venues`, `/organizers`: collection, by ID, by slug. */
export function postRoutes(base: string, args: PostArgTables): RouteSkeleton[] {
  return [
    collection(base, args),
    item(`${base}/${ID}`, args, 'delete-first'),
    item(`${base}/by-slug/${SLUG}`, { get: args.getBySlug, delete: args.deleteBySlug, update: args.updateBySlug }, 'delete-first'),
  ];
}

/** `/categories`, `/tags`: collection and by ID. */
export function termRoutes(base: string, args: TermArgTables): RouteSkeleton[] {
  return [collection(base, args), item(`${base}/${ID}`, args, 'update-first')];
}

export type EndpointImpl = Pick<EndpointDef, 'handler' | 'permission'>;

/** Key of an endpoint in `bindRoutes()`: `"GET /events"`, `"POST /events/(?P<id>\\d+)"`. */
export function endpointKey(methods: readonly HttpMethod[], pattern: string): string {
  return `${methods[0]} ${pattern}`;
}

/**
 * Attach handlers (and permissions) to the skeletons. Endpoints without
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
      endpoints.push({ methods: e.methods, args: e.args, handler: impl.handler, ...(impl.permission ? { permission: impl.permission } : {}) });
    }
    if (endpoints.length) out.push({ pattern: s.pattern, endpoints });
  }
  return out;
}
