import { createRequire } from 'node:module';
import type * as Pg from 'pg';
import type { DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Logger } from 'pino';
import type { ChangeBus } from '../../services/changes.ts';

/**
 * The freshness of what the origin cache keeps: a value that every committed write, from any
 * process, moves on before it is answered. An entry is stored under the value read before its
 * answer was computed and served only while the value is the same, so a read that arrives anywhere
 * after an acknowledged write never gets an answer computed before that write.
 *
 * The value is this process's generation (moved by every change on the change bus, synchronously
 * when this process publishes one) and, on PostgreSQL, the database's (the sequence
 * `cache_generation`, shared by every process on it): every mutation, through either API, takes
 * `nextval` after its statements have committed and before it is answered. Concurrent reads of it
 * share one query that starts after each of them asked (`coalesce`). The byte cache reads it once
 * per request. On the embedded database (one process) there is no shared generation and no query.
 */
export class Freshness {
  private local = 0;
  private readonly listeners: (() => void)[] = [];

  constructor(
    private readonly shared: SharedGeneration | null,
    private readonly onError: (err: unknown) => void = () => {},
  ) {}

  /** The current value; null when the shared generation cannot be read (then nothing is stored or served). */
  read(): string | Promise<string | null> {
    const local = String(this.local);
    if (!this.shared) return local;
    return this.shared.current().then(
      (shared) => `${local}:${shared}`,
      (err: unknown) => {
        this.onError(err);
        return null;
      },
    );
  }

  /** Moves this process's generation on (entries stored before are never served again). */
  clear(): void {
    this.local++;
    for (const listener of this.listeners) listener();
  }

  /** Called on every clearing (the byte cache drops its entries then). */
  onClear(listener: () => void): void {
    this.listeners.push(listener);
  }

  /**
   * A write was committed: moves both generations on. Also for writes outside any mutation
   * (the recurrence horizon top-up). A failed bump cannot undo a committed write: it is reported,
   * and the bus still carries the change.
   */
  written(): Promise<void> {
    this.clear();
    return this.shared ? this.shared.bump().catch((err: unknown) => this.onError(err)) : Promise.resolve();
  }

  /** Follows the change bus: this process's writes when they publish, every process's changes when they arrive. */
  follow(bus: ChangeBus): void {
    bus.onPublish(() => void this.written());
    bus.onChange(() => this.clear());
  }

  /** A mutation (either API: REST runs through the same chain) is answered only once the generations have moved on. */
  plugin(): Plugin {
    return {
      onExecute: ({ args }) => (operationOf(args.document, args.operationName) === 'mutation' ? { onExecuteDone: () => this.written() } : undefined),
    };
  }
}

function operationOf(document: DocumentNode, operationName: string | null | undefined): string | undefined {
  const ops = document.definitions.filter((d) => d.kind === 'OperationDefinition');
  const op = operationName ? ops.find((d) => d.name?.value === operationName) : ops.length === 1 ? ops[0] : undefined;
  return op?.operation;
}

/**
 * The generation shared by every process on one PostgreSQL database (the sequence
 * `cache_generation`). Redis is not used for it: a counter lost with a Redis restart could repeat
 * a value an old entry was stored under, while the sequence never goes back.
 */
export interface SharedGeneration {
  /** The current value, read by a query that starts after this call. */
  current(): Promise<string>;
  /** Moves the value on; resolves once the new value is visible to every process. */
  bump(): Promise<void>;
  close(): Promise<void>;
}

export function openSharedGeneration(databaseUrl: string | undefined, logger: Pick<Logger, 'warn'>): SharedGeneration | null {
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
