/**
 * Bench-only instrumentation, loaded into the real server with
 * `node --import tsx --import ./test/bench/sql-count-preload.ts src/server/main.ts` (the product has no
 * SQL-count switch yet). It counts the statements the server sends to the database — node-postgres
 * `Client#query` for PostgreSQL, `PGlite#query`/`#exec` and transaction queries for PGlite — leaving
 * out transaction control (BEGIN/COMMIT/ROLLBACK/savepoints), like `openDatabase({ onQuery })`.
 *
 * The bench asks over the IPC channel of the child process:
 *   { sqlBench: 'count' }  → { sqlBench: 'count', count }
 *   { sqlBench: 'record' } → starts keeping statement texts and parameters
 *   { sqlBench: 'dump' }   → { sqlBench: 'dump', statements: [{ sql, values }] } and stops recording
 *   { sqlBench: 'memory' } → { sqlBench: 'memory', usage: process.memoryUsage() } (RSS breakdown)
 * Without an IPC channel (not started by the bench) it does nothing.
 */
import { PGlite } from '@electric-sql/pglite';
import pg from 'pg';

const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|START TRANSACTION|-- Implicit)\b/i;

let count = 0;
let recording: { sql: string; values: unknown[] }[] | null = null;

function seen(sql: unknown, values?: unknown) {
  if (typeof sql !== 'string' || TRANSACTION_CONTROL.test(sql)) return;
  count++;
  if (recording && recording.length < 1000) recording.push({ sql, values: Array.isArray(values) ? values.map(plain) : [] });
}

function plain(v: unknown): unknown {
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return `\\x${Buffer.from(v).toString('hex')}`;
  return v;
}

if (typeof process.send === 'function') {
  const clientProto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown };
  const pgQuery = clientProto.query;
  clientProto.query = function (this: unknown, config: unknown, values?: unknown, ...rest: unknown[]) {
    if (typeof config === 'string') seen(config, values);
    else if (config && typeof config === 'object' && 'text' in config) {
      const c = config as { text: string; values?: unknown };
      seen(c.text, c.values ?? values);
    }
    return pgQuery.call(this, config, values, ...rest);
  };

  type Queryable = { query: (sql: string, params?: unknown[], opts?: unknown) => Promise<unknown>; exec: (sql: string, opts?: unknown) => Promise<unknown> };
  const proto = PGlite.prototype as unknown as Queryable & { transaction: (cb: (tx: Queryable) => Promise<unknown>) => Promise<unknown> };
  const { query, exec, transaction } = proto;
  proto.query = function (this: Queryable, sql, params, opts) {
    seen(sql, params);
    return query.call(this, sql, params, opts);
  };
  proto.exec = function (this: Queryable, sql, opts) {
    seen(sql);
    return exec.call(this, sql, opts);
  };
  proto.transaction = function (this: unknown, cb) {
    return transaction.call(this, (tx) => {
      // The adapter keeps the tx object; wrap its methods in place.
      const txQuery = tx.query.bind(tx);
      const txExec = tx.exec.bind(tx);
      tx.query = (sql, params, opts) => (seen(sql, params), txQuery(sql, params, opts));
      tx.exec = (sql, opts) => (seen(sql), txExec(sql, opts));
      return cb(tx);
    });
  };

  process.on('message', (m: { sqlBench?: string }) => {
    if (m?.sqlBench === 'count') process.send!({ sqlBench: 'count', count });
    else if (m?.sqlBench === 'record') {
      recording = [];
      process.send!({ sqlBench: 'record' });
    } else if (m?.sqlBench === 'memory') {
      process.send!({ sqlBench: 'memory', usage: process.memoryUsage() });
    } else if (m?.sqlBench === 'dump') {
      process.send!({ sqlBench: 'dump', statements: recording ?? [] });
      recording = null;
    }
  });
  // The channel must not keep a stopped server alive.
  process.channel?.unref();
}
