/**
 * `npm run bench`: load benchmark of the REST facade and GraphQL over a seeded calendar, on PGlite
 * and PostgreSQL, against a minimal hand-written SQL handler (the practical limit).
 *
 * Environment (all optional):
 *   BENCH_SIZES=1000,10000        event counts to seed (100000 works: a few minutes of seeding)
 *   BENCH_BACKENDS=pglite,postgres
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
 *                                 PostgreSQL server to use; the bench creates (and drops) its own
 *                                 database per size on it, the named database is only the way in
 *   BENCH_DURATION=10             seconds per measured run; BENCH_WARMUP=3 seconds of warm-up before each
 *   BENCH_CONNECTIONS=1,10
 *   BENCH_ROUNDS=2                rounds over all scenarios in one server process (RSS leak check)
 *   BENCH_SCENARIOS=…             comma-separated scenario keys to run (default: all; `mixed` is the mixed load below,
 *                                 `longtext` the write time of a 100 KB description next to a 1 KB one (long-text.ts):
 *                                 BENCH_SCENARIOS=longtext BENCH_SIZES=1000 runs just it)
 *   BENCH_MIXED=8,2               mixed load: this many connections reading GET /events while this many
 *                                 write (authenticated POST /events) at once; prints read and write p50/p99
 *                                 side by side (0 turns it off)
 *   BENCH_SQL_SAMPLES=10          sequential requests per scenario for the SQL count
 *   BENCH_CACHE_TTL_S=0           CAL_CACHE_TTL_S of the server (default 0: every figure uncached)
 *   BENCH_PROFILE=1               also profile the server (--cpu-prof) on GET /events?per_page=50
 *                                 (first size, PostgreSQL if selected), twice: its fixed operations run by
 *                                 graphql-js (CAL_GRAPHQL_COMPILE=false), then compiled; the report shows each
 *                                 layer's share (the executor's among them) before and after;
 *                                 BENCH_PROFILE_OUT=file keeps the compiled run's .cpuprofile
 *   BENCH_UNCACHED=1              also run the read scenarios on a server with its caches off
 *                                 (CAL_CACHE_TTL_S=0): "(uncached)" rows next to the default, cached ones (default on),
 *                                 and the server CPU of one uncached 50-event page, REST and GraphQL (uncached-page.ts)
 *   BENCH_EXPLAIN=1               EXPLAIN ANALYZE the SQL of GET /events?per_page=50 (default on)
 *   BENCH_REV=HEAD                bench this commit (git archive into a temp dir) instead of the working
 *                                 tree, so that edits landing during a long run do not mix revisions
 *   BENCH_OUT=bench/results.json
 *   BENCH_COMPARE_URL=http://host/wp-json/tribe/events/v1
 *                                 another implementation of the same REST API (e.g. WordPress with The Events
 *                                 Calendar): the anonymous list scenarios also run against it, and the report
 *                                 shows our req/s ÷ theirs. Its data is its own: compare like-sized calendars.
 *
 * Each size also measures the HTTP byte cache: a server with the caches on answers
 * GET /events?per_page=50 from stored bytes, identity and brotli, next to the static floor sending the
 * very same bytes (target: ≥ 0.5 of it), and prints the identity / gzip / brotli sizes of that body
 * (BENCH_BYTECACHE=0 leaves it out).
 *
 * Then the cache layers (test/bench/cache-layers.ts, as `npm run bench:layers`): a mixed load on two
 * instances on PostgreSQL (readers over many filters, pages and languages, one write per second)
 * with each origin cache layer on and off (BENCH_LAYERS=0 leaves it out, and so does a
 * BENCH_SCENARIOS without `layers`).
 *
 * Last, the edge (test/bench/edge.ts, as `npm run bench:edge`): the calendar behind Varnish with xkey
 * purges, its hit ratio and throughput next to the origin's, and write-to-visible latency at the edge
 * (BENCH_EDGE=0 leaves it out, and so does a BENCH_SCENARIOS without `edge`; reported as not measured when
 * varnishd or varnish-modules is missing).
 *
 * Then the cost of telemetry (test/bench/telemetry.ts, as `npm run bench:telemetry`): cached reads on
 * servers with metrics off, on, and tracing at 10 % sampling (BENCH_TELEMETRY=0 leaves it out, and so
 * does a BENCH_SCENARIOS without `telemetry`).
 *
 * Each size also measures a static-JSON floor (test/bench/static-floor.ts: Node's http module serving the
 * bodies the server just produced) and reports server ÷ floor, and the server's idle RSS after warm-up.
 */
import { copyFileSync, cpSync, existsSync, mkdirSync, symlinkSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import http from 'node:http';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { DateTime } from 'luxon';
import pg from 'pg';
import { runLoad, type LoadResult } from './load.ts';
import { dbCpuReader, killChildren, readCpuMs, ROOT, rssSampler, startChild, type Child } from './process.ts';
import { formatProfile, summarizeCpuProfile, type ProfileSummary } from './profile.ts';
import { seedUrl, type SeedInfo } from './seed.ts';
import { eventsArchiveDocument, formatUncachedPage, measureUncachedPage, type UncachedPage } from './uncached-page.ts';
import { measureEdge, type EdgeResult } from './edge.ts';
import { formatCacheLayers, measureCacheLayers, type LayerRow } from './cache-layers.ts';
import { formatLongText, measureLongText, type LongTextRow } from './long-text.ts';
import { formatTelemetry, measureTelemetry, type TelemetryRow } from './telemetry.ts';

/* ------------------------------------------------------------------------------------ configuration */

const env = process.env;
const list = (v: string | undefined, d: string) => (v?.trim() ? v : d).split(',').map((s) => s.trim()).filter(Boolean);
const SIZES = list(env.BENCH_SIZES, '1000,10000').map((s) => Number(s.replace(/_/g, '').replace(/k$/i, '000')));
const BACKENDS = list(env.BENCH_BACKENDS, 'pglite,postgres') as Backend[];
const ADMIN_URL = env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(env.BENCH_DURATION ?? 10);
const WARMUP = Number(env.BENCH_WARMUP ?? 3);
const CONNECTIONS = list(env.BENCH_CONNECTIONS, '1,10').map(Number);
const ROUNDS = Math.max(1, Number(env.BENCH_ROUNDS ?? 2));
const ONLY = env.BENCH_SCENARIOS ? new Set(list(env.BENCH_SCENARIOS, '')) : null;
const MIXED = (() => {
  const [reads, writes] = list(env.BENCH_MIXED, '8,2').map(Number);
  return reads > 0 && writes > 0 ? { reads, writes } : null;
})();
const SQL_SAMPLES = Number(env.BENCH_SQL_SAMPLES ?? 10);
const PROFILE = /^(1|true|yes)$/i.test(env.BENCH_PROFILE ?? '');
const EXPLAIN = !/^(0|false|no)$/i.test(env.BENCH_EXPLAIN ?? '1');
const UNCACHED = !/^(0|false|no)$/i.test(env.BENCH_UNCACHED ?? '1');
const BYTECACHE = !/^(0|false|no)$/i.test(env.BENCH_BYTECACHE ?? '1');
const EDGE = !/^(0|false|no)$/i.test(env.BENCH_EDGE ?? '1');
const LAYERS = !/^(0|false|no)$/i.test(env.BENCH_LAYERS ?? '1');
const TELEMETRY = !/^(0|false|no)$/i.test(env.BENCH_TELEMETRY ?? '1');
/** Name prefix of PostgreSQL databases kept (and reused) between runs, one per size: `<prefix>_<size>`. */
const KEEP_DB = env.BENCH_KEEP_DB?.trim() || null;
if (KEEP_DB && !/^[a-z_][a-z0-9_]*$/.test(KEEP_DB)) throw new Error(`BENCH_KEEP_DB: not a plain database name: ${KEEP_DB}`);
const OUT = path.resolve(ROOT, env.BENCH_OUT ?? 'bench/results.json');
const COMPARE_URL = env.BENCH_COMPARE_URL?.trim() ? new URL(env.BENCH_COMPARE_URL.trim().replace(/\/+$/, '')) : null;
const SITE_TZ = 'America/New_York';
/** Where the measured product lives: this checkout, or a snapshot of BENCH_REV. */
let productRoot = ROOT;
/**
 * The server's entry point in the measured product: the compiled one `npm start` runs (built here
 * when stale), or for revisions from before the build, the TypeScript one (src/server.ts earlier).
 */
let built = '';
function serverScript(): string {
  if (existsSync(path.join(productRoot, 'src/build.mjs'))) {
    if (built !== productRoot) {
      execFileSync(process.execPath, ['src/build.mjs', '--if-stale'], { cwd: productRoot, stdio: 'inherit' });
      built = productRoot;
    }
    return 'dist/src/server/main.js';
  }
  return existsSync(path.join(productRoot, 'src/server/main.ts')) ? 'src/server/main.ts' : 'src/server.ts';
}
/** A kept database keeps the administrator the first run created: its password must stay the same. */
const ADMIN = { login: 'bench-admin', password: KEEP_DB ? `bench-${KEEP_DB}` : `bench-${process.pid}-${Date.now().toString(36)}` };
const NS = '/wp-json/cal/events/v1';

type Backend = 'pglite' | 'postgres';
for (const b of BACKENDS) if (b !== 'pglite' && b !== 'postgres') throw new Error(`BENCH_BACKENDS: unknown backend ${b}`);
for (const s of SIZES) if (!Number.isInteger(s) || s < 10) throw new Error(`BENCH_SIZES: bad size ${s}`);

/* -------------------------------------------------------------------------------------- scenarios */

interface Scenario {
  key: string;
  label: string;
  method: 'GET' | 'POST';
  target: 'server' | 'minimal' | 'static' | 'compare';
  path: (seed: SeedInfo) => string | (() => string);
  body?: (seed: SeedInfo) => string | (() => string);
  headers?: Record<string, string>;
  auth?: boolean;
  expect: number;
  /** A GraphQL request: an answer with `errors` fails the check. */
  graphql?: boolean;
}

/** An anonymous GraphQL read. */
function graphqlScenario(key: string, label: string, body: (s: SeedInfo) => { query: string; variables?: object }): Scenario {
  return {
    key,
    label,
    method: 'POST',
    target: 'server',
    path: () => '/graphql',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: (s) => JSON.stringify(body(s)),
    expect: 200,
    graphql: true,
  };
}

function rotate<T>(items: T[], f: (x: T) => string): () => string {
  let i = 0;
  return () => f(items[i++ % items.length]);
}

let postCounter = 0;
const RUN_ID = Date.now().toString(36);

/** The search scenarios' window: events starting after 30 days ago (REST `starts_after`, GraphQL `startsAfter`). */
const searchStartsAfter = () => DateTime.utc().minus({ days: 30 }).toFormat('yyyy-MM-dd');

const SCENARIOS: Scenario[] = [
  { key: 'events', label: 'GET /events', method: 'GET', target: 'server', path: () => `${NS}/events`, expect: 200 },
  { key: 'events50', label: 'GET /events?per_page=50', method: 'GET', target: 'server', path: () => `${NS}/events?per_page=50`, expect: 200 },
  {
    key: 'search',
    label: 'GET /events?search&categories&starts_after',
    method: 'GET',
    target: 'server',
    path: (s) =>
      `${NS}/events?search=${s.searchWord}&categories=${s.topCategories[0].id}&starts_after=${searchStartsAfter()}`,
    expect: 200,
  },
  { key: 'event', label: 'GET /events/{id}', method: 'GET', target: 'server', path: (s) => rotate(s.sampleEvents, (e) => `${NS}/events/${e.id}`), expect: 200 },
  {
    key: 'eventSlug',
    label: 'GET /events/by-slug/{slug}',
    method: 'GET',
    target: 'server',
    path: (s) => rotate(s.sampleEvents, (e) => `${NS}/events/by-slug/${e.slug}`),
    expect: 200,
  },
  {
    key: 'categoryFilter',
    label: 'GET /events?categories',
    method: 'GET',
    target: 'server',
    path: (s) => `${NS}/events?categories=${s.topCategories[0].id}`,
    expect: 200,
  },
  { key: 'venues', label: 'GET /venues', method: 'GET', target: 'server', path: () => `${NS}/venues`, expect: 200 },
  { key: 'organizers', label: 'GET /organizers', method: 'GET', target: 'server', path: () => `${NS}/organizers`, expect: 200 },
  { key: 'categories', label: 'GET /categories', method: 'GET', target: 'server', path: () => `${NS}/categories`, expect: 200 },
  graphqlScenario('graphqlCount', 'GraphQL events(first: 10) { totalCount … }', () => ({
    query: '{ events(first: 10) { totalCount edges { node { databaseId title startDate } } } }',
  })),
  graphqlScenario('graphqlCategoryCount', 'GraphQL events(first: 10, categories) { totalCount … }', (s) => ({
    query: `{ events(first: 10, filter: { categories: ["${s.topCategories[0].id}"] }) { totalCount edges { node { databaseId title startDate } } } }`,
  })),
  // The REST search's filter as a Relay page that does not ask for the total (so none is counted).
  graphqlScenario('graphqlSearch', 'GraphQL events(first: 10, search, categories, startsAfter), no total', (s) => ({
    query: `{ events(first: 10, filter: { search: "${s.searchWord}", categories: ["${s.topCategories[0].id}"], startsAfter: "${searchStartsAfter()}" }) { pageInfo { hasNextPage endCursor } edges { node { databaseId title startDate } } } }`,
  })),
  graphqlScenario('graphqlVenues', 'GraphQL venues(first: 10) { totalCount … }', () => ({
    query: '{ venues(first: 10) { totalCount edges { node { databaseId name city } } } }',
  })),
  graphqlScenario('graphqlOrganizers', 'GraphQL organizers(first: 10) { totalCount … }', () => ({
    query: '{ organizers(first: 10) { totalCount edges { node { databaseId name email } } } }',
  })),
  {
    key: 'graphql50',
    label: 'GraphQL EventsArchive(perPage: 50)',
    method: 'POST',
    target: 'server',
    path: () => '/graphql',
    headers: { 'content-type': 'application/json', accept: 'application/json' },
    body: () => JSON.stringify({ query: eventsArchiveDocument(productRoot), operationName: 'EventsArchive', variables: { perPage: 50, page: 1 } }),
    expect: 200,
    graphql: true,
  },
  {
    // Last in a round: it adds events (outside the default window: they start in 2001).
    key: 'create',
    label: 'POST /events',
    method: 'POST',
    target: 'server',
    auth: true,
    path: () => `${NS}/events`,
    headers: { 'content-type': 'application/json' },
    body: (s) => () => {
      const n = ++postCounter;
      const day = 1 + (n % 28);
      return JSON.stringify({
        title: `Bench load event ${RUN_ID} ${n}`,
        description: 'Created by the load benchmark.\n\nSecond paragraph.',
        start_date: `2001-03-${String(day).padStart(2, '0')} 18:00:00`,
        end_date: `2001-03-${String(day).padStart(2, '0')} 20:00:00`,
        status: 'publish',
        cost: '15',
        venue: s.venueIds[n % s.venueIds.length],
        organizer: [s.organizerIds[n % s.organizerIds.length]],
        categories: [s.topCategories[n % s.topCategories.length].id],
        tags: [s.tagIds[n % s.tagIds.length]],
      });
    },
    expect: 201,
  },
];
const MINIMAL: Scenario = {
  key: 'minimal50',
  label: 'minimal handler GET /events?per_page=50',
  method: 'GET',
  target: 'minimal',
  path: () => `${NS}/events?per_page=50`,
  expect: 200,
};

/** The static floor serves these two bodies, captured from the server (anonymous, uncached). */
const STATIC: Scenario[] = [
  { key: 'static:events', label: 'static floor, body of GET /events', method: 'GET', target: 'static', path: () => `${NS}/events`, expect: 200 },
  { key: 'static:events50', label: 'static floor, body of GET /events?per_page=50', method: 'GET', target: 'static', path: () => `${NS}/events?per_page=50`, expect: 200 },
];

/** Anonymous reads that mean the same on any implementation of the API (no IDs of our seed). */
const COMPARABLE = ['events', 'events50', 'venues', 'categories'];

/* ----------------------------------------------------------------------------------------- results */

interface Measurement extends LoadResult {
  round: number;
  rssMaxMB: number;
  /** CPU time of the server process per completed request (includes PGlite, which runs inside it). */
  cpuMsPerReq: number | null;
  /** CPU time of the PostgreSQL backends serving the bench database per request (PostgreSQL only). */
  dbCpuMsPerReq: number | null;
  /** 1-minute load average when the run ended (the machine is shared: > CPU count means contention). */
  load1: number;
}
interface ScenarioResult {
  key: string;
  label: string;
  sqlPerRequest: number | null;
  sqlSource: string;
  bodyBytes: number;
  runs: Measurement[];
}
interface RunResult {
  size: number;
  backend: Backend;
  seed: Omit<SeedInfo, 'sampleEvents' | 'venueIds' | 'organizerIds' | 'tagIds' | 'topCategories'>;
  scenarios: ScenarioResult[];
  /** Spawn to the first answer of /healthz (a seeded, migrated database). */
  startMs: number;
  rss: { startupMB: number; idleMB?: number; roundMaxMB: number[]; afterRoundMB: number[]; breakdown: Record<string, Record<string, number>> };
  explain?: { scenario: string; sql: string; values: unknown[]; plan: string }[];
  profile?: ProfileSummary;
  /** The same profile with the fixed operations run by graphql-js (CAL_GRAPHQL_COMPILE=false): the executor's share before. */
  profileGraphqlJs?: ProfileSummary;
  /** The REST search's exact total at its floor (PostgreSQL): its matching rows alone, fetched by ID and rechecked. */
  searchFloor?: SearchFloor;
  /** GET /events?per_page=50 from the byte cache next to a static server sending the same bytes. */
  byteCache?: ByteCacheRun;
  /** Server CPU of one uncached 50-event page, REST and GraphQL, sequential requests (uncached-page.ts). */
  uncachedPage?: UncachedPage;
  /** The minimal handler's 50-event page, measured as `uncachedPage.scratch` is, in alternation with it (PostgreSQL). */
  minimalPage?: UncachedPage;
  /** Reads and authenticated writes at once, at fixed connection counts (BENCH_MIXED). */
  mixed?: { reads: LoadResult; writes: LoadResult; load1: number };
  /** Write time of a 100 KB description next to a 1 KB one (long-text.ts). */
  longText?: LongTextRow[];
}

const results: RunResult[] = [];
/** The edge bench (edge.ts), run last; a string when Varnish is missing here. */
let edge: EdgeResult | string | null = null;
let layers: LayerRow[] | string | null = null;
let telemetry: TelemetryRow[] | string | null = null;
const mb = (b: number) => +(b / 1048576).toFixed(1);

/* ---------------------------------------------------------------------------------------- cleanup */

const cleanups: (() => Promise<void> | void)[] = [];
async function cleanupAll() {
  killChildren();
  while (cleanups.length) {
    try {
      await cleanups.pop()!();
    } catch (e) {
      console.error(`cleanup: ${(e as Error).message}`);
    }
  }
}
for (const sig of ['SIGINT', 'SIGTERM'] as const) {
  process.on(sig, () => {
    console.error(`\n${sig}: stopping, cleaning up…`);
    void cleanupAll().finally(() => process.exit(130));
  });
}

async function admin<T>(url: string, f: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return await f(c);
  } finally {
    await c.end();
  }
}

function dbUrl(name: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.href;
}

/* ----------------------------------------------------------------------------------------- phases */

const authHeader = () => `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;

function requestOf(sc: Scenario, seed: SeedInfo) {
  const p = sc.path(seed);
  const b = sc.body?.(seed);
  const headers = { ...(sc.headers ?? {}), ...(sc.auth ? { authorization: authHeader() } : {}) };
  return {
    path: p,
    body: b,
    headers,
    one: () => ({ path: typeof p === 'function' ? p() : p, body: typeof b === 'function' ? b() : b }),
  };
}

/** Sequential requests: checks the answers and counts SQL statements per request. */
async function sqlPerRequest(child: Child, sc: Scenario, seed: SeedInfo) {
  const req = requestOf(sc, seed);
  const send = async () => {
    const { path: p, body } = req.one();
    const res = await fetch(child.baseUrl + p, { method: sc.method, headers: req.headers, body });
    const text = await res.text();
    if (res.status !== sc.expect) throw new Error(`${sc.label}: expected ${sc.expect}, got ${res.status}: ${text.slice(0, 500)}`);
    if (sc.graphql && JSON.parse(text).errors) throw new Error(`${sc.label}: GraphQL errors: ${text.slice(0, 500)}`);
    return { header: res.headers.get('x-sql-queries'), bytes: Buffer.byteLength(text), text };
  };
  const first = await send();
  const before = await child.sqlCount();
  let headerSum = 0;
  let headers = true;
  let bytes = 0;
  for (let i = 0; i < SQL_SAMPLES; i++) {
    const r = await send();
    bytes += r.bytes;
    if (r.header === null) headers = false;
    else headerSum += Number(r.header);
  }
  const after = await child.sqlCount();
  const bodyBytes = Math.round(bytes / SQL_SAMPLES);
  if (headers) return { sql: +(headerSum / SQL_SAMPLES).toFixed(2), source: 'X-SQL-Queries', bodyBytes, sample: first.text };
  if (before !== null && after !== null) return { sql: +((after - before) / SQL_SAMPLES).toFixed(2), source: 'driver counter', bodyBytes, sample: first.text };
  return { sql: null, source: 'n/a', bodyBytes, sample: first.text };
}

/** CPU used by the PostgreSQL backends connected to one database, per backend pid. */
type DbCpu = () => Promise<Map<number, number>>;


async function measure(
  child: Child,
  sc: Scenario,
  seed: SeedInfo,
  conns: number,
  round: number,
  rss: ReturnType<typeof rssSampler>,
  dbCpu: DbCpu | null,
): Promise<Measurement> {
  const req = requestOf(sc, seed);
  const spec = { baseUrl: child.baseUrl, method: sc.method, path: req.path, body: req.body, headers: req.headers, connections: conns };
  if (WARMUP > 0) await runLoad({ ...spec, durationSec: WARMUP });
  rss.take();
  const db0 = dbCpu ? await dbCpu() : null;
  const cpu0 = readCpuMs(child.pid);
  const r = await runLoad({ ...spec, durationSec: DURATION });
  const cpu1 = readCpuMs(child.pid);
  const db1 = dbCpu ? await dbCpu() : null;
  let dbMs: number | null = null;
  if (db0 && db1) {
    dbMs = 0;
    for (const [pid, ms] of db1) dbMs += ms - (db0.get(pid) ?? 0);
  }
  const per = (ms: number | null) => (ms === null || !r.requests ? null : +(ms / r.requests).toFixed(2));
  const m: Measurement = {
    ...r,
    round,
    rssMaxMB: mb(rss.take()),
    cpuMsPerReq: per(cpu0 !== null && cpu1 !== null ? cpu1 - cpu0 : null),
    dbCpuMsPerReq: per(dbMs),
    load1: +os.loadavg()[0].toFixed(2),
  };
  const bad = m.errors + m.timeouts + m.non2xx;
  process.stderr.write(
    `  r${round} ${sc.label.padEnd(44)} c=${String(conns).padStart(2)} ${String(m.rps).padStart(8)} req/s  p50 ${m.p50} ms  p99 ${m.p99} ms  CPU ${m.cpuMsPerReq}${m.dbCpuMsPerReq !== null ? `+${m.dbCpuMsPerReq}` : ''} ms/req  RSS ${m.rssMaxMB} MB  load ${m.load1}${bad ? `  ERRORS ${JSON.stringify({ errors: m.errors, timeouts: m.timeouts, non2xx: m.non2xx, codes: m.statusCodes })}` : ''}\n`,
  );
  return m;
}

/**
 * Reads and authenticated writes at the same time (a busy site with editors at work): `reads`
 * connections on GET /events and `writes` connections on POST /events, for BENCH_DURATION after a
 * warm-up; the latency of each side is its own.
 */
async function mixedLoad(child: Child, seed: SeedInfo, conns: { reads: number; writes: number }) {
  const spec = (key: string, connections: number) => {
    const sc = SCENARIOS.find((x) => x.key === key)!;
    const req = requestOf(sc, seed);
    return { baseUrl: child.baseUrl, method: sc.method, path: req.path, body: req.body, headers: req.headers, connections };
  };
  const [read, write] = [spec('events', conns.reads), spec('create', conns.writes)];
  if (WARMUP > 0) await Promise.all([runLoad({ ...read, durationSec: WARMUP }), runLoad({ ...write, durationSec: WARMUP })]);
  const [reads, writes] = await Promise.all([runLoad({ ...read, durationSec: DURATION }), runLoad({ ...write, durationSec: DURATION })]);
  const load1 = +os.loadavg()[0].toFixed(2);
  process.stderr.write(`  ${mixedLine({ reads, writes, load1 })}\n`);
  return { reads, writes, load1 };
}

function mixedLine(m: NonNullable<RunResult['mixed']>): string {
  const side = (r: LoadResult) =>
    `p50 ${f1(r.p50, 1)} ms  p99 ${f1(r.p99, 1)} ms  ${r.rps} req/s${r.errors + r.timeouts + r.non2xx ? `  ERRORS ${JSON.stringify({ errors: r.errors, timeouts: r.timeouts, non2xx: r.non2xx, codes: r.statusCodes })}` : ''}`;
  return (
    `mixed load: GET /events c=${m.reads.connections}: ${side(m.reads)}  ·  authenticated POST /events c=${m.writes.connections}: ${side(m.writes)}  (load ${m.load1})`
  );
}

async function explain(run: (sql: string, values: unknown[]) => Promise<string>, statements: { scenario: string; sql: string; values: unknown[] }[]) {
  const out: { scenario: string; sql: string; values: unknown[]; plan: string }[] = [];
  for (const st of statements) {
    if (!/^\s*(SELECT|WITH)\b/i.test(st.sql)) continue;
    await run(st.sql, st.values); // warm the cache; keep the second plan
    out.push({ ...st, plan: await run(st.sql, st.values) });
  }
  return out;
}

/**
 * A seeded database kept between runs (BENCH_KEEP_DB): seeding 100k events takes minutes. The seed's
 * summary rides along as the database's comment; a database without one is (re)seeded. Migrations
 * newer than the seed are applied by the server's start, as on any existing calendar.
 */
async function keptDatabase(name: string, size: number): Promise<{ url: string; seed: SeedInfo }> {
  const url = dbUrl(name);
  const comment = await admin(ADMIN_URL, async (c) => {
    const { rows } = await c.query<{ comment: string | null }>('SELECT shobj_description(oid, \'pg_database\') AS comment FROM pg_database WHERE datname = $1', [name]);
    if (!rows.length) await c.query(`CREATE DATABASE "${name}"`);
    return rows[0]?.comment ?? null;
  });
  if (comment?.startsWith('{')) {
    const seed = JSON.parse(comment) as SeedInfo;
    console.error(`reusing ${name} (${seed.events} events, seeded earlier; BENCH_KEEP_DB)`);
    return { url, seed: { ...seed, seconds: 0 } };
  }
  const seed = await seedUrl(url, undefined, { events: size, siteTimezone: SITE_TZ, label: `seed ${size} postgres (kept as ${name})` });
  await admin(url, (c) => c.query(`VACUUM ANALYZE`));
  await admin(ADMIN_URL, (c) => c.query(`COMMENT ON DATABASE "${name}" IS ${pg.escapeLiteral(JSON.stringify(seed))}`));
  return { url, seed };
}

async function benchOne(size: number, backend: Backend, profileHere: boolean) {
  console.error(`\n=== ${size} events on ${backend} ===`);
  let serverEnv: Record<string, string | undefined>;
  let pgUrl: string | undefined;
  let dataDir: string | undefined;
  let seed: SeedInfo;
  const t0 = Date.now();
  if (backend === 'postgres' && KEEP_DB) {
    ({ url: pgUrl, seed } = await keptDatabase(`${KEEP_DB}_${size}`, size));
    serverEnv = { DATABASE_URL: pgUrl, CAL_DATA_DIR: undefined };
  } else if (backend === 'postgres') {
    const name = `cal_bench_${process.pid}_${size}`;
    await admin(ADMIN_URL, (c) => c.query(`CREATE DATABASE "${name}"`));
    cleanups.push(() => admin(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined));
    pgUrl = dbUrl(name);
    seed = await seedUrl(pgUrl, undefined, { events: size, siteTimezone: SITE_TZ, label: `seed ${size} ${backend}` });
    serverEnv = { DATABASE_URL: pgUrl, CAL_DATA_DIR: undefined };
  } else {
    dataDir = mkdtempSync(path.join(os.tmpdir(), `cal-bench-${size}-`));
    const dir = dataDir;
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    seed = await seedUrl(undefined, dataDir, { events: size, siteTimezone: SITE_TZ, label: `seed ${size} ${backend}` });
    serverEnv = { DATABASE_URL: '', CAL_DATA_DIR: dataDir };
  }
  console.error(`seeded ${seed.rows} rows in ${seed.seconds.toFixed(1)} s (${((Date.now() - t0) / 1000).toFixed(1)} s with setup)`);

  const childEnv = {
    ...serverEnv,
    CAL_LOG_LEVEL: 'warn',
    CAL_ADMIN_LOGIN: ADMIN.login,
    CAL_ADMIN_PASSWORD: ADMIN.password,
    CAL_TIMEZONE: SITE_TZ,
    CAL_SITE_URL: undefined,
    // Uncached figures unless asked otherwise: the byte cache would answer repeated reads.
    CAL_CACHE_TTL_S: env.BENCH_CACHE_TTL_S ?? '0',
  };
  const server = await startChild({ script: serverScript(), root: productRoot, env: childEnv, sqlPreload: true, readyPath: '/healthz', label: 'server' });
  const rss = rssSampler(server.pid);
  const { sampleEvents, venueIds, organizerIds, tagIds, topCategories, ...seedSummary } = seed;
  const result: RunResult = {
    size,
    backend,
    seed: seedSummary,
    startMs: Math.round(server.readyMs),
    scenarios: [],
    rss: { startupMB: mb(rss.current() ?? 0), roundMaxMB: [], afterRoundMB: [], breakdown: {} },
  };
  console.error(`server answered /healthz ${result.startMs} ms after spawn, RSS ${result.rss.startupMB} MB`);
  const breakdown = async (when: string) => {
    const m = await server.memory();
    if (m) result.rss.breakdown[when] = Object.fromEntries(Object.entries(m).map(([k, v]) => [k, mb(v)]));
  };
  await breakdown('startup');
  rss.period();
  results.push(result);
  const selected = SCENARIOS.filter((s) => !ONLY || ONLY.has(s.key));

  // SQL per request (and a correctness check of every scenario).
  let listSample = '';
  for (const sc of selected) {
    const q = await sqlPerRequest(server, sc, seed);
    if (sc.key === 'events50') listSample = q.sample;
    result.scenarios.push({ key: sc.key, label: sc.label, sqlPerRequest: q.sql, sqlSource: q.source, bodyBytes: q.bodyBytes, runs: [] });
    console.error(`  ${sc.label.padEnd(47)} ${q.sql ?? '?'} SQL/request (${q.source}), ${(q.bodyBytes / 1024).toFixed(1)} KB`);
  }
  if (!listSample) listSample = await (await fetch(`${server.baseUrl}${NS}/events?per_page=50`)).text();
  // Idle: the process has served every route once, then rests.
  await new Promise((r) => setTimeout(r, 5000));
  result.rss.idleMB = mb(rss.current() ?? 0);
  // The bodies the static floor will serve: exactly what the server answers.
  const staticBodies: Record<string, string> = {};
  for (const sc of STATIC) staticBodies[sc.path(seed) as string] = await (await fetch(server.baseUrl + (sc.path(seed) as string))).text();

  // The statements of every read, for EXPLAIN ANALYZE.
  const listStatements: { scenario: string; sql: string; values: unknown[] }[] = [];
  for (const sc of selected.filter((x) => x.method === 'GET' || x.graphql)) {
    const req = requestOf(sc, seed).one();
    await server.record();
    await fetch(server.baseUrl + req.path, { method: sc.method, headers: requestOf(sc, seed).headers, body: req.body }).then((r) => r.text());
    for (const st of await server.dump()) listStatements.push({ scenario: sc.label, ...st });
  }

  const dbClient = pgUrl ? new pg.Client({ connectionString: pgUrl }) : null;
  await dbClient?.connect();
  const dbCpu = dbClient ? dbCpuReader(dbClient) : null;
  const searchLabel = SCENARIOS.find((x) => x.key === 'search')!.label;
  if (dbClient) result.searchFloor = (await searchCountFloor(dbClient, listStatements.filter((st) => st.scenario === searchLabel), seed.searchWord)) ?? undefined;
  if (result.searchFloor) console.error(`  search count floor: ${result.searchFloor.matches} matches, ${result.searchFloor.ms} ms`);

  const cleanupPosts = async () => {
    if (pgUrl) await admin(pgUrl, (c) => c.query('DELETE FROM "Post" WHERE id > $1', [seed.maxPostId]));
  };
  await cleanupPosts();

  for (let round = 1; round <= ROUNDS; round++) {
    for (const sc of selected) {
      const target = result.scenarios.find((s) => s.key === sc.key)!;
      for (const conns of CONNECTIONS) target.runs.push(await measure(server, sc, seed, conns, round, rss, dbCpu));
      if (sc.key === 'create') await cleanupPosts(); // PostgreSQL only: PGlite is held by the server
    }
    result.rss.roundMaxMB.push(mb(rss.period()));
    result.rss.afterRoundMB.push(mb(rss.current() ?? 0));
    await breakdown(`after round ${round}`);
  }
  if (MIXED && (!ONLY || ONLY.has('mixed'))) {
    result.mixed = await mixedLoad(server, seed, MIXED);
    await cleanupPosts();
  }
  if (!ONLY || ONLY.has('longtext')) {
    result.longText = await measureLongText(server.baseUrl, server.pid, { admin: authHeader() });
    console.error(formatLongText(result.longText));
    await cleanupPosts();
  }
  rss.stop();
  await server.stop();

  const dbTotal = dbCpu
    ? async () => {
        let ms = 0;
        for (const v of (await dbCpu()).values()) ms += v;
        return ms;
      }
    : undefined;
  if (UNCACHED && (!ONLY || selected.length)) {
    // One uncached page (every origin cache off), measured alone first.
    const plain = await startChild({ script: serverScript(), root: productRoot, env: { ...childEnv, CAL_CACHE_TTL_S: '0' }, sqlPreload: true, label: 'server, caches off' });
    result.uncachedPage = await measureUncachedPage(plain.baseUrl, plain.pid, { root: productRoot, dbCpuMs: dbTotal });
    await plain.stop();
    // Every cache off (CAL_CACHE_TTL_S=0): every event presented from scratch, next to the minimal handler.
    const scratch = await startChild({ script: serverScript(), root: productRoot, env: { ...childEnv, CAL_CACHE_TTL_S: '0' }, sqlPreload: true, label: 'server, every cache off' });
    if (childEnv.CAL_CACHE_TTL_S !== '0') {
      // The rows above had caches on: the same reads from scratch, side by side.
      const prss = rssSampler(scratch.pid);
      for (const sc of selected.filter((x) => x.key !== 'create')) {
        const cached = result.scenarios.find((x) => x.key === sc.key)!;
        const entry: ScenarioResult = { ...cached, key: `${sc.key}:uncached`, label: `${sc.label} (uncached)`, runs: [] };
        for (const conns of CONNECTIONS) entry.runs.push(await measure(scratch, { ...sc, label: entry.label }, seed, conns, 1, prss, dbCpu));
        result.scenarios.push(entry);
      }
      prss.stop();
    }
    if (pgUrl) {
      // The from-scratch page and the minimal handler's, in alternation on one database (a busy
      // machine then weighs on both alike).
      const minimal = await startChild({ script: 'test/bench/minimal-handler.ts', env: { ...serverEnv, CAL_TIMEZONE: SITE_TZ }, label: 'minimal handler' });
      const ours: UncachedPage[] = [];
      const theirs: UncachedPage[] = [];
      for (let i = 0; i < 3; i++) {
        ours.push(await measureUncachedPage(scratch.baseUrl, scratch.pid, { root: productRoot, dbCpuMs: dbTotal, batches: 3, warmup: i ? 0 : undefined }));
        theirs.push(await measureUncachedPage(minimal.baseUrl, minimal.pid, { graphql: false, dbCpuMs: dbTotal, batches: 3, warmup: i ? 0 : undefined }));
      }
      result.uncachedPage.scratch = medianPage(ours);
      result.minimalPage = medianPage(theirs);
      await minimal.stop();
    } else {
      result.uncachedPage.scratch = await measureUncachedPage(scratch.baseUrl, scratch.pid, { root: productRoot });
    }
    console.error(formatUncachedPage(result.uncachedPage));
    if (result.minimalPage) console.error(minimalPageLine(result.uncachedPage.scratch, result.minimalPage));
    await scratch.stop();
  }

  if (EXPLAIN && listStatements.length) {
    if (pgUrl) {
      result.explain = await admin(pgUrl, (c) =>
        explain(async (sql, values) => (await c.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, values)).rows.map((r) => r['QUERY PLAN']).join('\n'), listStatements),
      );
    } else {
      const db = await PGlite.create(dataDir!, { extensions: { pg_trgm } });
      try {
        result.explain = await explain(
          async (sql, values) => (await db.query<Record<string, string>>(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`, values)).rows.map((r) => r['QUERY PLAN']).join('\n'),
          listStatements,
        );
      } finally {
        await db.close();
      }
    }
  }

  // The practical limit: the minimal handler on the same data (PGlite: after the server let go of it).
  if (!ONLY || ONLY.has('minimal50') || ONLY.has('events50')) {
    const minimal = await startChild({ script: 'test/bench/minimal-handler.ts', env: { ...serverEnv, CAL_TIMEZONE: SITE_TZ }, label: 'minimal handler' });
    const mrss = rssSampler(minimal.pid);
    const q = await sqlPerRequest(minimal, MINIMAL, seed);
    const ids = (t: string) => JSON.stringify((JSON.parse(t).events as { id: number }[]).map((e) => e.id));
    if (ids(q.sample) !== ids(listSample)) console.error('  WARNING: the minimal handler does not list the same events as GET /events?per_page=50');
    const entry: ScenarioResult = { key: MINIMAL.key, label: MINIMAL.label, sqlPerRequest: q.sql, sqlSource: q.source, bodyBytes: q.bodyBytes, runs: [] };
    result.scenarios.push(entry);
    for (const conns of CONNECTIONS) entry.runs.push(await measure(minimal, MINIMAL, seed, conns, 1, mrss, dbCpu));
    mrss.stop();
    await minimal.stop();
  }

  await dbClient?.end();
  if (BYTECACHE && (!ONLY || ONLY.has('events50') || ONLY.has('bytecache'))) result.byteCache = await byteCacheVsStatic(childEnv);
  await staticFloor(result, staticBodies, seed);
  if (COMPARE_URL) await compareWith(COMPARE_URL, result, seed);
  if (profileHere) {
    // graphql-js first, then compiled (the default): the executor's share before and after.
    result.profileGraphqlJs = await profileServer({ ...childEnv, CAL_GRAPHQL_COMPILE: 'false' }, seed);
    result.profile = await profileServer(childEnv, seed);
  }

  // Drop this size's database / directory now rather than at exit (a kept database stays).
  if (!(backend === 'postgres' && KEEP_DB)) await cleanups.pop()?.();
}

/** Field by field, the median of several measures of one page. */
function medianPage(pages: UncachedPage[]): UncachedPage {
  const med = (f: (u: UncachedPage) => number | undefined) => {
    const xs = pages.map(f).filter((x): x is number => x !== undefined && Number.isFinite(x)).sort((a, b) => a - b);
    return xs.length ? xs[xs.length >> 1]! : NaN;
  };
  const restMs = med((u) => u.restMs);
  const graphqlMs = med((u) => u.graphqlMs);
  return {
    ...pages[0]!,
    restMs,
    graphqlMs,
    ratio: +(restMs / graphqlMs).toFixed(2),
    restDbMs: med((u) => u.restDbMs),
    graphqlDbMs: med((u) => u.graphqlDbMs),
    batches: pages.reduce((a, u) => a + u.batches, 0),
  };
}

/** The from-scratch page against the minimal handler's: server CPU, and server + database CPU. */
function minimalPageLine(ours: UncachedPage | undefined, minimal: UncachedPage): string {
  if (!ours) return '';
  const both = (u: UncachedPage) => u.restMs + (u.restDbMs ?? 0);
  return (
    `from-scratch 50-event page vs minimal handler (server CPU, + database CPU): ours ${ours.restMs} + ${f1(ours.restDbMs)} ms, ` +
    `minimal ${minimal.restMs} + ${f1(minimal.restDbMs)} ms → ${(ours.restMs / minimal.restMs).toFixed(2)}× server CPU, ${(both(ours) / both(minimal)).toFixed(2)}× with the database`
  );
}

/** One server run under --cpu-prof while GET /events?per_page=50 is hammered at the highest connection count. */
async function staticFloor(result: RunResult, bodies: Record<string, string>, seed: SeedInfo) {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cal-bench-static-')), 'bodies.json');
  cleanups.push(() => rmSync(path.dirname(file), { recursive: true, force: true }));
  writeFileSync(file, JSON.stringify(bodies));
  const floor = await startChild({ script: 'test/bench/static-floor.ts', env: { BENCH_STATIC_BODIES: file }, label: 'static floor' });
  const frss = rssSampler(floor.pid);
  for (const sc of STATIC) {
    const entry: ScenarioResult = { key: sc.key, label: sc.label, sqlPerRequest: 0, sqlSource: 'n/a', bodyBytes: Buffer.byteLength(bodies[sc.path(seed) as string]), runs: [] };
    result.scenarios.push(entry);
    for (const conns of CONNECTIONS) entry.runs.push(await measure(floor, sc, seed, conns, 1, frss, null));
  }
  frss.stop();
  await floor.stop();
  cleanups.pop()?.();
}

interface ByteCacheRun {
  path: string;
  /** Bytes of the body as sent: identity, gzip, brotli. */
  sizes: { identity: number; gzip: number; br: number };
  rows: { conns: number; encoding: 'identity' | 'br'; cached: LoadResult; static: LoadResult; cpuMsPerReq: number | null; ratio: number }[];
}

/** GET with node:http: the bytes on the wire (fetch would decompress them). */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/**
 * The byte cache against the transport's floor: a server with the caches on (CAL_CACHE_TTL_S=5,
 * the default) answers GET /events?per_page=50 from stored bytes; then the static floor sends the very
 * bytes it answered (identity, and the brotli variant to `Accept-Encoding: br`). One process each, in turn.
 */
async function byteCacheVsStatic(childEnv: Record<string, string | undefined>): Promise<ByteCacheRun> {
  const listPath = `${NS}/events?per_page=50`;
  const server = await startChild({ script: serverScript(), root: productRoot, env: { ...childEnv, CAL_CACHE_TTL_S: '5' }, label: 'cached server' });
  const variants: Record<string, Buffer> = {};
  for (const encoding of ['identity', 'gzip', 'br'] as const) {
    const headers: Record<string, string> = encoding === 'identity' ? {} : { 'accept-encoding': encoding };
    await rawGet(server.baseUrl + listPath, headers); // stores it
    const r = await rawGet(server.baseUrl + listPath, headers);
    if (r.status !== 200 || r.headers['x-cache'] !== 'HIT' || (r.headers['content-encoding'] ?? 'identity') !== encoding) {
      throw new Error(`byte cache: ${encoding} read answered ${r.status}, X-Cache ${String(r.headers['x-cache'])}, Content-Encoding ${String(r.headers['content-encoding'])}`);
    }
    variants[encoding] = r.body;
  }
  const sizes = { identity: variants.identity.length, gzip: variants.gzip.length, br: variants.br.length };
  console.error(`  byte cache: ${listPath} is ${sizes.identity} bytes, gzip ${sizes.gzip}, brotli ${sizes.br}`);
  const noRss = { take: () => 0, period: () => 0, current: () => null, stop: () => {} } as unknown as ReturnType<typeof rssSampler>;
  const scenario = (encoding: 'identity' | 'br', target: Scenario['target']): Scenario => ({
    key: `bytecache:${encoding}`,
    label: `${target === 'static' ? 'static' : 'byte cache'} ${encoding} GET /events?per_page=50`,
    method: 'GET',
    target,
    path: () => listPath,
    headers: encoding === 'br' ? { 'accept-encoding': 'br' } : {},
    expect: 200,
  });
  const fakeSeed = {} as SeedInfo;
  const cached: Record<string, Measurement> = {};
  for (const encoding of ['identity', 'br'] as const) {
    for (const conns of CONNECTIONS) cached[`${encoding}:${conns}`] = await measure(server, scenario(encoding, 'server'), fakeSeed, conns, 1, noRss, null);
  }
  await server.stop();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cal-bench-bytes-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(path.join(dir, 'bodies.json'), JSON.stringify({ [listPath]: variants.identity.toString('utf8') }));
  writeFileSync(path.join(dir, 'encoded.json'), JSON.stringify({ [listPath]: { br: variants.br.toString('base64'), gzip: variants.gzip.toString('base64') } }));
  const floor = await startChild({
    script: 'test/bench/static-floor.ts',
    env: { BENCH_STATIC_BODIES: path.join(dir, 'bodies.json'), BENCH_STATIC_ENCODED: path.join(dir, 'encoded.json') },
    label: 'static floor (byte cache)',
  });
  const rows: ByteCacheRun['rows'] = [];
  for (const encoding of ['identity', 'br'] as const) {
    for (const conns of CONNECTIONS) {
      const floorRun = await measure(floor, scenario(encoding, 'static'), fakeSeed, conns, 1, noRss, null);
      const ours = cached[`${encoding}:${conns}`]!;
      rows.push({ conns, encoding, cached: ours, static: floorRun, cpuMsPerReq: ours.cpuMsPerReq, ratio: +(ours.rps / floorRun.rps).toFixed(3) });
    }
  }
  await floor.stop();
  cleanups.pop()?.();
  return { path: listPath, sizes, rows };
}

function byteCacheLines(b: ByteCacheRun): string[] {
  const kb = (n: number) => `${(n / 1024).toFixed(1)} KB`;
  const lines = [`byte cache ${b.path}: identity ${kb(b.sizes.identity)}, gzip ${kb(b.sizes.gzip)}, brotli ${kb(b.sizes.br)} on the wire`];
  for (const r of b.rows) {
    lines.push(
      `c=${r.conns} ${r.encoding.padEnd(8)}: byte cache ${r.cached.rps} req/s (p50 ${r.cached.p50} ms, CPU ${f1(r.cpuMsPerReq, 2)} ms/req) ÷ static ${r.static.rps} req/s = ${r.ratio.toFixed(3)}`,
    );
  }
  return lines;
}

/** The comparable scenarios against BENCH_COMPARE_URL (its CPU and RSS are not ours to read). */
async function compareWith(url: URL, result: RunResult, seed: SeedInfo) {
  const other = { pid: -1, port: Number(url.port), readyMs: 0, baseUrl: url.origin } as Child;
  const noRss = { take: () => 0, period: () => 0, current: () => null, stop: () => {} } as unknown as ReturnType<typeof rssSampler>;
  const prefix = url.pathname;
  for (const key of COMPARABLE) {
    const ours = SCENARIOS.find((s) => s.key === key)!;
    if (ONLY && !ONLY.has(key)) continue;
    const sc: Scenario = { ...ours, key: `compare:${key}`, label: `compare ${ours.label}`, target: 'compare', path: (s) => (ours.path(s) as string).replace(NS, prefix) };
    const res = await fetch(url.origin + (sc.path(seed) as string)).catch((e: Error) => e);
    if (res instanceof Error || res.status !== 200) {
      console.error(`  compare: ${sc.label}: ${res instanceof Error ? (res.cause as Error)?.message ?? res.message : `answered ${res.status}`}; skipped`);
      continue;
    }
    const body = await res.text();
    const entry: ScenarioResult = { key: sc.key, label: sc.label, sqlPerRequest: null, sqlSource: 'n/a', bodyBytes: Buffer.byteLength(body), runs: [] };
    result.scenarios.push(entry);
    for (const conns of CONNECTIONS) entry.runs.push(await measure(other, sc, seed, conns, 1, noRss, null));
  }
}

/** `server req/s ÷ other req/s` per connection count, for the static floor and the compared implementation. */
function floorRatios(r: RunResult): string[] {
  const lines: string[] = [];
  const rps = (key: string, c: number) => r.scenarios.find((s) => s.key === key)?.runs.filter((m) => m.connections === c).at(-1)?.rps;
  for (const c of CONNECTIONS) {
    for (const key of ['events', 'events50']) {
      const [ours, floor] = [rps(key, c), rps(`static:${key}`, c)];
      if (ours && floor) lines.push(`c=${c}: ${key} ${ours} req/s ÷ static floor ${floor} req/s = ${(ours / floor).toFixed(3)}`);
    }
    for (const key of COMPARABLE) {
      const [ours, theirs] = [rps(key, c), rps(`compare:${key}`, c)];
      if (ours && theirs) lines.push(`c=${c}: ${key} ${ours} req/s ÷ ${COMPARE_URL?.host} ${theirs} req/s = ${(ours / theirs).toFixed(2)}×`);
    }
  }
  return lines;
}

interface SearchFloor {
  /** Events the REST search's total counts. */
  matches: number;
  /** CPU time of the database backend per run of the floor statement, ms (as the reads' DB CPU is counted). */
  ms: number;
}

/**
 * The floor of an exact total of the REST search: the rows it counts, alone, fetched by ID and their
 * text match rechecked (no window bitmap, no category links): what any exact count must at least read.
 * The IDs come from the search's own count statement (recorded above), its COUNT turned into the IDs.
 */
async function searchCountFloor(client: pg.Client, statements: { sql: string; values: unknown[] }[], word: string): Promise<SearchFloor | null> {
  const count = statements.find((st) => /^SELECT COUNT\(\*\) AS "_count\$_all" FROM \(/.test(st.sql));
  if (!count) return null;
  const { rows } = await client.query<{ id: number }>(count.sql.replace('COUNT(*) AS "_count$_all"', '"sub"."id"'), count.values);
  const ids = rows.map((r) => r.id);
  const floor = 'SELECT count(*)::int AS n FROM "Event" WHERE id = ANY($1::int[]) AND ("title" ILIKE $2 OR "excerpt" ILIKE $2 OR "content" ILIKE $2)';
  const pattern = `%${word}%`;
  const run = async () => {
    const { rows: n } = await client.query<{ n: number }>(floor, [ids, pattern]);
    if (n[0]!.n !== ids.length) throw new Error(`search floor: ${n[0]!.n} of ${ids.length} rows rechecked`);
  };
  for (let i = 0; i < 5; i++) await run();
  // The backend's own CPU time, not the wall time: a busy machine stretches the latter.
  const { rows: me } = await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  const runs = 40;
  const c0 = readCpuMs(me[0]!.pid);
  for (let i = 0; i < runs; i++) await run();
  const c1 = readCpuMs(me[0]!.pid);
  if (c0 === null || c1 === null) return null;
  return { matches: ids.length, ms: +((c1 - c0) / runs).toFixed(2) };
}

async function profileServer(childEnv: Record<string, string | undefined>, seed: SeedInfo): Promise<ProfileSummary> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cal-bench-prof-'));
  try {
    const server = await startChild({ script: serverScript(), root: productRoot, env: childEnv, nodeFlags: ['--cpu-prof', `--cpu-prof-dir=${dir}`], label: 'profiled server' });
    const sc = SCENARIOS.find((s) => s.key === 'events50')!;
    const conns = Math.max(...CONNECTIONS);
    const req = requestOf(sc, seed);
    const spawned = performance.now() - server.readyMs;
    await runLoad({ baseUrl: server.baseUrl, path: req.path, connections: conns, durationSec: WARMUP || 1 });
    const measuredFrom = performance.now() - spawned;
    const r = await runLoad({ baseUrl: server.baseUrl, path: req.path, connections: conns, durationSec: DURATION });
    console.error(`  profiled run: ${r.rps} req/s (with --cpu-prof)`);
    await server.stop();
    const file = readdirSync(dir).find((f) => f.endsWith('.cpuprofile'));
    if (!file) throw new Error('no .cpuprofile written');
    // Only the measured run: startup, module loading and the warm-up are left out.
    const summary = summarizeCpuProfile(path.join(dir, file), 30, measuredFrom);
    if (env.BENCH_PROFILE_OUT) copyFileSync(path.join(dir, file), path.resolve(env.BENCH_PROFILE_OUT));
    console.error(formatProfile(summary));
    return summary;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/* ----------------------------------------------------------------------------------------- report */

const f1 = (n: number | null | undefined, d = 1) => (n === null || n === undefined || Number.isNaN(n) ? '–' : n.toFixed(d));
const last = (runs: Measurement[], conns: number) => runs.filter((r) => r.connections === conns).at(-1);
const first = (runs: Measurement[], conns: number) => runs.filter((r) => r.connections === conns)[0];

function table(r: RunResult): string {
  const head = ['scenario', 'conn', 'req/s', 'r1 req/s', 'p50 ms', 'p99 ms', 'err', 'non2xx', 'SQL/req', 'CPU ms/req', 'DB ms/req', 'body KB', 'RSS MB r1→r2'];
  const rows: string[][] = [];
  for (const s of r.scenarios) {
    for (const c of CONNECTIONS) {
      const m = last(s.runs, c);
      if (!m) continue;
      const rs = s.runs.filter((x) => x.connections === c).map((x) => x.rssMaxMB.toFixed(0));
      rows.push([
        s.label,
        String(c),
        f1(m.rps),
        s.runs.filter((x) => x.connections === c).length > 1 ? f1(first(s.runs, c)!.rps) : '',
        f1(m.p50, 2),
        f1(m.p99, 2),
        String(m.errors + m.timeouts),
        String(m.non2xx),
        f1(s.sqlPerRequest, 1),
        f1(m.cpuMsPerReq, 1),
        f1(m.dbCpuMsPerReq, 1),
        f1(s.bodyBytes / 1024, 1),
        rs.join('→'),
      ]);
    }
  }
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const fmt = (row: string[]) => row.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

interface Ratios {
  conns: number;
  /** From throughput: GraphQL req/s ÷ REST req/s. */
  restPerGraphqlCost: number | null;
  /** From throughput: REST req/s ÷ minimal req/s. */
  restPerMinimal: number | null;
  /** From CPU per request (server + database): REST ÷ GraphQL; less sensitive to a busy machine. */
  restPerGraphqlCpu: number | null;
  /** From CPU per request (server + database): minimal ÷ REST, i.e. the throughput ratio on a CPU-bound machine. */
  restPerMinimalCpu: number | null;
}

function ratios(r: RunResult): Ratios[] {
  const get = (k: string) => r.scenarios.find((s) => s.key === k);
  return CONNECTIONS.map((c) => {
    const rest = last(get('events50')?.runs ?? [], c)?.rps;
    const gql = last(get('graphql50')?.runs ?? [], c)?.rps;
    const min = last(get('minimal50')?.runs ?? [], c)?.rps;
    const cpu = (k: string) => {
      const m = last(get(k)?.runs ?? [], c);
      return m?.cpuMsPerReq ? m.cpuMsPerReq + (m.dbCpuMsPerReq ?? 0) : null;
    };
    const [restCpu, gqlCpu, minCpu] = [cpu('events50'), cpu('graphql50'), cpu('minimal50')];
    return {
      conns: c,
      // Cost per request is 1/throughput: REST cost / GraphQL cost = GraphQL req/s / REST req/s.
      restPerGraphqlCost: rest && gql ? +(gql / rest).toFixed(2) : null,
      restPerMinimal: rest && min ? +(rest / min).toFixed(2) : null,
      restPerGraphqlCpu: restCpu && gqlCpu ? +(restCpu / gqlCpu).toFixed(2) : null,
      restPerMinimalCpu: restCpu && minCpu ? +(minCpu / restCpu).toFixed(2) : null,
    };
  });
}

interface Target {
  what: string;
  target: string;
  measured: string;
  ok: boolean | null;
}

function targets(): Target[] {
  const out: Target[] = [];
  const maxC = Math.max(...CONNECTIONS);
  const find = (size: number, backend: Backend) => results.find((r) => r.size === size && r.backend === backend);
  const rps = (r: RunResult | undefined, k: string) => (r ? last(r.scenarios.find((s) => s.key === k)?.runs ?? [], maxC)?.rps : undefined);
  const pg1k = find(1000, 'postgres');
  for (const [k, t] of [['events', 1050], ['events50', 575], ['event', 2400], ['venues', 2500], ['create', 550]] as const) {
    const v = rps(pg1k, k);
    out.push({ what: `1k PostgreSQL c=${maxC} ${SCENARIOS.find((s) => s.key === k)!.label}`, target: `≥ ${t} req/s`, measured: v === undefined ? 'not run' : `${v} req/s (${((v / t) * 100).toFixed(0)} %)`, ok: v === undefined ? null : v >= t });
  }
  if (pg1k) {
    const errs = pg1k.scenarios.flatMap((s) => s.runs).reduce((a, m) => a + m.errors + m.timeouts + m.non2xx, 0);
    out.push({ what: '1k PostgreSQL errors / non-2xx (all runs)', target: '0', measured: String(errs), ok: errs === 0 });
  }
  for (const r of results) {
    const rt = ratios(r).find((x) => x.conns === maxC)!;
    if (r.size === 10000 || SIZES.length === 1) {
      out.push({
        what: `${r.size / 1000}k ${r.backend} per_page=50 REST / minimal`,
        target: '≥ 0.67',
        measured: `${f1(rt.restPerMinimal, 2)} (by CPU ${f1(rt.restPerMinimalCpu, 2)})`,
        ok: rt.restPerMinimal === null ? null : rt.restPerMinimal >= 0.67,
      });
      out.push({
        what: `${r.size / 1000}k ${r.backend} REST cost / GraphQL cost`,
        target: '≤ 1.3',
        measured: `${f1(rt.restPerGraphqlCost, 2)} (by CPU ${f1(rt.restPerGraphqlCpu, 2)})`,
        ok: rt.restPerGraphqlCost === null ? null : rt.restPerGraphqlCost <= 1.3,
      });
    }
  }
  for (const r of results) {
    for (const row of r.byteCache?.rows.filter((x) => x.conns === maxC) ?? []) {
      out.push({ what: `${r.size / 1000}k ${r.backend} byte cache per_page=50 ${row.encoding} / static`, target: '≥ 0.5', measured: row.ratio.toFixed(3), ok: row.ratio >= 0.5 });
    }
  }
  for (const backend of BACKENDS) {
    const runs = results.filter((r) => r.backend === backend).sort((a, b) => a.size - b.size);
    if (runs.length < 2) continue;
    const p50 = (r: RunResult) => last(r.scenarios.find((s) => s.key === 'events')?.runs ?? [], maxC)?.p50;
    const a = p50(runs[0]);
    const b = p50(runs.at(-1)!);
    if (a && b) {
      out.push({
        what: `${backend} p50 GET /events ${runs[0].size / 1000}k → ${runs.at(-1)!.size / 1000}k (c=${maxC})`,
        target: '< 2× (1k → 100k)',
        measured: `${a} → ${b} ms (${(b / a).toFixed(2)}×)`,
        ok: b / a < 2,
      });
    }
  }
  for (const backend of BACKENDS) {
    const g = growthRows(backend, Math.min(...CONNECTIONS));
    for (const r of g?.rows ?? []) {
      out.push({
        what: `${backend} p50 ${r.label} ${g!.small.size / 1000}k → ${g!.large.size / 1000}k (c=${Math.min(...CONNECTIONS)})`,
        target: '< 2×',
        measured: `${r.a.p50} → ${r.b.p50} ms (${r.p50Growth.toFixed(2)}×)`,
        ok: r.p50Growth < 2,
      });
    }
  }
  for (const r of results) {
    const z = r.uncachedPage?.scratch;
    if (z && r.minimalPage) {
      out.push({ what: `${r.size / 1000}k ${r.backend} from-scratch per_page=50 ÷ minimal, server CPU`, target: '≤ 1.5', measured: `${(z.restMs / r.minimalPage.restMs).toFixed(2)} (${z.restMs} / ${r.minimalPage.restMs} ms)`, ok: z.restMs / r.minimalPage.restMs <= 1.5 });
    }
    const cpu = (k: string) => {
      const m = last(r.scenarios.find((s) => s.key === k)?.runs ?? [], Math.min(...CONNECTIONS));
      return m?.cpuMsPerReq != null ? m.cpuMsPerReq + (m.dbCpuMsPerReq ?? 0) : null;
    };
    const [search, plain] = [cpu('search'), cpu('events')];
    if (search && plain) {
      out.push({ what: `${r.size / 1000}k ${r.backend} search+category ÷ GET /events, CPU+DB per request`, target: '(shown)', measured: `${(search / plain).toFixed(2)} (${search.toFixed(1)} / ${plain.toFixed(1)} ms)`, ok: true });
      const floor = r.searchFloor;
      if (floor) {
        const bound = plain + floor.ms;
        out.push({
          what: `${r.size / 1000}k ${r.backend} search+category ÷ (GET /events + its count's floor), CPU+DB`,
          target: '≤ 1.2',
          measured: `${(search / bound).toFixed(2)} (${search.toFixed(1)} / (${plain.toFixed(1)} + ${floor.ms} ms, ${floor.matches} matches))`,
          ok: search / bound <= 1.2,
        });
      }
    }
  }
  const listSql = results.flatMap((r) => r.scenarios.filter((s) => ['events', 'events50', 'search', 'venues', 'categories', 'graphql50'].includes(s.key)).map((s) => s.sqlPerRequest ?? 0));
  if (listSql.length) out.push({ what: 'SQL per list request (max over lists)', target: '≤ 6', measured: String(Math.max(...listSql)), ok: Math.max(...listSql) <= 6 });
  const rssMax = Math.max(...results.flatMap((r) => r.rss.roundMaxMB));
  if (Number.isFinite(rssMax)) out.push({ what: 'server RSS (max over all runs)', target: '≤ 250 MB', measured: `${rssMax} MB`, ok: rssMax <= 250 });
  for (const r of results) {
    const limit = r.backend === 'postgres' ? 150 : 300;
    if (r.rss.idleMB !== undefined) out.push({ what: `${r.size / 1000}k ${r.backend} idle RSS`, target: `≤ ${limit} MB`, measured: `${r.rss.idleMB} MB`, ok: r.rss.idleMB <= limit });
    out.push({ what: `${r.size / 1000}k ${r.backend} start to /healthz`, target: '≤ 1000 ms', measured: `${r.startMs} ms`, ok: r.startMs <= 1000 });
    const u = r.uncachedPage;
    if (u) {
      out.push({ what: `${r.size / 1000}k ${r.backend} uncached per_page=50, server CPU`, target: '≤ 15 ms', measured: `${u.restMs} ms`, ok: u.restMs <= 15 });
      out.push({ what: `${r.size / 1000}k ${r.backend} uncached per_page=50, REST ÷ GraphQL CPU`, target: '≤ 1.3', measured: `${u.ratio} (${u.restMs} / ${u.graphqlMs} ms)`, ok: u.ratio <= 1.3 });
      const z = u.scratch;
      if (z) {
        out.push({ what: `${r.size / 1000}k ${r.backend} uncached per_page=50 from scratch (alternating with the minimal handler), server CPU`, target: '(no target)', measured: `${z.restMs} ms`, ok: null });
        out.push({ what: `${r.size / 1000}k ${r.backend} uncached per_page=50 from scratch, REST ÷ GraphQL CPU`, target: '≤ 1.3', measured: `${z.ratio} (${z.restMs} / ${z.graphqlMs} ms)`, ok: z.ratio <= 1.3 });
      }
    }
  }
  if (edge !== null && typeof edge !== 'string') {
    for (const [label, ratio] of Object.entries(edge.hitRatios)) {
      out.push({ what: `edge (Varnish) hit ratio, ${label}`, target: '(reported)', measured: `${(ratio * 100).toFixed(1)} %`, ok: null });
    }
    const w = edge.writeVisible;
    out.push({ what: 'edge: write → visible, p50 / p99', target: '(reported)', measured: `${w.p50.toFixed(1)} / ${w.p99.toFixed(1)} ms (${w.writes} writes)`, ok: null });
    out.push({ what: 'edge: first read after an answered write stale', target: '0', measured: String(w.staleAfterAnswer), ok: w.staleAfterAnswer === 0 });
  } else if (EDGE) out.push({ what: 'edge (Varnish)', target: '(reported)', measured: typeof edge === 'string' ? edge : 'not run', ok: null });
  return out;
}

/** Reads of the server (not the minimal handler, the floors or the other implementation). */
const isServerRead = (s: ScenarioResult) => SCENARIOS.some((x) => x.key === s.key.replace(/:uncached$/, '') && x.key !== 'create');

/** Per backend, every read at the smallest and the largest size side by side, with the growth of p50 and of CPU per request. */
function growthRows(backend: Backend, conns: number) {
  const runs = results.filter((r) => r.backend === backend).sort((a, b) => a.size - b.size);
  if (runs.length < 2) return null;
  const [small, large] = [runs[0]!, runs.at(-1)!];
  const cpu = (m: Measurement | undefined) => (m?.cpuMsPerReq != null ? m.cpuMsPerReq + (m.dbCpuMsPerReq ?? 0) : null);
  const rows = small.scenarios.filter(isServerRead).flatMap((s) => {
    const a = last(s.runs, conns);
    const b = last(large.scenarios.find((x) => x.key === s.key)?.runs ?? [], conns);
    return a && b ? [{ key: s.key, label: s.label, a, b, p50Growth: b.p50 / a.p50, cpuA: cpu(a), cpuB: cpu(b) }] : [];
  });
  return { small, large, rows };
}

function growthTable(backend: Backend): string[] {
  const out: string[] = [];
  for (const c of CONNECTIONS) {
    const g = growthRows(backend, c);
    if (!g) return out;
    const head = ['read (every cache off)', `p50 ${g.small.size / 1000}k`, `p50 ${g.large.size / 1000}k`, 'growth', `CPU+DB ${g.small.size / 1000}k`, `CPU+DB ${g.large.size / 1000}k`, 'growth'];
    const rows = g.rows.map((r) => [
      r.label,
      f1(r.a.p50, 2),
      f1(r.b.p50, 2),
      `${r.p50Growth.toFixed(2)}×`,
      f1(r.cpuA, 1),
      f1(r.cpuB, 1),
      r.cpuA && r.cpuB ? `${(r.cpuB / r.cpuA).toFixed(2)}×` : '–',
    ]);
    const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
    const fmt = (row: string[]) => row.map((x, i) => (i === 0 ? x.padEnd(widths[i]!) : x.padStart(widths[i]!))).join('  ');
    out.push(`\n## ${backend}: ${g.small.size} → ${g.large.size} events, c=${c} (ms; CPU+DB = server + database CPU per request)\n`, fmt(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt));
  }
  return out;
}

function report(): string {
  const parts: string[] = [];
  for (const r of results) {
    parts.push(`\n## ${r.size} events · ${r.backend}  (seeded ${r.seed.rows} rows in ${r.seed.seconds.toFixed(1)} s)\n`);
    parts.push(table(r));
    if (r.mixed) parts.push(mixedLine(r.mixed));
    if (r.longText) parts.push(formatLongText(r.longText));
    for (const x of ratios(r)) {
      parts.push(
        `c=${x.conns}: REST/GraphQL cost ${f1(x.restPerGraphqlCost, 2)}× (CPU ${f1(x.restPerGraphqlCpu, 2)}×)   REST/minimal throughput ${f1(x.restPerMinimal, 2)}× (CPU ${f1(x.restPerMinimalCpu, 2)}×)`,
      );
    }
    const loads = r.scenarios.flatMap((x) => x.runs.map((m) => m.load1));
    const cpus = os.cpus().length;
    if (loads.some((l) => l > cpus)) {
      parts.push(`NOTE: load average up to ${Math.max(...loads)} on ${cpus} CPUs during these runs: other work competed for the CPU; compare CPU ms/req rather than req/s.`);
    }
    parts.push(...floorRatios(r));
    if (r.byteCache) parts.push(...byteCacheLines(r.byteCache));
    if (r.uncachedPage) parts.push(formatUncachedPage(r.uncachedPage));
    if (r.minimalPage) parts.push(minimalPageLine(r.uncachedPage?.scratch, r.minimalPage));
    if (r.searchFloor) parts.push(`REST search's total at its floor: ${r.searchFloor.matches} matching rows fetched by ID and rechecked, ${r.searchFloor.ms} ms of database CPU`);
    if (r.profile) parts.push(...profileLayers(r.profileGraphqlJs, r.profile));
    parts.push(`server start to /healthz: ${r.startMs} ms`);
    parts.push(`server RSS: ${r.rss.startupMB} MB at start, ${r.rss.idleMB ?? '?'} MB idle after warm-up; max ${r.rss.roundMaxMB.map((v, i) => `r${i + 1} ${v} MB`).join(', ')}; after each round ${r.rss.afterRoundMB.join(' → ')} MB`);
    for (const [when, m] of Object.entries(r.rss.breakdown)) {
      parts.push(`  ${when}: rss ${m.rss} MB = V8 heap ${m.heapTotal} MB (used ${m.heapUsed}) + external ${m.external} MB (array buffers ${m.arrayBuffers}) + code/other`);
    }
  }
  for (const backend of BACKENDS) parts.push(...growthTable(backend));
  if (edge !== null) parts.push('\n## edge\n', ...(typeof edge === 'string' ? [`not measured: ${edge}`] : edge.rows));
  parts.push('\n## targets\n');
  for (const t of targets()) parts.push(`${t.ok === null ? '  ?' : t.ok ? ' ok' : 'MISS'}  ${t.what.padEnd(58)} ${t.target.padEnd(18)} ${t.measured}`);
  return parts.join('\n');
}

/** The CPU profile of the from-scratch page by layer: with graphql-js (before) next to compiled (after). */
function profileLayers(before: ProfileSummary | undefined, after: ProfileSummary): string[] {
  const names = [...new Set([...after.layers.map((l) => l.name), ...(before?.layers.map((l) => l.name) ?? [])])];
  const share = (p: ProfileSummary | undefined, name: string) => p?.layers.find((l) => l.name === name)?.pct;
  const lines = [`CPU profile of GET /events?per_page=50 by layer (self time, % of busy; ${before ? `graphql-js ${before.busyMs} ms busy, compiled ${after.busyMs} ms` : `${after.busyMs} ms busy`}):`];
  for (const name of names) lines.push(`  ${name.padEnd(36)} ${before ? `${f1(share(before, name)).padStart(5)} % → ` : ''}${f1(share(after, name)).padStart(5)} %`);
  return lines;
}

/* -------------------------------------------------------------------------------------------- main */

/**
 * A snapshot of one commit (git archive) sharing this checkout's node_modules and generated Prisma
 * client. The seeder still runs this checkout's migrations and model code.
 */
function snapshot(rev: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cal-bench-rev-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync('sh', ['-c', `git archive "$1" | tar -x -C "$2"`, 'sh', rev, dir], { cwd: ROOT });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  cpSync(path.join(ROOT, 'prisma/generated'), path.join(dir, 'prisma/generated'), { recursive: true });
  return dir;
}

let pinned: string | undefined;

/** The product revision measured (the tree may change under a long run: it is checked at both ends). */
function revision(): string {
  if (pinned) return pinned;
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'src', 'schema', 'rest-facade', 'prisma'], { cwd: ROOT, encoding: 'utf8' }).trim();
    return dirty ? `${head}+uncommitted(${createHash('sha1').update(execFileSync('git', ['diff', 'HEAD', '--', 'src', 'schema', 'rest-facade', 'prisma'], { cwd: ROOT })).digest('hex').slice(0, 8)})` : head;
  } catch {
    return 'unknown';
  }
}

async function main() {
  const started = Date.now();
  if (env.BENCH_REV) {
    // Resolved once: a moving ref (HEAD) must not make the snapshot look stale.
    pinned = execFileSync('git', ['rev-parse', '--short', env.BENCH_REV], { cwd: ROOT, encoding: 'utf8' }).trim();
    productRoot = snapshot(pinned);
  }
  const revisionAtStart = revision();
  console.error(
    `bench: sizes ${SIZES.join(', ')} · backends ${BACKENDS.join(', ')} · ${DURATION} s runs (+${WARMUP} s warm-up) · connections ${CONNECTIONS.join(', ')} · ${ROUNDS} round(s)`,
  );
  if (BACKENDS.includes('postgres')) await admin(ADMIN_URL, (c) => c.query('SELECT 1')).catch((e) => {
    throw new Error(`BENCH_DATABASE_URL ${ADMIN_URL}: ${(e as Error).message}`);
  });
  const profileTarget = PROFILE ? { size: SIZES[0], backend: BACKENDS.includes('postgres') ? 'postgres' : BACKENDS[0] } : null;
  try {
    for (const size of SIZES) {
      for (const backend of BACKENDS) await benchOne(size, backend, profileTarget?.size === size && profileTarget.backend === backend);
    }
  } finally {
    await cleanupAll();
  }
  if (EDGE && (!ONLY || ONLY.has('edge'))) {
    console.error('edge: the calendar behind Varnish (edge.ts)');
    edge = await measureEdge().catch((e: unknown) => `failed: ${(e as Error).message}`);
  }
  if (LAYERS && (!ONLY || ONLY.has('layers'))) {
    console.error('cache layers: a mixed load with each origin cache layer on and off (cache-layers.ts)');
    layers = await measureCacheLayers(undefined, productRoot);
  }
  if (TELEMETRY && (!ONLY || ONLY.has('telemetry'))) {
    console.error('telemetry: cached reads with metrics off, on, and tracing at 10 % sampling (telemetry.ts)');
    telemetry = await measureTelemetry(productRoot).catch((e: unknown) => `failed: ${(e as Error).message}`);
  }
  const revisionAtEnd = revision();
  let text = report();
  if (layers !== null) text += `\n\n${formatCacheLayers(layers)}`;
  if (telemetry !== null) text += `\n\n${typeof telemetry === 'string' ? `telemetry overhead: ${telemetry}` : formatTelemetry(telemetry)}`;
  text += `\n\nproduct revision: ${revisionAtStart}`;
  if (revisionAtEnd !== revisionAtStart) text += `\nWARNING: the product changed during the run (now ${revisionAtEnd}): servers started later ran newer code`;
  console.log(text);
  for (const r of results) {
    for (const e of r.explain ?? []) if (r.backend === 'postgres') console.log(`\n## EXPLAIN ANALYZE (${r.size} events, ${r.backend}): ${e.scenario}\n${e.sql.slice(0, 160)}…\n${e.plan}`);
  }
  mkdirSync(path.dirname(OUT), { recursive: true });
  writeFileSync(
    OUT,
    JSON.stringify(
      {
        date: new Date().toISOString(),
        revision: { start: revisionAtStart, end: revisionAtEnd },
        machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memGB: +(os.totalmem() / 2 ** 30).toFixed(1), node: process.version },
        config: { sizes: SIZES, backends: BACKENDS, durationSec: DURATION, warmupSec: WARMUP, connections: CONNECTIONS, rounds: ROUNDS },
        results: results.map((r) => ({ ...r, ratios: ratios(r) })),
        targets: targets(),
        edge,
        layers,
        telemetry,
        elapsedSec: Math.round((Date.now() - started) / 1000),
      },
      null,
      2,
    ),
  );
  console.error(`\nwrote ${path.relative(ROOT, OUT)} (${Math.round((Date.now() - started) / 1000)} s in all)`);
}

await main().catch(async (e) => {
  console.error(e instanceof Error ? e.stack : e);
  await cleanupAll();
  process.exit(1);
});
