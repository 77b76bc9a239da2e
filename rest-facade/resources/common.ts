/**
 * What every resource handler uses: running its GraphQL operation in-process, mapping the core's
 * typed errors to WordPress errors (§8), and the list parameters every list reflects.
 */
import type { ResultOf, TypedDocumentNode } from '@graphql-typed-document-node/core';
import type { AppState, Context } from '../../src/services/context.ts';
import { canCreatePosts } from '../../src/domain/capabilities.ts';
import type { Executor, PreparedOperation } from '../../schema/executor.ts';
import { invalidParamsError, internalError, msg, tableError, wpError, WpError } from '../wp/errors.ts';
import type { WpRequest } from '../wp/types.ts';
import { wireName } from './params.ts';
import type { PresentedPage, PresentedRecords } from '../presenters/presented.ts';

export type Resource = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

export interface RouteDeps {
  execute: Executor['execute'];
  /** The prepared (validated at startup) form of one of rest-facade/generated/operations.ts's documents. */
  operation(document: TypedDocumentNode<unknown, never>): PreparedOperation;
  logger: { error(obj: unknown, msg?: string): void };
  currencyCode: string;
  /** Presented records of anonymous list pages (rest-facade/presenters/presented.ts); null: off. */
  presented: PresentedRecords | null;
}

/** A typed error a GraphQL field returned (fragment RestError). */
export interface RestError {
  __typename: string;
  code: string;
  message: string;
  field?: string;
  notFoundField?: string | null;
  conflictField?: string | null;
  existingId?: number | null;
}

export const isRestError = (x: unknown): x is RestError =>
  typeof x === 'object' && x !== null && typeof (x as RestError).__typename === 'string' && (x as RestError).__typename.endsWith('Error');

/** The GraphQL context of this request, with the read password / edit context it asked for. */
export function calContext(req: WpRequest): Context {
  const base = (req.state as AppState).cal;
  const password = typeof req.params.password === 'string' ? req.params.password : undefined;
  const editContext = req.rawParams.context === 'edit';
  return password !== undefined || editContext ? { ...base, password, editContext } : base;
}

/**
 * The typed error a read raised as a GraphQL error (`extensions.type`, `code`, `field`), in the
 * shape mutations return theirs, so `toWpError` maps both. Null for any other error.
 */
function raisedError(error: { message: string; extensions?: Record<string, unknown> }): RestError | null {
  const { type, code, field } = error.extensions ?? {};
  if (typeof type !== 'string' || typeof code !== 'string') return null;
  const named = typeof field === 'string' ? field : undefined;
  return { __typename: type, code, message: error.message, field: named, notFoundField: named ?? null, conflictField: named ?? null };
}

/** An operation document of rest-facade/generated/operations.ts (or a union of them: categories | tags, …). */
type OperationDocument = TypedDocumentNode<unknown, never>;

/** The value of an operation's one root field (distributes over a union of operations). */
type RootValue<R> = R extends unknown ? R[keyof R] : never;

/** What `run` resolves to: the root field's data, with the error members of a result union folded into `RestError`. */
export type RunResult<D extends OperationDocument> = Exclude<RootValue<ResultOf<D>>, { __typename: `${string}Error` }> | RestError;

/**
 * The variables of an operation, by name: every variable it declares may be given (the required
 * ones must be), no other. Values are as the facade built them from the request; the core coerces
 * and validates them (a wrong one is a GraphQL error, answered 500 below).
 */
type VariablesFor<D extends OperationDocument> = D extends TypedDocumentNode<unknown, infer V> ? { [K in keyof V]: unknown } : never;

/**
 * Runs one operation of rest-facade/resources/**\/*.graphql (its generated typed document) in-process
 * and returns the root field's value: its data, or the typed error it returned (mutations) or raised
 * (reads). Other GraphQL errors are not the client's fault here (the facade built the variables):
 * they are logged and answered 500 in the WordPress shape, never leaked.
 */
export async function run<D extends OperationDocument>(
  deps: RouteDeps,
  req: WpRequest,
  document: D,
  variables: VariablesFor<D>,
  context: Context = calContext(req),
): Promise<RunResult<D>> {
  const operation = deps.operation(document);
  const result = await deps.execute(operation, variables as Record<string, unknown>, context);
  const raised = result.errors?.length === 1 ? raisedError(result.errors[0]!) : null;
  if (raised) return raised;
  if (result.errors?.length || !result.data) {
    deps.logger.error({ errors: result.errors, operation: operation.name }, 'REST operation failed');
    throw internalError();
  }
  // The data has the shape the document's generated type describes (GraphQL execution guarantees it).
  return Object.values(result.data)[0] as RunResult<D>;
}

/**
 * The presented records a list page of `kind` may take and keep: anonymous reads only (no read
 * password, no edit context), scoped by the URLs the records' links are written with. Null otherwise.
 */
export async function presentedPage(deps: RouteDeps, req: WpRequest, kind: string): Promise<PresentedPage | null> {
  const ctx = calContext(req);
  if (!deps.presented || ctx.viewer || ctx.password !== undefined || ctx.editContext) return null;
  return deps.presented.open(kind, `${req.urls.site} ${req.urls.home} ${req.urls.restRoot}`);
}

/** The caller as the core's role rules see it. */
const viewer = (req: WpRequest) => (req.state as AppState).cal?.viewer ?? null;

/** A writes' permission check: real executions defer to the core (which validates first, as
 * WordPress does); for the `Allow` header, any user who may create posts. */
export function writePermission(req: WpRequest): boolean {
  return !req.probe || canCreatePosts(viewer(req));
}

const notAccessible: Record<Resource, 'event-not-accessible' | 'venue-not-accessible' | 'organizer-not-accessible' | null> = {
  event: 'event-not-accessible',
  venue: 'venue-not-accessible',
  organizer: 'organizer-not-accessible',
  category: null,
  tag: null,
};
const inTrash = { event: 'event-is-in-trash', venue: 'venue-is-in-trash', organizer: 'organizer-is-in-trash' } as const;

/** Maps a core error to the contract's WordPress error (§8). `param` names the addressed parameter. */
export function toWpError(err: RestError, resource: Resource, req: WpRequest, param: 'id' | 'slug' = 'id'): WpError {
  switch (err.__typename) {
    case 'NotFoundError': {
      if (resource === 'event' && param === 'id' && (err.notFoundField ?? 'id') === 'id') {
        return tableError('rest-event-not-found', { id: req.params.id });
      }
      return invalidParamsError([[wireName(err.notFoundField ?? param), false]]);
    }
    case 'ValidationError': {
      const field = wireName(err.field || param);
      if (err.code === 'WRONG_KIND' && field === 'id') {
        return resource === 'event' ? tableError('rest-invalid-event-id') : invalidParamsError([['id', false]]);
      }
      if (err.code === 'TAXONOMY_NOT_HIERARCHICAL') return tableError('rest_taxonomy_not_hierarchical');
      if (err.code === 'TICKETING_UNAVAILABLE') {
        return invalidParamsError([[field, wpError('event-tickets-not-active', msg('error.event-tickets-not-active'), null, {})]]);
      }
      // TEC's validators are plain callbacks: "Invalid parameter." and `details: []` (samples).
      return invalidParamsError([[field, false]]);
    }
    case 'UnauthenticatedError':
      return tableError('rest_forbidden', undefined, undefined, 401);
    case 'ForbiddenError': {
      const code = notAccessible[resource];
      if (err.code === 'NOT_ACCESSIBLE' && code) return tableError(code);
      if (err.code === 'NO_LONGER_AVAILABLE' && resource === 'event') return tableError('event-no-longer-available');
      return tableError('rest_forbidden', undefined, undefined, req.user.anonymous ? 401 : 403);
    }
    case 'GoneError':
      return resource in inTrash ? tableError(inTrash[resource as keyof typeof inTrash]) : invalidParamsError([[param, false]]);
    case 'ConflictError': {
      if (err.code === 'TERM_EXISTS') {
        const id = err.existingId ?? 0;
        return wpError('term_exists', msg(resource === 'tag' ? 'error.term_exists_in_taxonomy' : 'error.term_exists'), 400, { term_id: id }, [id, id]);
      }
      if (err.code === 'DUPLICATE_TERM_SLUG') return tableError('duplicate_term_slug', { slug: req.params.slug });
      return invalidParamsError([[wireName(err.conflictField ?? param), false]]);
    }
    default:
      return internalError();
  }
}

/** Throws the mapped error when a field returned an error type. */
export function unwrap<T>(value: T | RestError, resource: Resource, req: WpRequest, param: 'id' | 'slug' = 'id'): T {
  if (isRestError(value)) throw toWpError(value, resource, req, param);
  return value;
}

/** Parameters the client sent, keyed by name (defaults excluded). */
export function sentParams(req: WpRequest, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const n of names) if (req.sent(n) && req.params[n] !== undefined && req.params[n] !== null) out[n] = req.params[n];
  return out;
}

/**
 * The `status` a list URL shows (§5.3): what the client sent, else the role's default set
 * (`publish` for callers who may not edit, `any` for the others).
 */
export function listStatusParam(req: WpRequest): unknown {
  if (req.sent('status')) return req.params.status;
  return canCreatePosts(viewer(req)) ? 'any' : 'publish';
}
