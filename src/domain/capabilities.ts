/**
 * WordPress roles and what they may do with events, venues, organizers and terms
 * (contract §3.1, with the REC per-object rules). Pure functions: the services call them with the
 * record's author and status.
 */
export type Role = 'ADMINISTRATOR' | 'EDITOR' | 'AUTHOR' | 'CONTRIBUTOR' | 'SUBSCRIBER';
export type Status = 'publish' | 'future' | 'draft' | 'pending' | 'private' | 'trash';
export interface Actor {
  id: number;
  role: Role;
}

export const ALL_STATUSES: readonly Status[] = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];
/** Statuses listed by default for callers who may edit (everything but trash). */
export const DEFAULT_EDITOR_LIST_STATUSES: readonly Status[] = ['publish', 'future', 'draft', 'pending', 'private'];

const rank: Record<Role, number> = { SUBSCRIBER: 0, CONTRIBUTOR: 1, AUTHOR: 2, EDITOR: 3, ADMINISTRATOR: 4 };
const atLeast = (actor: Actor | null, role: Role) => actor !== null && rank[actor.role] >= rank[role];

export const canCreatePosts = (a: Actor | null) => atLeast(a, 'CONTRIBUTOR');
export const canPublish = (a: Actor | null) => atLeast(a, 'AUTHOR');
export const canEditOthers = (a: Actor | null) => atLeast(a, 'EDITOR');
export const canUploadFiles = (a: Actor | null) => atLeast(a, 'AUTHOR');
export const canManageCategories = (a: Actor | null) => atLeast(a, 'AUTHOR');
export const canManageTags = (a: Actor | null) => atLeast(a, 'EDITOR');
export const canManageUsers = (a: Actor | null) => atLeast(a, 'ADMINISTRATOR');
/** `unfiltered_html`: on a single site, administrators and editors; others' HTML is filtered on save (domain/kses.ts). */
export const canPostUnfilteredHtml = (a: Actor | null) => atLeast(a, 'EDITOR');

const isOwn = (a: Actor | null, authorId: number | null) => a !== null && authorId !== null && a.id === authorId;
const isPublic = (s: Status) => s === 'publish';

/**
 * A post as the rules see it. `trashedFromStatus` (the status before trashing) decides the rights on
 * a trashed record, as WordPress's `_wp_trash_meta_status` does: a trashed published record still
 * needs the "edit published" right, so trashing cannot launder a record back to its author.
 */
export interface PostRecord {
  status: Status;
  authorId: number | null;
  trashedFromStatus?: Status | null;
}

/** May the actor read this record singly? (`future` is public per the contract's list defaults only for editors.) */
export function canRead(a: Actor | null, record: PostRecord): boolean {
  if (isPublic(record.status)) return true;
  if (a === null) return false;
  if (canEditOthers(a)) return true;
  return canCreatePosts(a) && isOwn(a, record.authorId);
}

/**
 * May the actor update (or trash, restore, purge) this record? Editors and up: any record. Others:
 * only their own, and published/scheduled/private ones only when they may publish (contract §3.1).
 */
export function canEdit(a: Actor | null, record: PostRecord): boolean {
  if (!canCreatePosts(a)) return false;
  if (canEditOthers(a)) return true;
  if (!isOwn(a, record.authorId)) return false;
  const status = record.status === 'trash' && record.trashedFromStatus ? record.trashedFromStatus : record.status;
  if (status === 'publish' || status === 'future' || status === 'private') return canPublish(a);
  return true;
}

/**
 * The status a write ends up with (contract §3.1 "Status forcing"): publishers get what they ask
 * for (publish by default); others get pending for publish/future/private, draft when none given.
 */
export function forcedStatus(a: Actor | null, requested: Status | undefined, onCreate: boolean): Status | undefined {
  if (canPublish(a)) return requested ?? (onCreate ? 'publish' : undefined);
  if (requested === undefined) return onCreate ? 'draft' : undefined;
  if (requested === 'publish' || requested === 'future' || requested === 'private') return 'pending';
  return requested;
}
