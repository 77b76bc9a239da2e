import {
  ConflictError,
  DomainError,
  ForbiddenError,
  GoneError,
  NotFoundError,
  UnauthenticatedError,
  ValidationError,
} from '../src/domain/errors.ts';
import { GraphQLError } from 'graphql';
import { builder } from './builder.ts';
import { globalId } from './ids.ts';

export const ErrorInterface = builder.interfaceRef<DomainError>('Error').implement({
  description: 'A failure the caller can act on. `code` is stable; `message` is human text.',
  fields: (t) => ({
    message: t.exposeString('message'),
    code: t.exposeString('code'),
  }),
});

builder.objectType(NotFoundError, {
  name: 'NotFoundError',
  description: 'The addressed record does not exist.',
  interfaces: [ErrorInterface],
  fields: (t) => ({ field: t.exposeString('field', { nullable: true }) }),
});

builder.objectType(ValidationError, {
  name: 'ValidationError',
  description: 'An input was refused; `field` names it.',
  interfaces: [ErrorInterface],
  fields: (t) => ({ field: t.string({ resolve: (e) => e.field ?? '' }) }),
});

builder.objectType(UnauthenticatedError, {
  name: 'UnauthenticatedError',
  description: 'The action needs a signed-in user.',
  interfaces: [ErrorInterface],
});

builder.objectType(ForbiddenError, {
  name: 'ForbiddenError',
  description: 'The signed-in user (or anonymous caller) may not do this.',
  interfaces: [ErrorInterface],
});

builder.objectType(GoneError, {
  name: 'GoneError',
  description: 'The record is in the trash.',
  interfaces: [ErrorInterface],
});

builder.objectType(ConflictError, {
  name: 'ConflictError',
  description: 'The write clashes with an existing record (e.g. a term of the same name).',
  interfaces: [ErrorInterface],
  fields: (t) => ({
    field: t.exposeString('field', { nullable: true }),
    existingId: t.id({
      nullable: true,
      description: 'Global ID of the record the write clashes with; null when there is none or it is not a record of the API.',
      resolve: (e) => (e.existingId !== undefined && e.existingType ? globalId(e.existingType, e.existingId) : null),
    }),
    existingDatabaseId: t.exposeInt('existingId', { nullable: true, description: 'Database ID of what the write clashes with.' }),
  }),
});

/**
 * Reads (`events`, `event`, … ) answer their own type; what goes wrong is a GraphQL error whose
 * `extensions` carry `code` (stable, e.g. `INVALID_PAGE`, `STATUS_NOT_ALLOWED`, `WRONG_KIND`),
 * `field` (the argument at fault, or null) and `type` (the name of the matching typed error,
 * `ValidationError`, `NotFoundError`, `ForbiddenError`, …, as mutations return them).
 */
export function domainGraphQLError(error: DomainError): GraphQLError {
  return new GraphQLError(error.message, { extensions: { code: error.code, field: error.field ?? null, type: error.name } });
}

/** Wraps a read resolver: typed domain errors leave it as GraphQL errors with `extensions.code`. */
export function raisesDomainErrors<A extends unknown[], R>(resolve: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args) => {
    try {
      return await resolve(...args);
    } catch (error) {
      throw error instanceof DomainError ? domainGraphQLError(error) : error;
    }
  };
}

/** "Not there for this caller": no such record, or one the caller may not read (draft, trash, private). */
const isAbsent = (error: unknown) =>
  error instanceof NotFoundError || (error instanceof ForbiddenError && (error.code === 'NOT_ACCESSIBLE' || error.code === 'NO_LONGER_AVAILABLE'));

export const strictArgDescription = {
  description:
    'true: a record that does not exist or that the caller may not read is an error (`extensions.code` NOT_FOUND, NOT_ACCESSIBLE or NO_LONGER_AVAILABLE) instead of null.',
};

/**
 * A read by address: the record, or null when it does not exist or the caller may not read it.
 * With `strict` the reason is a GraphQL error instead (the REST facade asks for it: it answers
 * 404, 403 and 400 differently). Invalid arguments are errors either way.
 */
export function readByAddress<T>(strict: boolean | null | undefined, load: () => Promise<T>): Promise<T | null> {
  return raisesDomainErrors(async () => {
    try {
      return await load();
    } catch (error) {
      if (!strict && isAbsent(error)) return null;
      throw error;
    }
  })();
}
/** Error types every mutation can return. */
export const writeErrors = [
  NotFoundError,
  ValidationError,
  UnauthenticatedError,
  ForbiddenError,
  GoneError,
  ConflictError,
] as const;
