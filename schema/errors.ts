import {
  ConflictError,
  DomainError,
  ForbiddenError,
  GoneError,
  NotFoundError,
  UnauthenticatedError,
  ValidationError,
} from '../src/domain/errors.ts';
import { builder } from './builder.ts';

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
    existingId: t.exposeInt('existingId', { nullable: true }),
  }),
});

/** Error types every read-by-address field can return. */
export const readErrors = [NotFoundError, ValidationError, ForbiddenError, GoneError] as const;
/** Error types every mutation can return. */
export const writeErrors = [
  NotFoundError,
  ValidationError,
  UnauthenticatedError,
  ForbiddenError,
  GoneError,
  ConflictError,
] as const;
