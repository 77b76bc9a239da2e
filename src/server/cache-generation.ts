import { createRequire } from 'node:module';
import type * as Pg from 'pg';
import type { Logger } from 'pino';

/**
 * The response cache's generation shared by every process on one PostgreSQL database (the sequence
 * `cache_generation`): a write bumps it after its statements committed and before it is answered;
 * a cached read reads it first and serves only an entry stored under the same value. So a read that
 * arrives anywhere after an acknowledged write never gets a result computed before that write,
 * whatever the latency of the change bus. The embedded database has one process: no generation.
 */
export interface CacheGeneration {
  /** The current value, read by a query that starts after this call. */
  current(): Promise<string>;
  /** Moves the value on; resolves once the new value is visible to every process. */
  bump(): Promise<void>;
  close(): Promise<void>;
}

export function openCacheGeneration(databaseUrl: string | undefined, logger: Pick<Logger, 'warn'>): CacheGeneration | null {
  if (!databaseUrl || !/^postgres(ql)?:/i.test(databaseUrl.trim())) return null;
  const url = new URL(databaseUrl.trim());
  url.searchParams.delete('connection_limit');
  // Its own two connections: one read and one bump at a time (below), never queued behind a slow
  // request's statements in the main pool, never counted in a request's statement budget.
  // pg is required here, not imported by the module: a server on the embedded database never loads it.
  const pg = createRequire(import.meta.url)('pg') as typeof Pg;
  const pool = new pg.Pool({ connectionString: url.href, max: 2, connectionTimeoutMillis: 10_000 });
  pool.on('error', (err) => logger.warn({ err }, 'cache generation: idle connection lost'));
  return {
    // Before the first nextval() the sequence reports its start value with is_called false.
    current: coalesce(async () => {
      const { rows } = await pool.query<{ v: string }>('SELECT CASE WHEN is_called THEN last_value ELSE 0 END::text AS v FROM cache_generation');
      return rows[0]!.v;
    }),
    bump: coalesce(async () => {
      await pool.query('SELECT nextval(\'cache_generation\')');
    }),
    close: () => pool.end(),
  };
}

/**
 * Shares one run of `task` among concurrent callers, keeping what matters here: every caller gets a
 * run that started after it called. With a run in flight (it may have started earlier), callers
 * wait for the next one, which all of them share. So under load one query per round trip serves
 * every read, instead of one query per read.
 */
export function coalesce<T>(task: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let queued: Promise<T> | null = null;
  const start = (): Promise<T> => {
    const run: Promise<T> = task().finally(() => {
      if (running === run) running = null;
    });
    running = run;
    return run;
  };
  return () => {
    if (!running) return start();
    queued ??= running
      .catch(() => {})
      .then(() => {
        queued = null;
        return start();
      });
    return queued;
  };
}
