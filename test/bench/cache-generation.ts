/**
 * `npm run bench:cache`: what the cross-process freshness check of the byte cache costs per read
 * (src/server/cache/freshness.ts), on PostgreSQL. Prints
 *   - `current()` alone: latency of one sequential read, and reads/s, SQL queries per read and client
 *     CPU per read with 10 concurrent readers (coalesced);
 *   - cached anonymous `GET /events?per_page=50` and a small GraphQL query on the real app (in this
 *     process, 100 events): mean latency sequentially and req/s at 10 concurrent requests, with the
 *     shared generation and without (what one process alone would need).
 * BENCH_DATABASE_URL (default postgres://postgres@127.0.0.1:5432/postgres): the server to use; the
 * bench creates and drops its own database there. BENCH_SECONDS (default 3) per concurrent run.
 */
import type { AddressInfo } from 'node:net';
import pg from 'pg';
import pino from 'pino';
import { openDatabase } from '../../src/db/database.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { buildApp } from '../../src/server/app.ts';
import { coalesce, openSharedGeneration } from '../../src/server/cache/freshness.ts';
import { loadConfig } from '../../src/server/config.ts';
import { seedDatabase } from './seed.ts';

const adminUrl = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const seconds = Number(process.env.BENCH_SECONDS ?? 3);
const name = `cal_bench_gen_${process.pid}`;
const admin = async (sql: string) => {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(sql).finally(() => c.end());
};
await admin(`CREATE DATABASE "${name}"`);
const url = new URL(adminUrl);
url.pathname = `/${name}`;
const logger = pino({ level: 'silent' });
const QUERY = '{ events(perPage: 10) { nodes { title } } }';

/** `fn` run by `concurrency` loops for `seconds`: calls per second and client CPU µs per call. */
async function hammer(fn: () => Promise<unknown>, concurrency: number) {
  let calls = 0;
  const cpu0 = process.cpuUsage();
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        await fn();
        calls++;
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return { perSecond: calls / seconds, cpuUs: (cpu.user + cpu.system) / calls, calls };
}
async function sequentialMs(fn: () => Promise<unknown>, n: number) {
  for (let i = 0; i < 50; i++) await fn();
  const t0 = performance.now();
  for (let i = 0; i < n; i++) await fn();
  return (performance.now() - t0) / n;
}

const db = await openDatabase(url.href);
try {
  await applyMigrations(db);
  const generation = openSharedGeneration(url.href, logger)!;
  await generation.bump();
  console.log(`current(): sequential ${(await sequentialMs(() => generation.current(), 2000) * 1000).toFixed(0)} µs per read`);
  // The same query, counted, to show how many statements concurrent reads share.
  const pool = new pg.Pool({ connectionString: url.href, max: 2 });
  let queries = 0;
  const counted = coalesce(async () => {
    queries++;
    return (await pool.query('SELECT CASE WHEN is_called THEN last_value ELSE 0 END::text AS v FROM cache_generation')).rows[0].v as string;
  });
  const c10 = await hammer(counted, 10);
  console.log(`current(): 10 concurrent readers ${c10.perSecond.toFixed(0)} reads/s, ${(queries / c10.calls).toFixed(2)} SQL queries per read, ${c10.cpuUs.toFixed(0)} µs client CPU per read`);
  await pool.end();

  await seedDatabase(db, { events: 100, progress: false });
  const config = loadConfig({ CAL_LOG_LEVEL: 'silent', CAL_CACHE_TTL_S: '3600' });
  for (const [label, shared] of [['without the shared generation', null], ['with the shared generation   ', generation]] as const) {
    const { app, bytes } = buildApp({ config, db, logger, generation: shared });
    const cache = bytes!;
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const requests: [string, () => Promise<Response>][] = [
      ['GET /events?per_page=50', () => fetch(`${base}/wp-json/cal/events/v1/events?per_page=50`)],
      ['GraphQL { events(perPage: 10) { nodes { title } } }', () => fetch(`${base}/graphql?query=${encodeURIComponent(QUERY)}`)],
    ];
    for (const [what, request] of requests) {
      const get = async () => {
        const res = await request();
        if (res.status !== 200) throw new Error(`status ${res.status}`);
        await res.arrayBuffer();
      };
      const [hits, misses] = [cache.hits, cache.misses];
      const seq = await sequentialMs(get, 300);
      const conc = await hammer(get, 10);
      console.log(
        `cached ${what}, ${label}: ${(seq * 1000).toFixed(0)} µs sequential, ${conc.perSecond.toFixed(0)} req/s at c=10 ` +
          `(${conc.cpuUs.toFixed(0)} µs CPU per request, client and server in this process; ${cache.hits - hits} hits, ${cache.misses - misses} misses)`,
      );
    }
    await new Promise((r) => server.close(r));
  }
  await generation.close();
} finally {
  await db.close();
  await admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
