/**
 * Typed domain errors. Each carries a stable `code` (GraphQL clients and the REST facade switch on
 * it), the HTTP status it stands for, and, for validation failures, the offending field.
 */
export abstract class DomainError extends Error {
  abstract readonly httpStatus: number;
  constructor(
    message: string,
    readonly code: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class NotFoundError extends DomainError {
  readonly httpStatus = 404;
  constructor(message: string, code = 'NOT_FOUND', field?: string) {
    super(message, code, field);
  }
}

export class ValidationError extends DomainError {
  readonly httpStatus = 400;
  constructor(message: string, field: string, code = 'INVALID') {
    super(message, code, field);
  }
}

/** The caller is not signed in and the action needs a user. */
export class UnauthenticatedError extends DomainError {
  readonly httpStatus = 401;
  constructor(message = 'You must be signed in to do that.', code = 'UNAUTHENTICATED') {
    super(message, code);
  }
}

export class ForbiddenError extends DomainError {
  readonly httpStatus = 403;
  constructor(message = 'You are not allowed to do that.', code = 'FORBIDDEN') {
    super(message, code);
  }
}

/** The record is in the trash (reads and repeated deletes). */
export class GoneError extends DomainError {
  readonly httpStatus = 410;
  constructor(message: string, code = 'TRASHED') {
    super(message, code);
  }
}

export class ConflictError extends DomainError {
  readonly httpStatus = 400;
  constructor(
    message: string,
    code: string,
    field?: string,
    /** The record the write clashes with, and its kind when it is a record of the API (a user, a category, a tag). */
    readonly existingId?: number,
    readonly existingType?: 'User' | 'EventCategory' | 'EventTag',
  ) {
    super(message, code, field);
  }
}
