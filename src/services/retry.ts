import { AsyncLocalStorage } from 'node:async_hooks';
import { db } from '../telemetry/metrics.ts';

/** Set while a whole write runs in its transaction, which is retried as one (change-log.ts). */
export const wholeWrite = new AsyncLocalStorage<true>();

/**
 * Prisma's P2034, or a raw statement (P2010) that PostgreSQL aborted as a deadlock (SQLSTATE 40P01)
 * or a serialization failure (40001): the row locks taken by `$executeRaw` report that way.
 */
function isWriteConflict(error: unknown): boolean {
  const e = error as { code?: string; message?: unknown };
  return e.code === 'P2034' || (e.code === 'P2010' && /Code: `40(?:P01|001)`/.test(String(e.message)));
}

/**
 * Runs a write again when PostgreSQL aborted it for a deadlock or a serialization failure (Prisma
 * P2034, or SQLSTATE 40P01/40001 from a raw statement). Writes that move term counts lock several
 * shared term rows (see the term-count migration), and PostgreSQL aborts one of two writers that
 * cross. The write is one statement with its nested writes, or one transaction, so running it again
 * is safe. Event writes and term deletions take their rows in one order first (src/services/events.ts,
 * terms.ts), so what is left to retry is rare.
 */
export function retryOnWriteConflict<T>(write: () => Promise<T>, attempts = 8): Promise<T> {
  // Inside a whole write's transaction (change-log.ts) the conflict has aborted that transaction:
  // running the statement again cannot succeed, the whole transaction is run again instead.
  if (wholeWrite.getStore()) return write();
  // Full jitter, doubling up to 640 ms: writers that crossed once do not meet again at once.
  return retryWhile('write_conflict', write, isWriteConflict, attempts, (attempt) => Math.random() * 10 * 2 ** Math.min(attempt, 6));
}

/**
 * Runs a write again from the start when a record it links was deleted by another writer between
 * the moment the write found it and the moment it inserted the link (Prisma P2003: a foreign key
 * refused): a term, venue or organizer named or created just before, or the author. The next run
 * resolves names and IDs afresh, so a name creates its term (or venue, organizer) again, as a write
 * arriving after the deletion would have, and an ID answers "not found" in the API's error shape,
 * not 500. For writes whose record and links go in one transaction: the refused one left nothing.
 * `links` matches the foreign keys (constraint names, as Prisma's message gives them) whose refusal
 * means that; any other error, and a refusal after the transaction (a later step), is thrown.
 */
export function retryOnVanishedLink<T>(write: () => Promise<T>, links: RegExp, attempts = 3): Promise<T> {
  const vanished = (error: unknown) => {
    const e = error as { code?: string; message?: unknown };
    return e.code === 'P2003' && links.test(String(e.message));
  };
  return retryWhile('vanished_link', write, vanished, attempts, () => 0);
}

/**
 * Runs a read again while it fails, to ride out a database that restarts or is briefly out of
 * reach: up to `attempts` runs, pausing 250 ms, 500 ms, 1 s, then 2 s between them (~6 s in all by
 * default). For reads whose failure would cost more than a late answer (a live subscription).
 */
export function retryRead<T>(read: () => Promise<T>, attempts = 6): Promise<T> {
  return retryWhile('read', read, () => true, attempts, (attempt) => 250 * 2 ** Math.min(attempt - 1, 3));
}

/** Runs `write` up to `attempts` times while it fails with an error `retryable` accepts, pausing `pauseMs(attempt)` between runs. */
async function retryWhile<T>(
  kind: 'write_conflict' | 'vanished_link' | 'read',
  write: () => Promise<T>, retryable: (error: unknown) => boolean, attempts: number, pauseMs: (attempt: number) => number): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await write();
    } catch (error) {
      if (!retryable(error) || attempt >= attempts) throw error;
      db.retries.inc({ kind });
      const ms = pauseMs(attempt);
      if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    }
  }
}
