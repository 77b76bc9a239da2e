import { Prisma, type Taxonomy } from '../../prisma/generated/client/client.ts';
import type { PostKind } from '../db/tables.ts';
import type { DatabaseClient } from '../db/input-guard.ts';
import { inTransaction, isTransactionScoped, lockKeys, type TransactionClient } from '../db/transactions.ts';
import { MAX_SLUG_LENGTH, nextSlugCandidate, slugify } from '../domain/slug.ts';
import { retryOnWriteConflict, wholeWrite } from './retry.ts';

/** Every kind of record with a slug unique per kind. */
export type SlugKind = PostKind | Taxonomy;

const TABLE: Record<SlugKind, string> = { EVENT: '"Event"', VENUE: '"Venue"', ORGANIZER: '"Organizer"', CATEGORY: '"Category"', TAG: '"Tag"' };

/** Prisma's unique-constraint violation on a column named `slug`. */
export function isSlugConflict(error: unknown): boolean {
  const e = error as { code?: string; meta?: Record<string, unknown>; message?: string };
  if (e?.code !== 'P2002') return false;
  return JSON.stringify(e.meta ?? {}).includes('slug') || String(e.message).includes('slug');
}

/**
 * Takes the slug lock of each base (transaction-scoped advisory locks, `src/db/transactions.ts`):
 * every writer that allocates a slug from a base, or checks a name that slugifies to it, holds its
 * lock from the check to the commit.
 */
export function lockSlugBases(tx: TransactionClient, kind: SlugKind, bases: readonly string[]): Promise<void> {
  return lockKeys(
    tx,
    bases.map((base) => [`slug:${kind}`, base]),
  );
}

/**
 * The first free slug from `base` (`base`, `base-2`, … as `wp_unique_post_slug`), `exceptId`'s own
 * slug counting as free: one query for the slugs the candidates can be (`base` and `…-N`, the base
 * shortened when a long base is cut to fit the suffix).
 */
async function freeSlug(tx: TransactionClient, kind: SlugKind, base: string, exceptId: number | null): Promise<string> {
  const stem = base.slice(0, Math.min(base.length, MAX_SLUG_LENGTH - 20));
  const like = `${stem.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await tx.$queryRaw<{ slug: string }[]>`
    SELECT slug FROM ${Prisma.raw(TABLE[kind])}
    WHERE slug LIKE ${like} AND (slug = ${base} OR slug ~ '-[0-9]+$') AND id <> ${exceptId ?? 0}`;
  return nextSlugCandidate(base, rows.map((r) => r.slug));
}

/**
 * The slug a record gets from `base` (taken as it is) inside the caller's own transaction: takes the
 * base's slug lock, held until that transaction ends, and finds the first free variant. For writers
 * already in a transaction that must hold the write too (the import writes each record in one);
 * the others use `writeWithUniqueSlug`.
 */
export async function claimSlug(tx: TransactionClient, kind: SlugKind, base: string, exceptId: number | null): Promise<string> {
  await lockSlugBases(tx, kind, [base]);
  return freeSlug(tx, kind, base, exceptId);
}

export interface UniqueSlugOptions {
  /** The record being written, when it exists: its own slug is free to it. */
  exceptId?: number | null;
  /** More slug bases to lock in the same transaction (a term's name, which must be unique too). */
  alsoLock?: readonly string[];
}

/**
 * Writes a record under a slug unique per kind, suffixing `-2`, `-3`… on clashes, in one
 * transaction that holds the base's slug lock: concurrent writers wanting one base take turns, each
 * finding the next free suffix with one query, so a burst of one title costs what distinct titles
 * cost (no retry storm). `write` runs in that transaction and may check more under the
 * lock (a name rule) and throw. The unique index remains the last word: a clash with a writer under
 * another base (an explicit `jazz-2` beside generated ones) runs the transaction again, as does a
 * deadlock between term-count triggers (P2034).
 */
export async function writeWithUniqueSlug<T>(
  prisma: DatabaseClient,
  kind: SlugKind,
  wanted: string,
  write: (tx: TransactionClient, slug: string) => Promise<T>,
  opts: UniqueSlugOptions = {},
): Promise<T> {
  const base = slugify(wanted) || 'untitled';
  if (wholeWrite.getStore() && isTransactionScoped(prisma)) {
    // Inside a whole write's transaction (change-log.ts), whose client `prisma` is: joined without a
    // savepoint of its own (two statements less). A slug conflict aborts that transaction, and
    // `recordChanges` runs the whole write again, which finds the slug taken.
    await lockSlugBases(prisma, kind, [base, ...(opts.alsoLock ?? [])]);
    return write(prisma, await freeSlug(prisma, kind, base, opts.exceptId ?? null));
  }
  for (let attempt = 1; ; attempt++) {
    try {
      return await retryOnWriteConflict(() =>
        inTransaction(prisma, async (tx) => {
          await lockSlugBases(tx, kind, [base, ...(opts.alsoLock ?? [])]);
          return write(tx, await freeSlug(tx, kind, base, opts.exceptId ?? null));
        }),
      );
    } catch (error) {
      if (!isSlugConflict(error) || attempt >= 5) throw error;
    }
  }
}
