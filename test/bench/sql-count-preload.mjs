/**
 * Bench-only instrumentation, loaded into the real (compiled) server with
 * `node --import ./test/bench/sql-count-preload.mjs dist/src/server/main.js` (the product has no
 * SQL-count switch yet). Plain JavaScript, so that the measured process runs no TypeScript loader.
 * It counts the statements the server sends to the database — node-postgres `Client#query` for
 * PostgreSQL, `PGlite#query`/`#exec` and transaction queries for PGlite — leaving out transaction
 * control (BEGIN/COMMIT/ROLLBACK/savepoints), like `openDatabase({ onQuery })`. PGlite is only
 * loaded (and patched) when the server runs on it, as the server itself does.
 *
 * The bench asks over the IPC channel of the child process:
 *   { sqlBench: 'count' }  → { sqlBench: 'count', count }
 *   { sqlBench: 'record' } → starts keeping statement texts and parameters
 *   { sqlBench: 'dump' }   → { sqlBench: 'dump', statements: [{ sql, values }] } and stops recording
 *   { sqlBench: 'memory' } → { sqlBench: 'memory', usage: process.memoryUsage() } (RSS breakdown)
 * Without an IPC channel (not started by the bench) it does nothing.
 */
import pg from 'pg';

const TRANSACTION_CONTROL = /^\s*(BEGIN|COMMIT|ROLLBACK|SAVEPOINT|RELEASE|START TRANSACTION|-- Implicit)\b/i;

let count = 0;
/** @type {{ sql: string; values: unknown[] }[] | null} */
let recording = null;

/** @param {unknown} sql @param {unknown} [values] */
function seen(sql, values) {
  if (typeof sql !== 'string' || TRANSACTION_CONTROL.test(sql)) return;
  count++;
  if (recording && recording.length < 1000) recording.push({ sql, values: Array.isArray(values) ? values.map(plain) : [] });
}

/** @param {unknown} v */
function plain(v) {
  if (v instanceof Date) return v.toISOString();
  if (Buffer.isBuffer(v) || v instanceof Uint8Array) return `\\x${Buffer.from(v).toString('hex')}`;
  return v;
}

if (typeof process.send === 'function') {
  const send = process.send.bind(process);
  const clientProto = pg.Client.prototype;
  const pgQuery = clientProto.query;
  clientProto.query = function (config, values, ...rest) {
    if (typeof config === 'string') seen(config, values);
    else if (config && typeof config === 'object' && 'text' in config) seen(config.text, config.values ?? values);
    return pgQuery.call(this, config, values, ...rest);
  };

  if (!/^postgres(ql)?:/i.test((process.env.DATABASE_URL ?? '').trim())) {
    const { PGlite } = await import('@electric-sql/pglite');
    const proto = PGlite.prototype;
    const { query, exec, transaction } = proto;
    proto.query = function (sql, params, opts) {
      seen(sql, params);
      return query.call(this, sql, params, opts);
    };
    proto.exec = function (sql, opts) {
      seen(sql);
      return exec.call(this, sql, opts);
    };
    proto.transaction = function (cb) {
      return transaction.call(this, (tx) => {
        // The adapter keeps the tx object; wrap its methods in place.
        const txQuery = tx.query.bind(tx);
        const txExec = tx.exec.bind(tx);
        tx.query = (sql, params, opts) => (seen(sql, params), txQuery(sql, params, opts));
        tx.exec = (sql, opts) => (seen(sql), txExec(sql, opts));
        return cb(tx);
      });
    };
  }

  process.on('message', (m) => {
    if (m?.sqlBench === 'count') send({ sqlBench: 'count', count });
    else if (m?.sqlBench === 'record') {
      recording = [];
      send({ sqlBench: 'record' });
    } else if (m?.sqlBench === 'memory') {
      send({ sqlBench: 'memory', usage: process.memoryUsage() });
    } else if (m?.sqlBench === 'dump') {
      send({ sqlBench: 'dump', statements: recording ?? [] });
      recording = null;
    }
  });
  // The channel must not keep a stopped server alive.
  process.channel?.unref();
}
