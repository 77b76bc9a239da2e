import { createHash } from 'node:crypto';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import {
  DriverAdapterError,
  type SqlDriverAdapter,
  type SqlMigrationAwareDriverAdapterFactory,
  type SqlQuery,
  type Transaction,
} from '@prisma/driver-adapter-utils';
import type * as pg from 'pg';
import { PrismaClient } from '../../prisma/generated/client/client.ts';
import { guardInput, type DatabaseClient } from './input-guard.ts';
import { chargeStatement } from './request-budget.ts';
import { db as dbMetrics, sampleOnScrape } from '../telemetry/metrics.ts';
import { emptyDatabaseImage } from './empty-database.ts';

export type DatabaseKind = 'pglite-memory' | 'pglite-dir' | 'postgres';

export interface Database {
  prisma: DatabaseClient;
  kind: DatabaseKind;
  /** The factory behind `prisma`; the schema engine connects through it too. */
  adapterFactory: SqlMigrationAwareDriverAdapterFactory;
  /** The embedded instance (PGlite kinds only), e.g. for `dumpDataDir()`. */
  pglite?: PGlite;
  ping(): Promise<void>;
  /**
   * Runs `fn` on one dedicated session (PGlite: the instance; PostgreSQL: a new connection, closed
   * afterwards), outside Prisma: for maintenance such as recovering a failed migration.
   */
  session<T>(fn: (session: DatabaseSession) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** A raw session: `query` runs one statement (with parameters), `exec` a script of several. */
export interface DatabaseSession {
  query<R extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<{ rows: R[] }>;
  exec(script: string): Promise<unknown>;
}

export interface OpenDatabaseOptions {
  /** Where the embedded database lives when no URL is given. Default `./data`. */
  dataDir?: string;
  log?: (msg: string) => void;
  /**
   * Called with every SQL statement sent to the database, inside transactions too. Transaction
   * control (BEGIN, COMMIT, ROLLBACK, savepoints) is not reported: PGlite issues it outside the
   * adapter while adapter-pg sends some of it through, so reporting it would differ per backend.
   * Migration scripts are reported once per script. `args` are the statement's parameters (the
   * recurrence bench replays list statements under EXPLAIN with them).
   */
  onQuery?: (sql: string, args?: readonly unknown[]) => void;
  /** `memory:` only: start from this dump of a data directory (`PGlite.dumpDataDir()`). */
  loadDataDir?: Blob;
  /**
   * PostgreSQL only: `statement_timeout` of every pooled connection, in ms (0 or absent: none).
   * Migration scripts lift it for their own transaction (`SET LOCAL`).
   */
  statementTimeoutMs?: number;
}

/** A bad DATABASE_URL or an unreachable database; the message is one line meant for the operator. */
export class DatabaseConfigError extends Error {
  override name = 'DatabaseConfigError';
}

/**
 * PGlite keeps PostgreSQL's shared memory in its WebAssembly heap, which never shrinks: the default
 * 128 MB of `shared_buffers` alone costs that much RSS. One session needs far less; the operating
 * system's page cache still holds the data files. `pg_trgm` backs the search indexes.
 */
const PGLITE_CONF = ['shared_buffers=16MB', 'maintenance_work_mem=16MB'];

/**
 * PGlite and its Prisma adapter are loaded only when an embedded database is opened: a server on
 * PostgreSQL never needs them (they cost it start time and memory).
 */
async function loadPGlite() {
  const wasm = compilePGliteWasm();
  const [{ PGlite }, { pg_trgm }, { PrismaPGlite }, pgliteWasmModule] = await Promise.all([
    import('@electric-sql/pglite'),
    import('@electric-sql/pglite/contrib/pg_trgm'),
    import('pglite-prisma-adapter'),
    wasm,
  ]);
  const options = { postgresqlconf: PGLITE_CONF, extensions: { pg_trgm }, ...(pgliteWasmModule ? { pgliteWasmModule } : {}) };
  const connect = (pglite: PGlite): Promise<SqlDriverAdapter> => new PrismaPGlite(pglite).connect();
  return { PGlite, options, connect };
}

/**
 * PGlite's PostgreSQL (9 MB of WebAssembly), compiled from the moment an embedded database is
 * asked for: V8 compiles it on background threads while this thread loads and builds the rest of
 * the server. PGlite itself would read the file only once its modules are loaded and its file-system
 * bundle read. Undefined (PGlite then loads it itself) when the file is not where 0.5 keeps it.
 */
function compilePGliteWasm(): Promise<WebAssembly.Module | undefined> {
  let bytes: Uint8Array<ArrayBuffer>; // readFileSync's buffer is never a shared one
  try {
    bytes = readFileSync(path.join(path.dirname(createRequire(import.meta.url).resolve('@electric-sql/pglite')), 'pglite.wasm')) as Uint8Array<ArrayBuffer>;
  } catch {
    return Promise.resolve(undefined);
  }
  return WebAssembly.compile(bytes);
}

/**
 * pg and Prisma's adapter for it are loaded only when PostgreSQL is opened: an embedded database
 * never needs them (~50 ms of CPU of its start).
 */
async function loadPostgresDriver() {
  const [{ default: driver }, { PrismaPg }] = await Promise.all([import('pg'), import('@prisma/adapter-pg')]);
  return { driver, PrismaPg };
}

const DEFAULT_POOL_SIZE = 10;
const CONNECT_TIMEOUT_MS = 10_000;

export async function openDatabase(url: string | undefined, opts: OpenDatabaseOptions = {}): Promise<Database> {
  const log = opts.log ?? (() => {});
  const value = url?.trim() ?? '';
  if (value === '') return openPGlite('pglite-dir', path.resolve(opts.dataDir ?? './data'), opts, log);
  if (value === 'memory:' || value === 'memory://') return openPGlite('pglite-memory', undefined, opts, log);
  const scheme = /^[a-z][a-z0-9+.-]*:/i.exec(value)?.[0];
  if (scheme === 'postgres:' || scheme === 'postgresql:') return openPostgres(value, opts, log);
  throw new DatabaseConfigError(
    scheme
      ? `DATABASE_URL: unsupported scheme "${scheme}"; use postgres://…, memory: or leave it unset`
      : 'DATABASE_URL: not a URL; use postgres://…, memory: or leave it unset',
  );
}

async function openPGlite(
  kind: 'pglite-memory' | 'pglite-dir',
  dir: string | undefined,
  opts: OpenDatabaseOptions,
  log: (msg: string) => void,
): Promise<Database> {
  let unlock = () => {};
  let pglite: PGlite;
  const { PGlite, options, connect: connectPGlite } = await loadPGlite();
  try {
    if (dir) {
      mkdirSync(dir, { recursive: true });
      unlock = lockDataDir(dir);
      discardUnfinishedCreation(dir, log);
    }
    // A new database starts from the build's prebuilt, migrated image when there is one.
    const fresh = !dir || !existsSync(path.join(dir, 'PG_VERSION'));
    const loadDataDir = opts.loadDataDir ?? (fresh ? emptyDatabaseImage() : undefined);
    const creating = dir && fresh ? path.join(dir, CREATING_MARKER) : undefined;
    if (creating) {
      log(`database: creating the embedded database at ${dir}`);
      writeDurably(creating, String(process.pid));
    }
    pglite = await PGlite.create(dir ?? 'memory://', { ...options, ...(loadDataDir ? { loadDataDir } : {}) });
    if (creating) {
      // Everything initdb (or the image) wrote is on disk; from here on PostgreSQL's own crash
      // recovery (the WAL) covers a kill, migrations included (each is one transaction).
      await pglite.exec('CHECKPOINT');
      rmSync(creating);
      // Unpacking the image grows PGlite's WebAssembly memory (~100 MB more than a start on the
      // same directory ever uses), and a WebAssembly memory never shrinks: a new instance on the
      // directory just written holds what later starts hold (idle RSS 380 → ~270 MB, for ~1 s of
      // CPU on this first start only).
      await pglite.close();
      pglite = await PGlite.create(dir, options);
    }
  } catch (e) {
    unlock();
    if (e instanceof DatabaseConfigError) throw e;
    throw new DatabaseConfigError(`cannot open the embedded database${dir ? ` at ${dir}` : ''}: ${firstLine(e)}`);
  }
  log(dir ? `database: embedded PGlite at ${dir}` : 'database: embedded PGlite in memory');

  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: 'postgres',
    adapterName: 'pglite-prisma-adapter',
    connect: async () => wrapAdapter(await connectPGlite(pglite), opts.onQuery, (script) => pglite.exec(script)),
    // The adapter's own shadow database is never closed; this one is, when the engine disposes it.
    connectToShadowDb: async () => {
      const shadow = await PGlite.create(options);
      const adapter = wrapAdapter(await connectPGlite(shadow), undefined, (script) => shadow.exec(script));
      return { ...adapter, dispose: () => shadow.close() };
    },
  };
  const prisma = guardInput(new PrismaClient({ adapter: factory }));
  return {
    prisma,
    kind,
    adapterFactory: factory,
    pglite,
    ping: async () => {
      await prisma.$queryRaw`SELECT 1`;
    },
    session: (fn) => fn({ query: (sql, params) => pglite.query(sql, params), exec: (script) => pglite.exec(script) }),
    close: async () => {
      await prisma.$disconnect();
      await pglite.close();
      unlock();
    },
  };
}

async function openPostgres(url: string, opts: OpenDatabaseOptions, log: (msg: string) => void): Promise<Database> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new DatabaseConfigError('DATABASE_URL: not a valid postgres:// URL');
  }
  const limit = parsed.searchParams.get('connection_limit');
  parsed.searchParams.delete('connection_limit');
  const max = limit === null ? DEFAULT_POOL_SIZE : Number(limit);
  if (!Number.isInteger(max) || max < 1) {
    throw new DatabaseConfigError(`DATABASE_URL: connection_limit must be a positive integer, got "${limit}"`);
  }
  const config: pg.PoolConfig = {
    connectionString: parsed.href,
    max,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // Sent as a startup parameter: PostgreSQL cancels any statement running longer (SQLSTATE 57014).
    ...(opts.statementTimeoutMs ? { statement_timeout: opts.statementTimeoutMs } : {}),
  };
  const { driver, PrismaPg } = await loadPostgresDriver();
  await checkConnection(driver, config, parsed);
  log(`database: PostgreSQL at ${describe(parsed)} (pool of ${max})`);

  const factory: SqlMigrationAwareDriverAdapterFactory = {
    provider: 'postgres',
    adapterName: '@prisma/adapter-pg',
    // A pool per connect() (the client's, each schema engine's), ended when its adapter is disposed.
    connect: async () => {
      const pool = reportCharAsText(new driver.Pool(config));
      // The pool's saturation, read when scraped; no longer once the adapter is disposed.
      const unsample = sampleOnScrape(() => {
        dbMetrics.poolInUse.inc(pool.totalCount - pool.idleCount);
        dbMetrics.poolWaiting.inc(pool.waitingCount);
        dbMetrics.poolSize.inc(pool.totalCount);
      });
      const adapter = await new PrismaPg(pool, { disposeExternalPool: true, statementNameGenerator: statementNames() }).connect();
      // adapter-pg splits scripts on every ";" (breaking literals that contain one) and runs the
      // parts one by one; one simple-protocol query keeps a migration atomic, as `prisma migrate` does.
      // A migration may legitimately run longer than a request's statement timeout.
      const wrapped = wrapAdapter(adapter, opts.onQuery, (script) => pool.query(opts.statementTimeoutMs ? `SET LOCAL statement_timeout = 0;\n${script}` : script));
      return { ...wrapped, dispose: () => (unsample(), wrapped.dispose()) };
    },
    connectToShadowDb: () => new PrismaPg(config).connectToShadowDb(),
  };
  const prisma = guardInput(new PrismaClient({ adapter: factory }));
  return {
    prisma,
    kind: 'postgres',
    adapterFactory: factory,
    ping: async () => {
      await prisma.$queryRaw`SELECT 1`;
    },
    session: async (fn) => {
      const client = new driver.Client(config);
      await client.connect();
      try {
        return await fn({ query: (sql, params) => client.query(sql, params), exec: (script) => client.query(script) });
      } finally {
        await client.end();
      }
    },
    close: () => prisma.$disconnect(),
  };
}

/**
 * Names for server-side prepared statements, so that PostgreSQL parses and plans each distinct SQL
 * text once per connection instead of on every query (Prisma sends the same texts over and over:
 * a list page's relation-join query takes longer to plan than to run). The name is derived from
 * the text, so a name never stands for two texts. pg keeps prepared statements per connection
 * until it closes and cannot evict them: past MAX_NAMED_STATEMENTS distinct texts (e.g. long and
 * varied `IN` lists), further texts run unnamed as before, which bounds the memory on both sides.
 */
const MAX_NAMED_STATEMENTS = 1000;
/**
 * Statements whose best plan depends on their values stay unnamed, planned for the values at hand:
 * after five runs of a named statement PostgreSQL may settle on a generic plan, blind to the values,
 * and for these it can be far worse (100k events: the non-empty categories 124 ms generic against
 * 0.4 ms planned for `publish`; a filtered list's count 54 ms against 5.6 ms). A count, a filter
 * through another table (EXISTS) or a text match (ILIKE) reads as many rows as its values select;
 * a page found by key, or by an index order with a limit, has one good plan for any values.
 */
const VALUE_DEPENDENT = /\b(COUNT|EXISTS)\s*\(|\bI?LIKE\b/i;
function statementNames(): (query: SqlQuery) => string {
  const names = new Map<string, string>();
  return (query) => {
    let name = names.get(query.sql);
    if (name === undefined && names.size < MAX_NAMED_STATEMENTS && !VALUE_DEPENDENT.test(query.sql)) {
      name = `cal_${createHash('sha256').update(query.sql).digest('base64url').slice(0, 24)}`;
      names.set(query.sql, name);
    }
    return name as string; // undefined: unnamed (adapter-pg passes the value to pg as is)
  };
}

/**
 * adapter-pg 7.10 rejects result columns of PostgreSQL's one-byte "char" type (oid 18), which the
 * schema engine reads from pg_catalog when it describes a database (diff). Its values arrive as
 * strings, so the pool reports them as text.
 */
function reportCharAsText(pool: pg.Pool): pg.Pool {
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<pg.QueryResult | pg.QueryResult[]>;
  pool.query = (async (...args: unknown[]) => {
    const result = await query(...args);
    for (const r of [result].flat()) {
      for (const field of r?.fields ?? []) if (field.dataTypeID === 18) field.dataTypeID = 25;
    }
    return result;
  }) as pg.Pool['query'];
  return pool;
}

async function checkConnection(driver: Pick<typeof pg, 'Client'>, config: pg.ClientConfig, url: URL): Promise<void> {
  const client = new driver.Client(config);
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { address?: string; port?: number };
    const where = err.address ? `${err.address}:${err.port}` : describe(url);
    const reason =
      err.code === 'ECONNREFUSED'
        ? 'connection refused'
        : err.code === 'ENOTFOUND' || err.code === 'EAI_AGAIN'
          ? 'host not found'
          : err.code === 'ETIMEDOUT' || /timeout/i.test(err.message)
            ? 'timed out'
            : firstLine(e);
    throw new DatabaseConfigError(`cannot connect to PostgreSQL at ${where}: ${reason}`);
  } finally {
    await client.end().catch(() => {});
  }
}

const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|START TRANSACTION|-- Implicit)\b/i;

/**
 * Reports statements to `onQuery` and replaces `executeScript`; pglite-prisma-adapter's does not
 * await the script, so a failing migration would be recorded as applied.
 */
function wrapAdapter(
  adapter: SqlDriverAdapter,
  onQuery: ((sql: string, args?: readonly unknown[]) => void) | undefined,
  runScript: (script: string) => Promise<unknown>,
): SqlDriverAdapter {
  const seen = (sql: string, args?: readonly unknown[]) => {
    if (TRANSACTION_CONTROL.test(sql)) return;
    chargeStatement();
    onQuery?.(sql, args);
  };
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    queryRaw: (q: SqlQuery) => (seen(q.sql, q.args), timed(adapter.queryRaw(q))),
    executeRaw: (q: SqlQuery) => (seen(q.sql, q.args), timed(adapter.executeRaw(q))),
    executeScript: async (script) => {
      seen(script);
      try {
        await runScript(script);
      } catch (e) {
        throw toDriverAdapterError(e);
      }
    },
    startTransaction: async (isolationLevel) => wrapTransaction(await adapter.startTransaction(isolationLevel), seen),
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: () => adapter.dispose(),
  };
}

/** The statement's duration, into the statement histogram (src/telemetry/metrics.ts). */
function timed<T>(running: Promise<T>): Promise<T> {
  const started = performance.now();
  const done = () => dbMetrics.statement.observe((performance.now() - started) / 1000);
  void running.then(done, done);
  return running;
}

function wrapTransaction(tx: Transaction, seen: (sql: string, args?: readonly unknown[]) => void): Transaction {
  // pglite-prisma-adapter has no savepoints, so Prisma refused a transaction nested in another (a
  // write's own, inside the transaction that holds it with its change-log rows): plain SQL does
  // them. Prisma names the savepoints itself (identifiers, never input).
  const control = (sql: string) => tx.executeRaw({ sql, args: [], argTypes: [] }).then(() => undefined);
  return {
    provider: tx.provider,
    adapterName: tx.adapterName,
    options: tx.options,
    queryRaw: (q) => (seen(q.sql, q.args), timed(tx.queryRaw(q))),
    executeRaw: (q) => (seen(q.sql, q.args), timed(tx.executeRaw(q))),
    commit: () => tx.commit(),
    rollback: () => tx.rollback(),
    createSavepoint: tx.createSavepoint?.bind(tx) ?? ((name) => control(`SAVEPOINT ${name}`)),
    rollbackToSavepoint: tx.rollbackToSavepoint?.bind(tx) ?? ((name) => control(`ROLLBACK TO SAVEPOINT ${name}`)),
    releaseSavepoint: tx.releaseSavepoint?.bind(tx) ?? ((name) => control(`RELEASE SAVEPOINT ${name}`)),
  };
}

/** Lets the schema engine report a failing migration statement with PostgreSQL's own message. */
function toDriverAdapterError(e: unknown): unknown {
  const err = e as { code?: unknown; severity?: unknown; message?: unknown; detail?: string; column?: string; hint?: string };
  if (typeof err?.code !== 'string' || typeof err.message !== 'string') return e;
  return new DriverAdapterError({
    kind: 'postgres',
    code: err.code,
    severity: typeof err.severity === 'string' ? err.severity : 'ERROR',
    message: err.message,
    detail: err.detail,
    column: err.column,
    hint: err.hint,
    originalCode: err.code,
    originalMessage: err.message,
  });
}

const openDirs = new Set<string>();

/** PGlite does not stop two processes from opening one data directory, which corrupts it. */
/**
 * Present in a data directory while its database is being created (initdb, or the empty-database
 * image unpacked): a process killed then leaves it behind, with a partial PostgreSQL directory that
 * could not start (or would start without its catalogs). Such a directory holds no data yet, so
 * the next start empties it and creates the database again.
 */
const CREATING_MARKER = 'cal-events.creating';

function discardUnfinishedCreation(dir: string, log: (msg: string) => void): void {
  if (!existsSync(path.join(dir, CREATING_MARKER))) return;
  log(`database: the embedded database at ${dir} was interrupted while being created; creating it again`);
  for (const name of readdirSync(dir)) {
    if (name !== 'cal-events.lock' && name !== CREATING_MARKER) rmSync(path.join(dir, name), { recursive: true, force: true });
  }
}

/** Writes a small file and flushes it (and its directory entry) to disk before returning. */
function writeDurably(file: string, content: string): void {
  const fd = openSync(file, 'w');
  try {
    writeFileSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  const dirFd = openSync(path.dirname(file), 'r');
  try {
    fsyncSync(dirFd);
  } finally {
    closeSync(dirFd);
  }
}

function lockDataDir(dir: string): () => void {
  if (openDirs.has(dir)) throw new DatabaseConfigError(`the embedded database at ${dir} is already open in this process`);
  const file = path.join(dir, 'cal-events.lock');
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx' });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const pid = Number(readFileSync(file, 'utf8'));
    if (pid && pid !== process.pid && isAlive(pid)) {
      throw new DatabaseConfigError(
        `the embedded database at ${dir} is in use by process ${pid}; stop it first (or delete ${file} if that process is not ours)`,
      );
    }
    writeFileSync(file, String(process.pid));
  }
  openDirs.add(dir);
  return () => {
    openDirs.delete(dir);
    rmSync(file, { force: true });
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function describe(url: URL): string {
  return `${url.hostname || 'localhost'}:${url.port || 5432}`;
}

function firstLine(e: unknown): string {
  return ((e instanceof Error ? e.message : String(e)).split('\n')[0] ?? '').trim();
}
