/**
 * `npm run bench:layers`: what each origin cache layer is worth on a realistic mixed load — two
 * instances on one PostgreSQL, anonymous readers spread over many filters, pages and languages
 * (REST and GraphQL GET, popular URLs read more often than the rest), and one authenticated write
 * per second alternating between the instances (every write invalidates every origin cache). The
 * same load runs once per configuration (each origin cache layer on, then off) and
 * prints throughput and p50/p95 of the reads for each, plus the writes' p50.
 *
 * Environment (all optional):
 *   BENCH_LAYERS_EVENTS=1000        events to seed
 *   BENCH_LAYERS_DURATION=20        seconds per configuration (after BENCH_LAYERS_WARMUP=3)
 *   BENCH_LAYERS_CONNECTIONS=4      reader connections per instance
 *   BENCH_LAYERS_ROUNDS=2           rounds over all configurations (interleaved, so that a load that
 *                                   drifts on a shared machine weighs on each alike); the median round is shown
 *   BENCH_LAYERS_ROOT=dir           the product to measure (default: this checkout; a snapshot keeps edits out of a run)
 *   BENCH_LAYERS_BASELINE=dir       another revision's tree (e.g. `git archive` of it, node_modules linked): its
 *                                   defaults are measured too, in the same rounds
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres  (the bench creates and drops its own database)
 *
 * `npm run bench` (run.ts) runs it too (BENCH_LAYERS=0 leaves it out, and so does a BENCH_SCENARIOS
 * without `layers`).
 */
import os from 'node:os';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import { runLoad, type LoadResult } from './load.ts';
import { killChildren, ROOT, startChild, type Child, withAdminClient } from './process.ts';
import { seedUrl, type SeedInfo } from './seed.ts';

const env = process.env;
const EVENTS = Number(env.BENCH_LAYERS_EVENTS ?? 1000);
const DURATION = Number(env.BENCH_LAYERS_DURATION ?? 20);
const WARMUP = Number(env.BENCH_LAYERS_WARMUP ?? 3);
const CONNECTIONS = Number(env.BENCH_LAYERS_CONNECTIONS ?? 4);
const ROUNDS = Math.max(1, Number(env.BENCH_LAYERS_ROUNDS ?? 2));
const ADMIN_URL = env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const NS = '/wp-json/cal/events/v1';
const ADMIN = { login: 'layers-admin', password: `layers-${process.pid}-${Date.now().toString(36)}` };
const AUTH = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;

/**
 * The configurations measured: the server's caching variables for each. The byte cache is the one
 * origin cache layer left in src/server/cache/ (the response cache and the presented records gave
 * less than 20 % here and were removed); "off" is CAL_CACHE_TTL_S=0, no origin cache at all.
 */
export const LAYER_CONFIGS: LayerConfig[] = [
  { label: 'byte cache on (default)', env: {} },
  { label: 'byte cache off (CAL_CACHE_TTL_S=0)', env: { CAL_CACHE_TTL_S: '0' } },
];

interface LayerConfig {
  label: string;
  env: Record<string, string>;
  /** Another product tree than the one measured (BENCH_LAYERS_BASELINE). */
  root?: string;
}

export interface LayerRow {
  label: string;
  reads: { requests: number; rps: number; p50: number; p95: number; errors: number };
  writes: { count: number; p50: number; failed: number };
  /** Load average (1 min) of the machine after the run: the share of other work it competed with. */
  load1: number;
  /** Reads/s of every round of this configuration (the row is the median round). */
  rounds?: number[];
}

const pct = (sorted: Float64Array | number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
/** Readers ask for compressed answers, as browsers and CDNs do. */
const BROWSER = { 'accept-encoding': 'gzip, deflate, br' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The URLs readers pick from: REST lists over pages, page sizes, categories, tags, venues,
 * organizers, searches and date ranges, in four languages; single events, venues and organizers;
 * GraphQL GET queries with filters and page sizes. A few thousand distinct URLs.
 */
export function readUrls(seed: SeedInfo): string[] {
  const urls: string[] = [];
  const langs = ['', '/de', '/fr', '/es'];
  const months = ['2026-01-01', '2026-04-01', '2026-07-01', '2026-10-01', '2027-01-01'];
  for (const lang of langs) {
    const rest = `${lang}${NS}`;
    for (const perPage of [10, 20, 50]) for (let page = 1; page <= 5; page++) urls.push(`${rest}/events?per_page=${perPage}&page=${page}`);
    for (const c of seed.topCategories) for (let page = 1; page <= 3; page++) urls.push(`${rest}/events?categories=${c.id}&page=${page}`);
    for (const t of seed.tagIds.slice(0, 10)) urls.push(`${rest}/events?tags=${t}`);
    for (const v of seed.venueIds.slice(0, 20)) urls.push(`${rest}/events?venue=${v}`);
    for (const o of seed.organizerIds.slice(0, 20)) urls.push(`${rest}/events?organizer=${o}`);
    for (const m of months) urls.push(`${rest}/events?start_date=${m}&per_page=20`);
    urls.push(`${rest}/events?search=${encodeURIComponent(seed.searchWord)}`);
    for (const e of seed.sampleEvents.slice(0, 60)) urls.push(`${rest}/events/${e.id}`);
    for (const v of seed.venueIds.slice(0, 20)) urls.push(`${rest}/venues/${v}`);
    urls.push(`${rest}/venues`, `${rest}/organizers`, `${rest}/categories`, `${rest}/tags`);
  }
  const gql = (query: string, variables?: unknown) => `/graphql?query=${encodeURIComponent(query)}${variables ? `&variables=${encodeURIComponent(JSON.stringify(variables))}` : ''}`;
  const list = 'query BenchList($first: Int, $filter: EventFilter) { events(first: $first, filter: $filter) { totalCount nodes { id title startDate venues { name } organizers { name } categories { name } } } }';
  for (const first of [10, 20, 50]) urls.push(gql(list, { first }));
  for (const c of seed.topCategories) urls.push(gql(list, { first: 20, filter: { categories: [String(c.id)] } }));
  for (const m of months) urls.push(gql(list, { first: 20, filter: { startDate: m } }));
  for (const e of seed.sampleEvents.slice(0, 40)) urls.push(gql('query BenchEvent($id: ID) { event(id: $id) { title description venues { name } } }', { id: String(e.id) }));
  return urls;
}

/** Popular URLs are read more often: a skewed pick (the first tenth of the list gets about half the reads). */
function picker(urls: string[]): () => string {
  const shuffled = urls.slice().sort(() => Math.random() - 0.5);
  return () => shuffled[Math.floor(shuffled.length * Math.random() ** 3.3)]!;
}

/** One event title update per second, alternating instances, for `ms`; their latencies. */
async function writer(instances: Child[], ids: number[], ms: number, stop: { done: boolean }) {
  const latencies: number[] = [];
  let failed = 0;
  let n = 0;
  const end = performance.now() + ms;
  while (!stop.done && performance.now() < end) {
    const next = performance.now() + 1000;
    const target = instances[n % instances.length]!;
    const id = ids[n % ids.length]!;
    n++;
    const t0 = performance.now();
    try {
      const res = await fetch(`${target.baseUrl}${NS}/events/${id}`, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `Layers bench ${process.pid} ${n}` }),
      });
      await res.text();
      if (res.ok) latencies.push(performance.now() - t0);
      else failed++;
    } catch {
      failed++;
    }
    await sleep(Math.max(0, next - performance.now()));
  }
  latencies.sort((a, b) => a - b);
  return { count: latencies.length, p50: +pct(latencies, 50).toFixed(1), failed };
}

const admin = (f: (c: pg.Client) => Promise<unknown>) => withAdminClient(ADMIN_URL, f);

/** The URLs that answer 200 without GraphQL errors (a filter that matches nothing answers 404 in the REST contract). */
async function answering(base: string, urls: string[]): Promise<string[]> {
  const ok: string[] = [];
  for (const u of urls) {
    const res = await fetch(base + u);
    const text = await res.text();
    if (res.status === 200 && !(u.startsWith('/graphql') && 'errors' in (JSON.parse(text) as object))) ok.push(u);
    else if (res.status >= 500 || u.startsWith('/graphql')) throw new Error(`${u}: ${res.status} ${text.slice(0, 300)}`);
  }
  return ok;
}

/** Runs every configuration; the rows, or a string saying why it could not run. */
export async function measureCacheLayers(layers = LAYER_CONFIGS, root = env.BENCH_LAYERS_ROOT || ROOT): Promise<LayerRow[] | string> {
  const baseline = env.BENCH_LAYERS_BASELINE?.trim();
  const configs = baseline ? [...layers, { label: `baseline defaults (${baseline})`, env: {}, root: baseline }] : layers;
  const cleanups: (() => Promise<unknown>)[] = [];
  try {
    const name = `cal_layers_${process.pid}`;
    await admin((c) => c.query(`CREATE DATABASE "${name}"`));
    cleanups.push(() => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    const seed = await seedUrl(url.href, undefined, { events: EVENTS, label: `seed ${EVENTS} postgres` });
    let urls = readUrls(seed);
    const ids = seed.sampleEvents.slice(0, 30).map((e) => e.id);
    console.error(`cache layers: ${EVENTS} events on PostgreSQL, 2 instances, ${urls.length} URLs, ${CONNECTIONS}×2 readers, 1 write/s, ${DURATION} s per configuration`);
    const rows: LayerRow[] = [];
    const runs = Array.from({ length: ROUNDS }, () => configs).flat();
    for (const config of runs) {
      const start = (i: number) =>
        startChild({
          script: 'src/server/main.ts',
          root: config.root ?? root,
          env: { DATABASE_URL: url.href, CAL_DATA_DIR: undefined, CAL_LOG_LEVEL: 'warn', CAL_ADMIN_LOGIN: ADMIN.login, CAL_ADMIN_PASSWORD: ADMIN.password, CAL_SITE_URL: undefined, ...config.env },
          readyPath: '/healthz',
          label: `instance ${i} (${config.label})`,
        });
      const instances = [await start(1), await start(2)];
      try {
        if (rows.length === 0) {
          const all = urls.length;
          urls = await answering(instances[0]!.baseUrl, urls);
          console.error(`  ${urls.length} of ${all} URLs answer 200 (the others list nothing: 404)`);
        }
        const load = (durationSec: number) => {
          const stop = { done: false };
          const reads = Promise.all(instances.map((c) => runLoad({ baseUrl: c.baseUrl, path: picker(urls), headers: BROWSER, connections: CONNECTIONS, durationSec, keepSamples: true })));
          const writes = writer(instances, ids, durationSec * 1000, stop);
          return Promise.all([reads, writes]).finally(() => (stop.done = true));
        };
        if (WARMUP > 0) await load(WARMUP);
        const [reads, writes] = await load(DURATION);
        rows.push({ label: config.label, reads: merge(reads), writes, load1: +os.loadavg()[0]!.toFixed(2) });
        process.stderr.write(`  ${line(rows.at(-1)!)}\n`);
      } finally {
        await Promise.all(instances.map((c) => c.stop()));
      }
    }
    return configs.map((c) => {
      const mine = rows.filter((r) => r.label === c.label).sort((a, b) => a.reads.rps - b.reads.rps);
      return { ...mine[Math.floor((mine.length - 1) / 2)]!, rounds: rows.filter((r) => r.label === c.label).map((r) => r.reads.rps) };
    });
  } catch (e) {
    return `failed: ${(e as Error).message}`;
  } finally {
    for (const c of cleanups.reverse()) await c().catch(() => {});
    killChildren();
  }
}

function merge(results: LoadResult[]): LayerRow['reads'] {
  const all = Float64Array.from(results.flatMap((r) => Array.from(r.samples ?? []))).sort();
  return {
    requests: results.reduce((a, r) => a + r.requests, 0),
    rps: +results.reduce((a, r) => a + r.rps, 0).toFixed(1),
    p50: +pct(all, 50).toFixed(1),
    p95: +pct(all, 95).toFixed(1),
    errors: results.reduce((a, r) => a + r.errors + r.timeouts + r.non2xx, 0),
  };
}

const line = (r: LayerRow) =>
  `${r.label}: ${r.reads.rps} req/s (load ${r.load1}), p50 ${r.reads.p50} ms, p95 ${r.reads.p95} ms${r.reads.errors ? `, ${r.reads.errors} ERRORS` : ''}; writes ${r.writes.count} (p50 ${r.writes.p50} ms${r.writes.failed ? `, ${r.writes.failed} FAILED` : ''})`;

/** The table: one row per configuration, reads relative to the first (the default). */
export function formatCacheLayers(rows: LayerRow[] | string): string {
  if (typeof rows === 'string') return `## Cache layers on a mixed load\n${rows}`;
  const on = rows[0]?.reads.rps ?? NaN;
  const out = [
    `## Cache layers on a mixed load (PostgreSQL, 2 instances, ${CONNECTIONS}×2 readers over many URLs, 1 write/s, ${DURATION} s each, median of ${ROUNDS} interleaved round(s))`,
    '| configuration | reads/s | vs default | p50 ms | p95 ms | read errors | writes | write p50 ms | load | reads/s each round |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|',
  ];
  for (const r of rows) {
    out.push(`| ${r.label} | ${r.reads.rps} | ${(r.reads.rps / on).toFixed(2)} | ${r.reads.p50} | ${r.reads.p95} | ${r.reads.errors} | ${r.writes.count}${r.writes.failed ? ` (${r.writes.failed} failed)` : ''} | ${r.writes.p50} | ${r.load1} | ${r.rounds?.join(', ') ?? ''} |`);
  }
  return out.join('\n');
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => (killChildren(), process.exit(130)));
  const only = env.BENCH_LAYERS_ONLY?.split(',').map((s) => s.trim());
  console.log(formatCacheLayers(await measureCacheLayers(only ? LAYER_CONFIGS.filter((c) => only.includes(c.label)) : LAYER_CONFIGS)));
}
