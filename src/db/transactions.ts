import type { ITXClientDenyList } from '@prisma/client/runtime/client';
import type { DatabaseClient } from './input-guard.ts';

/** The client the statements of one transaction run on: the service's client without its connection lifecycle. */
export type TransactionClient = Omit<DatabaseClient, ITXClientDenyList>;

/**
 * `tx` where a whole client is expected (a Context's `prisma`, for services that open nested
 * transactions of their own): every call goes to the transaction, apart from the connection
 * lifecycle (`$connect`, `$disconnect`, `$on`, `$extends`) a transaction client lacks, which stays
 * with `root`.
 */
export function transactionScoped(root: DatabaseClient, tx: TransactionClient): DatabaseClient {
  const scoped = new Proxy(root, { get: (target, key) => (key in tx ? Reflect.get(tx, key) : Reflect.get(target, key)) });
  scopedClients.add(scoped);
  return scoped;
}

const scopedClients = new WeakSet<object>();

/** Whether `prisma` is a transaction's (`transactionScoped`): its statements run in that transaction. */
export function isTransactionScoped(prisma: DatabaseClient): boolean {
  return scopedClients.has(prisma);
}

/**
 * Runs `fn` in one interactive transaction. On a client that is already a transaction (the import
 * writes each record in one) it nests (a savepoint), so its locks last until the outer commit.
 * Waiting for a pooled connection, or PGlite's single one, under load is not an error.
 */
export function inTransaction<T>(prisma: DatabaseClient, fn: (tx: TransactionClient) => Promise<T>): Promise<T> {
  return prisma.$transaction(fn, { maxWait: 30_000, timeout: 60_000 });
}

/**
 * Transaction-scoped advisory locks (`pg_advisory_xact_lock`) on named keys: held until the
 * transaction ends, across every connection and process on the database, so writers that check and
 * then insert under the same key take turns. A key is `[space, name]` (hashed by `hashtext` into
 * the two-integer key form, apart from the migrations' one-integer lock); a hash collision only
 * makes two writers wait for each other. Several keys are taken in one fixed order, so two
 * transactions taking overlapping sets never deadlock.
 */
export async function lockKeys(tx: TransactionClient, keys: readonly (readonly [space: string, name: string])[]): Promise<void> {
  const ordered = [...new Map(keys.map(([space, name]) => [`${space}\u0000${name}`, [space, name] as const])).entries()].sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  );
  for (const [, [space, name]] of ordered) {
    await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${space}), hashtext(${name}))`;
  }
}
