import type { Context } from './context.ts';
import { postTable, type PostKind } from '../db/tables.ts';
import { type TransactionClient } from '../db/transactions.ts';
import { ForbiddenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { normalizeSlugLookup, trashedSlug } from '../domain/slug.ts';
import { retryOnWriteConflict } from './retry.ts';
import { writeWithUniqueSlug } from './slugs.ts';
import { viewerCanRead } from './visibility.ts';

const label: Record<PostKind, string> = { EVENT: 'event', VENUE: 'venue', ORGANIZER: 'organizer' };

export interface PostAddress {
  id?: number | null;
  slug?: string | null;
}

interface PostRow {
  id: number;
  status: string;
  authorId: number | null;
  slug: string | null;
  trashedFromStatus: string | null;
}

function findBy(ctx: Context, kind: PostKind, where: { id: number } | { slug: string }): Promise<PostRow | null> {
  return postTable(ctx.prisma, kind).findUnique({ where, select: { id: true, status: true, authorId: true, slug: true, trashedFromStatus: true } });
}

/** The unique condition an address names (ID first, else the normalized slug); null when it names nothing. */
export function lookupWhere(address: PostAddress): { id: number } | { slug: string } | null {
  if (address.id !== undefined && address.id !== null) return { id: address.id };
  if (address.slug === undefined || address.slug === null) return null;
  const slug = normalizeSlugLookup(address.slug);
  return slug ? { slug } : null;
}

/**
 * Finds a post of one kind by ID or slug, distinguishing "no such record" (NotFoundError) from
 * "that ID is another kind of post" (ValidationError WRONG_KIND): IDs are shared across kinds.
 */
export async function locatePost(ctx: Context, kind: PostKind, address: PostAddress): Promise<PostRow> {
  const where = lookupWhere(address);
  const row = where ? await findBy(ctx, kind, where) : null;
  if (row) return row;
  if (address.id !== undefined && address.id !== null) {
    const other = await ctx.prisma.post.findUnique({ where: { id: address.id }, select: { type: true } });
    if (other) throw new ValidationError(`The ID ${address.id} is not a valid ${label[kind]}.`, 'id', 'WRONG_KIND');
    throw new NotFoundError(`No ${label[kind]} has the ID ${address.id}.`, 'NOT_FOUND', 'id');
  }
  if (address.slug !== undefined && address.slug !== null) {
    throw new NotFoundError(`No ${label[kind]} has the slug "${address.slug}".`, 'NOT_FOUND', 'slug');
  }
  throw new ValidationError('Give an ID or a slug.', 'id', 'REQUIRED');
}

/** A post the viewer may read (trashed records included for roles that may read them). */
export async function locateReadablePost(ctx: Context, kind: PostKind, address: PostAddress): Promise<PostRow> {
  const row = await locatePost(ctx, kind, address);
  if (!viewerCanRead(ctx, row) && kind === 'EVENT' && row.status === 'trash') {
    throw new ForbiddenError('This event is no longer available', 'NO_LONGER_AVAILABLE');
  }
  if (!viewerCanRead(ctx, row)) {
    throw new ForbiddenError(`The requested ${label[kind]} is not accessible`, 'NOT_ACCESSIBLE');
  }
  return row;
}

/** What the read check needs of a post, on top of whatever the caller selects. */
const ACCESS_FIELDS = { id: true, status: true, authorId: true, trashedFromStatus: true } as const;

/** A Prisma read shape as Pothos hands it to a resolver: `{}`, `{ select }` or `{ include }`. */
export type PostQuery = { select?: object | null; include?: object | null };

/**
 * `query` widened by the fields the read check needs. Only a `select` lists scalars; without one
 * (`{}` or `{ include }`) every scalar is loaded already.
 */
export function withAccessFields<Q extends PostQuery>(query: Q): Q {
  return withScalars(query, ACCESS_FIELDS);
}

/** `query` with `fields` surely loaded: added to a `select`; `{}` and `{ include }` load every scalar already. */
export function withScalars<Q extends PostQuery>(query: Q, fields: Record<string, true>): Q {
  return query.select ? { ...query, select: { ...query.select, ...fields } } : query;
}

/**
 * A post the viewer may read, loaded with the caller's read shape (the Pothos `query` of a single
 * read) in one statement: `find` runs `query` plus the access fields under the address's unique
 * condition (`lookupWhere`, as `locatePost` looks up), and the row is judged like
 * `locateReadablePost` judges it. Only when that finds nothing readable does the read go the long
 * way, through `locateReadablePost`, so every error (not found, wrong kind, no longer available,
 * not accessible) and its precedence stay exactly as they are.
 */
export async function loadReadablePost<Q extends PostQuery, T extends object>(
  ctx: Context,
  kind: PostKind,
  address: PostAddress,
  query: Q,
  find: (args: Q & { where: { id: number } | { slug: string } }) => Promise<T | null>,
): Promise<T> {
  const load = (where: { id: number } | { slug: string }) => find({ ...withAccessFields(query), where });
  const where = lookupWhere(address);
  const row = where ? await load(where) : null;
  const access = row && accessFieldsOf(row);
  if (row && access && viewerCanRead(ctx, access)) return row;
  // Missing or unreadable: raise the exact error, or (changed in between) load what is readable now.
  const readable = await locateReadablePost(ctx, kind, address);
  const reloaded = await load({ id: readable.id });
  if (!reloaded) throw new NotFoundError(`No ${label[kind]} has the ID ${readable.id}.`, 'NOT_FOUND', 'id');
  return reloaded;
}

/** The read check's fields of a row loaded `withAccessFields`, or null when they are not there (then the long way decides). */
function accessFieldsOf(row: object): Pick<PostRow, 'status' | 'authorId'> | null {
  if (!('status' in row) || typeof row.status !== 'string') return null;
  return { status: row.status, authorId: 'authorId' in row && typeof row.authorId === 'number' ? row.authorId : null };
}

/** What moving a post to the trash writes (contract §7.9): status, the status to restore, `__trashed` slug. */
function trashedData(row: PostRow, now: { utc: Date; local: Date }, slug: string | null) {
  return { status: 'trash' as const, trashedFromStatus: row.status as 'publish', slug, modifiedUtc: now.utc, modifiedLocal: now.local };
}

/**
 * Moves a post to the trash through `write` (in one transaction). Its slug becomes `slug__trashed`
 * (wp_add_trashed_suffix_to_post_name_for_post), allocated under the slug lock like any other: when
 * a record trashed earlier holds it, `slug__trashed-2` and so on (wp_unique_post_slug), never a
 * unique-index violation.
 */
export async function writeTrashed(
  ctx: Context,
  kind: PostKind,
  row: PostRow,
  now: { utc: Date; local: Date },
  write: (db: TransactionClient, data: ReturnType<typeof trashedData>) => Promise<unknown>,
): Promise<void> {
  if (!row.slug) {
    await retryOnWriteConflict(() => write(ctx.prisma, trashedData(row, now, null)));
    return;
  }
  await writeWithUniqueSlug(ctx.prisma, kind, trashedSlug(row.slug), (tx, slug) => write(tx, trashedData(row, now, slug)), { exceptId: row.id });
}

/**
 * Creates a post of one kind under a freshly allocated ID of the shared post space, in the caller's
 * transaction (`writeWithUniqueSlug`'s, or `inTransaction`): the ID row and the record are written
 * together, so a failed insert, or a process killed between the two statements,
 * leaves no orphan `Post` row. A retry (slug clash, write conflict) runs the whole transaction again.
 */
export async function insertPost<T>(tx: TransactionClient, type: PostKind, insert: (id: number) => Promise<T>): Promise<T> {
  const { id } = await tx.post.create({ data: { type }, select: { id: true } });
  return insert(id);
}
