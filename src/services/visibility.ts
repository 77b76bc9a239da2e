import type { Prisma } from '../../prisma/generated/client/client.ts';
import type { Context } from './context.ts';
import {
  ALL_STATUSES,
  DEFAULT_EDITOR_LIST_STATUSES,
  canCreatePosts,
  canEdit,
  canEditOthers,
  canRead,
  type PostRecord,
  type Status,
} from '../domain/capabilities.ts';
import { ValidationError } from '../domain/errors.ts';
import { postPassOpens } from './post-pass.ts';

type PostWhere = { status?: unknown; authorId?: unknown; OR?: unknown; AND?: unknown };

/**
 * The status condition of a post list for this viewer (contract §3.1, REC): the requested statuses
 * (or the role's default set) narrowed to records the viewer could read singly, so `status` can
 * never widen what a role may see, in items and totals alike.
 */
export function listStatusWhere<W extends PostWhere>(ctx: Context, requested: readonly string[] | null | undefined): W {
  const viewer = ctx.viewer;
  let statuses: readonly Status[];
  if (requested && requested.length) {
    const unknown = requested.filter((s) => !ALL_STATUSES.includes(s as Status));
    if (unknown.length) throw new ValidationError(`Unknown status: ${unknown.join(', ')}`, 'status', 'UNKNOWN_STATUS');
    if (!canCreatePosts(viewer) && requested.some((s) => s !== 'publish')) {
      throw new ValidationError('You may only list published records.', 'status', 'STATUS_NOT_ALLOWED');
    }
    statuses = requested as Status[];
  } else {
    statuses = canCreatePosts(viewer) ? DEFAULT_EDITOR_LIST_STATUSES : ['publish'];
  }
  if (!viewer || canEditOthers(viewer) || statuses.every((s) => s === 'publish')) {
    return { status: { in: [...statuses] } } as W;
  }
  const nonPublic = statuses.filter((s) => s !== 'publish');
  const or: PostWhere[] = [{ status: { in: nonPublic }, authorId: viewer.id }];
  if (statuses.includes('publish')) or.push({ status: 'publish' });
  return { OR: or } as W;
}

/**
 * Records of any post kind this viewer may read singly (trash included for editors), as a Prisma
 * condition: used where records are loaded by global ID (`node(id:)`), so no side door bypasses
 * the single-read rule.
 */
export function readableWhere(ctx: Context): { status?: 'publish'; OR?: object[] } {
  const viewer = ctx.viewer;
  if (viewer && canEditOthers(viewer)) return {};
  if (viewer && canCreatePosts(viewer)) return { OR: [{ status: 'publish' }, { authorId: viewer.id }] };
  return { status: 'publish' };
}

/** Nested linked records (an event's venues, organizers) shown to this viewer. */
export function visibleLinkedWhere(ctx: Context): Prisma.VenueWhereInput {
  const viewer = ctx.viewer;
  if (!viewer || !canCreatePosts(viewer)) return { status: 'publish' };
  if (canEditOthers(viewer)) return { status: { not: 'trash' } };
  return { OR: [{ status: 'publish' }, { authorId: viewer.id, status: { not: 'trash' } }] };
}

/**
 * Access to a password-protected record, the one rule of the REST API, GraphQL and the pages: it
 * stays locked unless the request carries its password (REST `?password=`; on the pages WordPress's
 * post-password cookie, made from it), or asks for the edit context as a user who may edit it
 * (contract §3.2). A page's answer that asked depends on the cookie, and is marked so.
 */
export function isLocked(
  ctx: Context,
  record: { password: string; status: string; authorId: number | null; trashedFromStatus?: string | null },
): boolean {
  if (record.password === '') return false;
  if (ctx.postPass) ctx.postPass.decided = true;
  if (ctx.password === record.password) return false;
  if (ctx.postPass && postPassOpens(ctx.postPass, record.password)) return false;
  return !(ctx.editContext && canEdit(ctx.viewer, record as PostRecord));
}

/**
 * The password lock of content (contract §3.2, §4.7), for both APIs: a locked record's body and
 * excerpt read as empty. Every content field of events, venues and organizers resolves through it.
 */
export function lockedContent(
  ctx: Context,
  record: { password: string; status: string; authorId: number | null; trashedFromStatus?: string | null },
  text: string,
): string {
  return isLocked(ctx, record) ? '' : text;
}

export function viewerCanRead(ctx: Context, record: { status: string; authorId: number | null }) {
  return canRead(ctx.viewer, record as PostRecord);
}
