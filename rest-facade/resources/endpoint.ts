/**
 * A REST endpoint is one object in its resource folder, as Ghost's API controllers are
 * (`browse: { options, validation, permissions, query(frame) }`): its methods, the routes it answers
 * at with their argument tables, who may call it, the named GraphQL operation it runs, how the
 * request's parameters become that operation's variables (typed as the generated `…Variables`), and
 * its presenter. The router reads these objects; the namespace index, OPTIONS and OpenAPI are
 * derived from them.
 *
 * Every endpoint runs the same way: parameters → variables → the operation, in-process through the
 * executor (the envelop chain of `/graphql`) → what it found, or the WordPress error of the typed
 * error it returned or raised (errors.ts) → the presenter.
 */
import type { ResultOf, TypedDocumentNode, VariablesOf } from '@graphql-typed-document-node/core';
import type { AppState, Context } from '../../src/services/context.ts';
import { canCreatePosts } from '../../src/domain/capabilities.ts';
import { RETRY_AFTER_S } from '../../src/db/unavailable.ts';
import type { Executor, PreparedOperation } from '../../schema/executor.ts';
import { internalError, serviceUnavailable } from '../wp/errors.ts';
import type { ArgMap, EndpointDef, HttpMethod, RouteDef, WpRequest, WpResponse } from '../wp/types.ts';
import type { RestErrorFragment } from '../generated/operations.ts';
import { found, raisedError, type Resource, type RestError } from './errors.ts';

export interface RouteDeps {
  execute: Executor['execute'];
  /** The prepared (validated at startup) form of one of rest-facade/generated/operations.ts's documents. */
  operation(document: TypedDocumentNode<unknown, never>): PreparedOperation;
  logger: { error(obj: unknown, msg?: string): void };
  currencyCode: string;
}

/** The ID and slug of an item's routes (`/events/{id}`, `/events/by-slug/{slug}`), and the methods of an update. */
export const ID = '(?P<id>\\d+)';
export const SLUG = '(?P<slug>[^/]+)';
export const UPDATE: readonly HttpMethod[] = ['POST', 'PUT', 'PATCH'];

/** One root field of type `T`, whatever its name (`venues`, `organizer`, `createVenue`, …). */
type Root<T> = { readonly [field: string]: T };
/** A page of a list, as the fragment RestPage and the edges select it. */
type Page<N> = { readonly totalCount: number; readonly totalPages: number; readonly perPage: number; readonly edges: ReadonlyArray<{ readonly node: N }> };

/**
 * The five operations one endpoint factory runs for two kinds (venues and organizers, categories and
 * tags): documents generated from each kind's operations.graphql, by the shapes the endpoints rely
 * on. `N` is the kind's fragment, `W` a write's payload, `V` each operation's variables: both kinds'
 * generated types, intersected, so that one value fits either kind's document.
 */
export interface Operations<N, W, V extends Record<'list' | 'byId' | 'create' | 'update' | 'remove', unknown>> {
  list: TypedDocumentNode<Root<Page<N>>, V['list']>;
  byId: TypedDocumentNode<Root<N | null>, V['byId']>;
  create: TypedDocumentNode<Root<W | RestErrorFragment>, V['create']>;
  update: TypedDocumentNode<Root<W | RestErrorFragment>, V['update']>;
  remove: TypedDocumentNode<Root<W | RestErrorFragment>, V['remove']>;
}

/** What an endpoint does; OpenAPI names its operation and its answer after it. */
export type EndpointName = 'list' | 'get' | 'create' | 'update' | 'remove';

/** A route an endpoint answers at: its WordPress pattern under the namespace, and its argument table. */
export interface EndpointRoute {
  path: string;
  args: ArgMap;
}

/** An operation document of rest-facade/generated/operations.ts. */
type OperationDocument = TypedDocumentNode<unknown, never>;

/** An endpoint, as the router reads it. */
export interface Endpoint {
  name: EndpointName;
  methods: readonly HttpMethod[];
  /** Where it answers, in the namespace index's order: one route, or an item by ID and by slug. */
  routes: readonly EndpointRoute[];
  /** Everyone, or a check (writes: `writePermission`). */
  permission: 'public' | ((req: WpRequest) => boolean);
  /** The named GraphQL operation it runs. */
  operation: OperationDocument;
  /** Its handler, built once from the facade's dependencies. */
  handler(deps: RouteDeps): (req: WpRequest) => Promise<WpResponse>;
}

/** The value of an operation's one root field (distributes over a union of operations). */
type RootValue<R> = R extends unknown ? R[keyof R] : never;

/** What `run` resolves to: the root field's data, with the error members of a result union folded into `RestError`. */
export type RunResult<D extends OperationDocument> = Exclude<RootValue<ResultOf<D>>, { __typename: `${string}Error` }> | RestError;

/** What an operation found: its root field's data, neither null nor an error. */
export type Found<D extends OperationDocument> = NonNullable<Exclude<RunResult<D>, RestError>>;

/** The parts an endpoint is written with: `Endpoint`'s, with the variables and the presenter in place of the handler. */
interface EndpointParts<D extends OperationDocument> extends Omit<Endpoint, 'operation' | 'handler'> {
  /** Whose errors the operation's are (§8 maps them per resource). */
  resource: Resource;
  operation: D;
  /** The request's parameters → the operation's variables. */
  variables(req: WpRequest): VariablesOf<D>;
  present(data: Found<D>, req: WpRequest, deps: RouteDeps): WpResponse;
}

/**
 * Names the variables `V` sets that the operation does not take. TypeScript checks a returned object
 * literal against the function's type without excess-property checks, so `variables: (req) => ({
 * perPage })` would still compile after the operation renamed `perPage`: this makes it an error.
 */
type UnknownVariables<V, D extends OperationDocument> = [Exclude<keyof V, keyof VariablesOf<D>>] extends [never]
  ? unknown
  : { variables: { unknownVariables: Exclude<keyof V, keyof VariablesOf<D>> } };

/** An endpoint: its parts, and the handler that runs them. */
export function endpoint<D extends OperationDocument, V extends VariablesOf<D>>(
  parts: Omit<EndpointParts<D>, 'variables'> & { variables(req: WpRequest): V } & UnknownVariables<V, D>,
): Endpoint {
  return assemble<D>(parts);
}

function assemble<D extends OperationDocument>(parts: EndpointParts<D>): Endpoint;
function assemble(parts: EndpointParts<OperationDocument>): Endpoint {
  const { resource, operation, variables, present } = parts;
  return {
    ...parts,
    handler: (deps) => async (req) => {
      const vars = variables(req);
      const data = found(await run(deps, req, operation, vars) as object | RestError | null, resource, req);
      return present(data as Found<OperationDocument>, req, deps);
    },
  };
}

/**
 * The routes of `endpoints`, each endpoint bound by `bind`: grouped by path in the order the paths
 * first appear, each path's endpoints in their order (the namespace index's order).
 */
export function routeTable(endpoints: readonly Endpoint[], bind: (endpoint: Endpoint, route: EndpointRoute) => EndpointDef): RouteDef[] {
  const byPath = new Map<string, EndpointDef[]>();
  for (const e of endpoints) {
    for (const route of e.routes) {
      const defs = byPath.get(route.path) ?? [];
      defs.push(bind(e, route));
      byPath.set(route.path, defs);
    }
  }
  return [...byPath].map(([pattern, defs]) => ({ pattern, endpoints: defs }));
}

/** The GraphQL context of this request, with the read password / edit context it asked for. */
export function calContext(req: WpRequest): Context {
  const base = (req.state as AppState).cal;
  const password = typeof req.params.password === 'string' ? req.params.password : undefined;
  const editContext = req.rawParams.context === 'edit';
  return password !== undefined || editContext ? { ...base, password, editContext } : base;
}

/**
 * Runs one operation of rest-facade/resources/**\/*.graphql (its generated typed document) in-process
 * with its typed variables, and returns the root field's value: its data, or the typed error it
 * returned (mutations) or raised (reads). Other GraphQL errors are not the client's fault here (the
 * facade built the variables): they are logged and answered 500 in the WordPress shape, never leaked.
 */
export async function run<D extends OperationDocument>(
  deps: RouteDeps,
  req: WpRequest,
  document: D,
  variables: VariablesOf<D>,
  context: Context = calContext(req),
): Promise<RunResult<D>> {
  const operation = deps.operation(document);
  const result = await deps.execute(operation, variables as Record<string, unknown>, context);
  const raised = result.errors?.length === 1 ? raisedError(result.errors[0]!) : null;
  if (raised) return raised;
  if (result.errors?.some((e) => e.extensions?.code === 'SERVICE_UNAVAILABLE')) throw serviceUnavailable(RETRY_AFTER_S);
  if (result.errors?.length || !result.data) {
    deps.logger.error({ errors: result.errors, operation: operation.name }, 'REST operation failed');
    throw internalError();
  }
  // The data has the shape the document's generated type describes (GraphQL execution guarantees it).
  return Object.values(result.data)[0] as RunResult<D>;
}

/**
 * A write's permission check: real executions defer to the core (which validates first, as
 * WordPress does); for the `Allow` header, any user who may create posts.
 */
export function writePermission(req: WpRequest): boolean {
  return !req.probe || canCreatePosts((req.state as AppState).cal?.viewer ?? null);
}

/** The argument tables of a post type's endpoints (events, venues, organizers). */
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

/** The argument tables of a taxonomy's endpoints (categories, tags). */
export interface TermArgTables {
  list: ArgMap;
  create: ArgMap;
  get: ArgMap;
  update: ArgMap;
  delete: ArgMap;
}
