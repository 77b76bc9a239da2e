/**
 * The core's typed errors, as an endpoint meets them (returned by a mutation, raised by a read),
 * mapped to the contract's WordPress errors (§8).
 */
import { invalidParamsError, internalError, msg, tableError, wpError, WpError } from '../wp/errors.ts';
import type { WpRequest } from '../wp/types.ts';
import { wireName } from './params.ts';

export type Resource = 'event' | 'venue' | 'organizer' | 'category' | 'tag';

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

/**
 * The typed error a read raised as a GraphQL error (`extensions.type`, `code`, `field`), in the
 * shape mutations return theirs, so `toWpError` maps both. Null for any other error.
 */
export function raisedError(error: { message: string; extensions?: Record<string, unknown> }): RestError | null {
  const { type, code, field } = error.extensions ?? {};
  if (typeof type !== 'string' || typeof code !== 'string') return null;
  const named = typeof field === 'string' ? field : undefined;
  return { __typename: type, code, message: error.message, field: named, notFoundField: named ?? null, conflictField: named ?? null };
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

/**
 * What an operation found, or the WordPress error to throw for what it returned or raised instead.
 * On an addressed route (`/{id}`, `/by-slug/{slug}`) a record not found (or a null read) is the
 * addressed one: an event by ID answers `rest-event-not-found`, anything else 400 on `id`/`slug`.
 */
export function found<T extends object>(value: T | RestError | null, resource: Resource, req: WpRequest): T {
  if (value !== null && !isRestError(value)) return value;
  const error: RestError = isRestError(value) && value.__typename !== 'NotFoundError' ? value : { __typename: 'NotFoundError', code: 'NOT_FOUND', message: '', notFoundField: null };
  throw toWpError(error, resource, req, req.pathParams.slug !== undefined ? 'slug' : 'id');
}
