import type { Context, Viewer } from './context.ts';
import { canCreatePosts, canEdit, canEditOthers, type PostRecord } from '../domain/capabilities.ts';
import { ForbiddenError, GoneError, UnauthenticatedError, ValidationError } from '../domain/errors.ts';

/** A post row as the services load it (status as a plain string). */
type Row = { status: string; authorId: number | null; trashedFromStatus?: string | null };

const NOT_ALLOWED = 'Sorry, you are not allowed to do that.';

/** The signed-in caller, or UnauthenticatedError (with `message`, else the error's own). */
export function requireViewer(ctx: Context, message?: string): Viewer {
  if (!ctx.viewer) throw new UnauthenticatedError(message);
  return ctx.viewer;
}

export function requirePostCreator(ctx: Context): Viewer {
  const viewer = requireViewer(ctx, NOT_ALLOWED);
  if (!canCreatePosts(viewer)) throw new ForbiddenError(NOT_ALLOWED);
  return viewer;
}

export function requireEditable(ctx: Context, record: Row) {
  const viewer = requireViewer(ctx, NOT_ALLOWED);
  if (!canEdit(viewer, record as PostRecord)) throw new ForbiddenError(NOT_ALLOWED);
  return viewer;
}

/**
 * Moving a record to the trash: the permission check first, then "already trashed" (contract §1.3:
 * permission before the handler's own errors, so an anonymous caller gets 401, not 410, and a
 * caller without the right learns nothing about the record's state).
 */
export function requireTrashable(ctx: Context, record: Row, label: 'event' | 'venue' | 'organizer') {
  const viewer = requireViewer(ctx, NOT_ALLOWED);
  // Trashing takes the edit right, as in WordPress with TEC's capabilities.
  if (!canEdit(viewer, record as PostRecord)) throw new ForbiddenError(NOT_ALLOWED);
  if (record.status === 'trash') throw new GoneError(`The ${label} is already trashed`, 'ALREADY_TRASHED');
  return viewer;
}

/** Assigning a record to another user needs the "edit others'" right (REC; PHP does not check). */
export async function resolveAuthor(ctx: Context, authorId: number | null | undefined, current: number | null): Promise<number | null> {
  const viewer = requireViewer(ctx, NOT_ALLOWED);
  if (authorId === undefined || authorId === null) return current ?? viewer.id;
  const user = await ctx.prisma.user.findUnique({ where: { id: authorId }, select: { id: true } });
  if (!user) throw new ValidationError(`No user has the ID ${authorId}.`, 'author', 'UNKNOWN_USER');
  if (authorId !== viewer.id && authorId !== current && !canEditOthers(viewer)) {
    throw new ForbiddenError('Sorry, you are not allowed to assign records to other users.');
  }
  return authorId;
}
