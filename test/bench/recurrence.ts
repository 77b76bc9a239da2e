/**
 * `npm run bench:recurrence`: lists of occurrences vs lists of plain events, like for like.
 *
 * One calendar per backend (PGlite in memory unless BENCH_PGLITE=0; PostgreSQL unless BENCH_POSTGRES=0, a fresh database
 * on BENCH_DATABASE_URL's server): N weekly series created through the service (each materialized over
 * the 2-year horizon, ~105 occurrences, ~105,000 listed rows for N=1000). Then the same rows become
 * single events in a copy of the calendar: its occurrence table emptied, the series columns and
 * `parentId` cleared; both calendars are served side by side. Both
 * states are measured after `VACUUM FULL ANALYZE` (compact tables, fresh statistics, what
 * autovacuum gives a live database), so the two lists read the same number of rows in the same
 * window and page; only "series or not" differs.
 *
 * Each scenario runs against the real Koa app (caches off), anonymous, one request at a time
 * alternating between the two states (same load on both):
 * REST `GET /events?per_page=50&page=1..3` (the default window: upcoming), REST one month
 * (`start_date`/`end_date`), GraphQL `events(perPage: 50)` with its total. Prints mean and p50 per
 * request, SQL statements per request (the query budget must not move) and the ratio series ÷ plain.
 * BENCH_EXPLAIN=1 prints `EXPLAIN (ANALYZE, BUFFERS)` of the statements of one default REST list page
 * in each state. No assertion: figures only.
 *
 * Environment: BENCH_SERIES=1000, BENCH_REPEAT=30 (requests per scenario and state),
 * BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (the server's admin database).
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import pino from 'pino';
import { createContext } from '../../src/services/context.ts';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { applyMigrations } from '../../src/db/migrate.ts';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { createEvent } from '../../src/services/events.ts';

const N = Number(process.env.BENCH_SERIES ?? 1000);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);
const EXPLAIN = process.env.BENCH_EXPLAIN === '1';
const ADMIN_URL = process.env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NOW = new Date('2026-11-21T12:00:00Z');
const config = loadConfig({ CAL_CACHE_TTL_S: '0', CAL_LOG_LEVEL: 'silent', CAL_MAX_QUERIES_PER_REQUEST: '0' });

const GRAPHQL_LIST = `query { events(perPage: 50) { totalCount edges { node {
  databaseId title startDate endDate startDateUtc cost categories { name slug } venues { name } } } } }`;

interface Scenario {
  label: string;
  path: string;
  body?: string;
}
const SCENARIOS: Scenario[] = [
  { label: 'REST GET /events?per_page=50&page=1..3', path: '/wp-json/cal/events/v1/events?per_page=50&page=' },
  { label: 'REST one month (2027-06), per_page=50', path: '/wp-json/cal/events/v1/events?start_date=2027-06-01&end_date=2027-06-30&per_page=50' },
  { label: 'GraphQL events(perPage: 50) + total', path: '/graphql', body: JSON.stringify({ query: GRAPHQL_LIST }) },
];

interface Figures {
  times: number[];
  sql: number;
  total: number;
}

/** One state of the calendar behind its own server; `captured` holds the statements of its request in flight. */
interface Side {
  db: Database;
  base: string;
  captured: { sql: string; args?: readonly unknown[] }[];
  close(): Promise<void>;
}

async function seed(db: Database): Promise<number> {
  const admin = await db.prisma.user.create({ data: { login: 'admin', role: 'ADMINISTRATOR', passwordHash: 'x' } });
  const ctx = createContext({ prisma: db.prisma, settings: config.site, viewer: { id: admin.id, login: 'admin', role: 'ADMINISTRATOR' }, now: NOW });
  const t0 = performance.now();
  for (let i = 0; i < N; i++) {
    // One series starting on each of the next 365 days (then around again), same fields as a single event.
    const day = new Date(Date.UTC(2026, 11, 1) + (i % 365) * 86_400_000).toISOString().slice(0, 10);
    await createEvent(ctx, {
      title: `Event ${i}`,
      startDate: `${day} 19:00:00`,
      endDate: `${day} 21:00:00`,
      cost: ['$10'],
      categories: [`cat-${i % 10}`],
      recurrence: { rule: 'FREQ=WEEKLY' },
    });
    if (i % 100 === 99) process.stderr.write(`  seeded ${i + 1}/${N} series\r`);
  }
  process.stderr.write('\n');
  return (performance.now() - t0) / 1000;
}

const vacuum = (db: Database) => db.session((s) => s.exec('VACUUM FULL ANALYZE'));

async function serve(url: string, loadDataDir?: Blob): Promise<Side> {
  const captured: Side['captured'] = [];
  const db = await openDatabase(url, { loadDataDir, onQuery: (sql, args) => captured.push({ sql, args }) });
  await applyMigrations(db);
  const { app } = buildApp({ config, db, logger: pino({ level: 'silent' }), now: () => new Date(NOW) });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return {
    db,
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    captured,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await db.close();
    },
  };
}

async function request(side: Side, s: Scenario, i: number) {
  const url = side.base + s.path + (s.path.endsWith('page=') ? String(1 + (i % 3)) : '');
  side.captured.length = 0;
  const t = performance.now();
  const r = await fetch(url, s.body ? { method: 'POST', headers: { 'content-type': 'application/json' }, body: s.body } : {});
  const text = await r.text();
  const elapsed = performance.now() - t;
  if (r.status !== 200) throw new Error(`${url}: ${r.status} ${text.slice(0, 300)}`);
  const total = s.body ? JSON.parse(text).data.events.totalCount : Number(r.headers.get('x-tec-total'));
  return { elapsed, sql: side.captured.length, total };
}

/** Requests alternate between the two states, so that the load of this shared machine hits both alike. */
async function measure(sides: Side[], s: Scenario): Promise<Figures[]> {
  const figures = sides.map((): Figures => ({ times: [], sql: 0, total: 0 }));
  for (let i = 0; i < REPEAT + 3; i++) {
    for (const [k, side] of sides.entries()) {
      const r = await request(side, s, i);
      if (i < 3) continue; // warm-up
      figures[k].times.push(r.elapsed);
      figures[k].sql = Math.max(figures[k].sql, r.sql);
      figures[k].total = r.total;
    }
  }
  return figures;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function explain(side: Side, state: string) {
  side.captured.length = 0;
  await fetch(`${side.base}/wp-json/cal/events/v1/events?per_page=50`).then((r) => r.text());
  const statements = side.captured.filter((q) => /^\s*SELECT/i.test(q.sql));
  await side.db.session(async (session) => {
    for (const q of statements) {
      const plan = await session.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS) ${q.sql}`, [...(q.args ?? [])]);
      console.log(`\n-- ${state}: ${q.sql.replace(/\s+/g, ' ').slice(0, 160)}…`);
      for (const row of plan.rows) console.log(`   ${row['QUERY PLAN']}`);
    }
  });
}

/**
 * Seeds the series calendar, copies it (PGlite: a dump of the data directory; PostgreSQL: a database
 * made from it as a template) and turns the copy's rows into single events.
 */
async function backend(name: string, seriesUrl: string, plainUrl?: string, createPlain?: () => Promise<void>) {
  let series = await serve(seriesUrl);
  const seconds = await seed(series.db);
  await vacuum(series.db);
  let plain: Side;
  if (series.db.pglite) {
    plain = await serve('memory:', (await series.db.pglite.dumpDataDir('none')) as Blob);
  } else {
    await series.close(); // a template database must have no session
    await createPlain!();
    series = await serve(seriesUrl);
    plain = await serve(plainUrl!);
  }
  await plain.db.session((s) =>
    s.exec(`DELETE FROM "EventOccurrence";
      UPDATE "Event" SET "parentId" = NULL, "recurrenceRules" = '{}', "recurrenceStart" = NULL,
        "recurrenceRdates" = '{}', "recurrenceExdates" = '{}', "materializedUntil" = NULL, "materializedFrom" = NULL;`),
  );
  await vacuum(plain.db);
  const count = async (side: Side, table: string) =>
    (await side.db.session((s) => s.query<{ n: number }>(`SELECT count(*)::int AS n FROM "${table}"`))).rows[0].n;
  console.log(
    `\n## ${name}: ${N} weekly series → ${await count(series, 'Event')} event rows, ${await count(series, 'EventOccurrence')} occurrences ` +
      `(seeded in ${seconds.toFixed(1)} s); plain: ${await count(plain, 'Event')} single events; ${REPEAT} requests per scenario and state, alternating`,
  );
  const rows: [Scenario, Figures[]][] = [];
  for (const s of SCENARIOS) rows.push([s, await measure([series, plain], s)]);
  if (EXPLAIN) {
    await explain(series, 'series');
    await explain(plain, 'plain');
  }
  console.log(`\nscenario                                   total   series mean/p50 ms   plain mean/p50 ms   SQL/req s|p   series ÷ plain (mean, p50)`);
  for (const [s, [a, b]] of rows) {
    console.log(
      `${s.label.padEnd(42)} ${String(a.total).padStart(6)}${a.total === b.total ? ' ' : '≠'}  ${mean(a.times).toFixed(1).padStart(8)} /${median(a.times).toFixed(1).padStart(7)}  ` +
        `${mean(b.times).toFixed(1).padStart(8)} /${median(b.times).toFixed(1).padStart(7)}   ${String(a.sql).padStart(4)}|${b.sql}     ` +
        `${(mean(a.times) / mean(b.times)).toFixed(2)}, ${(median(a.times) / median(b.times)).toFixed(2)} (target ≤ 1.2)`,
    );
  }
  await series.close();
  await plain.close();
}

console.log(`# ${N} weekly series (2-year horizon) vs the same rows as single events`);
if (process.env.BENCH_PGLITE !== '0') await backend('PGlite (memory)', 'memory:');
if (process.env.BENCH_POSTGRES !== '0') {
  const names = [`cal_bench_series_${process.pid}`, `cal_bench_plain_${process.pid}`];
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  const urlOf = (db: string) => Object.assign(new URL(ADMIN_URL), { pathname: `/${db}` }).toString();
  try {
    await admin.query(`CREATE DATABASE ${names[0]}`);
    await backend('PostgreSQL', urlOf(names[0]), urlOf(names[1]), () => admin.query(`CREATE DATABASE ${names[1]} TEMPLATE ${names[0]}`).then(() => {}));
  } finally {
    for (const db of names) await admin.query(`DROP DATABASE IF EXISTS ${db} WITH (FORCE)`);
    await admin.end();
  }
}
