/**
 * `npm run bench:edge`: the calendar behind Varnish (deploy/varnish/cal-events.vcl, purged by the
 * server through CAL_PURGE_URL) — throughput and hit ratio of anonymous reads at the edge, next to
 * the same reads sent to the server directly, and how long a write takes to be visible at the edge.
 *
 * Environment (all optional):
 *   BENCH_EDGE_EVENTS=1000      events to seed
 *   BENCH_BACKENDS=postgres     postgres or pglite (first one only)
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres  (the bench creates and drops its own database)
 *   BENCH_DURATION=10           seconds per measured run; BENCH_CONNECTIONS=10
 *   BENCH_EDGE_WRITES=30        writes of the write-to-visible measurement
 *   BENCH_EDGE_IDS=20           events the single-event reads (and the writer of the mixed run) cycle over
 *   BENCH_CACHE_TTL_S=5         CAL_CACHE_TTL_S of the server (its own byte cache, behind Varnish)
 * Needs /usr/sbin/varnishd and varnish-modules (apt-get install varnish varnish-modules).
 *
 * `npm run bench` (run.ts) runs it too, after its own measures (`measureEdge`), so that one run
 * reports the edge next to the origin; BENCH_EDGE=0 leaves it out.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type pg from 'pg';
import { runLoad, type LoadResult } from './load.ts';
import { killChildren, startChild, withAdminClient } from './process.ts';
import { seedUrl } from './seed.ts';
import { freePort } from '../helpers/process.ts';
import { startVarnish, varnishMissing } from '../helpers/varnish.ts';

const env = process.env;
const EVENTS = Number(env.BENCH_EDGE_EVENTS ?? 1000);
const BACKEND = (env.BENCH_BACKENDS ?? 'postgres').split(',')[0]!.trim();
const ADMIN_URL = env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const DURATION = Number(env.BENCH_DURATION ?? 10);
const CONNECTIONS = Number((env.BENCH_CONNECTIONS ?? '10').split(',').at(-1));
const WRITES = Number(env.BENCH_EDGE_WRITES ?? 30);
/** Single-event reads cycle over this many events (BENCH_EDGE_IDS): a hot set a slow server still revisits within a run. */
const HOT_IDS = Number(env.BENCH_EDGE_IDS ?? 20);
const NS = '/wp-json/cal/events/v1';
const ADMIN = { login: 'edge-admin', password: `edge-${process.pid}-${Date.now().toString(36)}` };
const auth = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;

const cleanups: (() => Promise<void> | void)[] = [];
async function cleanup() {
  for (const c of cleanups.splice(0).reverse()) await Promise.resolve(c()).catch(() => {});
  killChildren();
}

const admin = (f: (c: pg.Client) => Promise<unknown>) => withAdminClient(ADMIN_URL, f);

/** What one run measured: the printed rows, and the figures run.ts checks. */
export interface EdgeResult {
  events: number;
  backend: string;
  rows: string[];
  /** Hit ratio at the edge per read scenario (label → 0..1). */
  hitRatios: Record<string, number>;
  writeVisible: { writes: number; p50: number; p99: number; answeredP50: number; answeredP99: number; staleAfterAnswer: number };
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? NaN;
const fmt = (n: number) => (Number.isFinite(n) ? n.toFixed(n < 10 ? 2 : 1) : '-');

/** The edge bench; a string saying what is missing when Varnish cannot run here. */
export async function measureEdge(): Promise<EdgeResult | string> {
  try {
    return await measure();
  } finally {
    await cleanup();
  }
}

async function measure(): Promise<EdgeResult | string> {
  const missing = varnishMissing();
  if (missing) return missing;
  let serverEnv: Record<string, string | undefined>;
  let seed;
  if (BACKEND === 'postgres') {
    const name = `cal_edge_${process.pid}`;
    await admin((c) => c.query(`CREATE DATABASE "${name}"`));
    cleanups.push(() => admin((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    seed = await seedUrl(url.href, undefined, { events: EVENTS, label: `seed ${EVENTS} postgres` });
    serverEnv = { DATABASE_URL: url.href, CAL_DATA_DIR: undefined };
  } else {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cal-edge-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    seed = await seedUrl(undefined, dataDir, { events: EVENTS, label: `seed ${EVENTS} pglite` });
    serverEnv = { DATABASE_URL: '', CAL_DATA_DIR: dataDir };
  }
  const varnishPort = await freePort();
  const server = await startChild({
    script: 'src/server/main.ts',
    env: {
      ...serverEnv,
      CAL_LOG_LEVEL: 'warn',
      CAL_ADMIN_LOGIN: ADMIN.login,
      CAL_ADMIN_PASSWORD: ADMIN.password,
      CAL_SITE_URL: undefined,
      CAL_CACHE_TTL_S: env.BENCH_CACHE_TTL_S ?? '5',
      CAL_PURGE_URL: `http://127.0.0.1:${varnishPort}/`,
    },
    readyPath: '/healthz',
    label: 'server',
  });
  cleanups.push(() => server.stop());
  const varnish = await startVarnish(varnishPort, server.baseUrl, 256);
  cleanups.push(() => varnish.stop());
  console.error(`${EVENTS} events on ${BACKEND}; server ${server.baseUrl}, Varnish ${varnish.base}; ${CONNECTIONS} connections, ${DURATION} s per run`);

  const ids = seed.sampleEvents.map((e) => e.id);
  let n = 0;
  const scenarios: { label: string; path: string | (() => string) }[] = [
    { label: 'GET /events?per_page=50', path: `${NS}/events?per_page=50` },
    { label: `GET /events/{id} (${HOT_IDS} ids)`, path: () => `${NS}/events/${ids[n++ % Math.min(HOT_IDS, ids.length)]}` },
    { label: 'GET /venues', path: `${NS}/venues` },
  ];
  const rows: string[] = [];
  const hitRatios: Record<string, number> = {};
  const hitRatio = (before: Record<string, number>, after: Record<string, number>) => {
    const hits = (after['MAIN.cache_hit'] ?? 0) - (before['MAIN.cache_hit'] ?? 0);
    const misses = (after['MAIN.cache_miss'] ?? 0) - (before['MAIN.cache_miss'] ?? 0);
    return hits + misses ? hits / (hits + misses) : NaN;
  };
  const row = (label: string, target: string, r: LoadResult, ratio?: number) =>
    rows.push(
      `${label.padEnd(34)} ${target.padEnd(8)} ${fmt(r.rps).padStart(9)} req/s  p50 ${fmt(r.p50).padStart(6)} ms  p99 ${fmt(r.p99).padStart(6)} ms  ${ratio === undefined ? '' : `hit ratio ${(ratio * 100).toFixed(1)} %`}${r.non2xx || r.errors ? `  (non-2xx ${r.non2xx}, errors ${r.errors})` : ''}`,
    );
  for (const sc of scenarios) {
    for (const [target, base] of [
      ['server', server.baseUrl],
      ['varnish', varnish.base],
    ] as const) {
      await runLoad({ baseUrl: base, path: sc.path, connections: CONNECTIONS, durationSec: Math.min(3, DURATION) }); // warm-up
      const before = target === 'varnish' ? varnish.stats() : {};
      const r = await runLoad({ baseUrl: base, path: sc.path, connections: CONNECTIONS, durationSec: DURATION });
      const ratio = target === 'varnish' ? hitRatio(before, varnish.stats()) : undefined;
      if (ratio !== undefined) hitRatios[sc.label] = ratio;
      row(sc.label, target, r, ratio);
    }
  }

  // Reads at the edge while a writer renames events among those read (every write purges its event and the list).
  {
    let w = 0;
    let writing = true;
    let writes = 0;
    const writer = (async () => {
      while (writing) {
        const id = ids[w++ % Math.min(HOT_IDS, ids.length)];
        await fetch(`${server.baseUrl}${NS}/events/${id}`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ title: `Edge ${w}` }) });
        writes++;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    })();
    const before = varnish.stats();
    const r = await runLoad({ baseUrl: varnish.base, path: scenarios[1]!.path, connections: CONNECTIONS, durationSec: DURATION });
    writing = false;
    await writer;
    row(`GET /events/{id} + ${(writes / DURATION).toFixed(1)} writes/s`, 'varnish', r, hitRatio(before, varnish.stats()));
  }

  // Write-to-visible at the edge: a cached read, a write sent to the server, then reads through Varnish until the change shows.
  const visible: number[] = [];
  const answered: number[] = [];
  let staleAfterAnswer = 0;
  for (let i = 0; i < WRITES; i++) {
    const id = ids[i % ids.length]!;
    const url = `${varnish.base}${NS}/events/${id}`;
    await fetch(url).then((r) => r.arrayBuffer());
    await fetch(url).then((r) => r.arrayBuffer());
    const title = `Visible ${i} ${Date.now()}`;
    const t0 = performance.now();
    const res = await fetch(`${server.baseUrl}${NS}/events/${id}`, { method: 'POST', headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify({ title }) });
    await res.arrayBuffer();
    const t1 = performance.now();
    answered.push(t1 - t0);
    for (let first = true; ; first = false) {
      const body = (await fetch(url).then((r) => r.json())) as { title?: string };
      if (body.title === title) break;
      if (first) staleAfterAnswer++;
    }
    visible.push(performance.now() - t0);
  }
  visible.sort((a, b) => a - b);
  answered.sort((a, b) => a - b);
  rows.push(
    `write → visible at the edge (${WRITES} writes): p50 ${fmt(pct(visible, 50))} ms, p99 ${fmt(pct(visible, 99))} ms after the write was sent (write answered: p50 ${fmt(pct(answered, 50))} ms, p99 ${fmt(pct(answered, 99))} ms, purge included); first read after the answer stale: ${staleAfterAnswer}`,
  );
  rows.unshift(`Edge (Varnish + xkey purges), ${EVENTS} events on ${BACKEND}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}`);
  return {
    events: EVENTS,
    backend: BACKEND,
    rows,
    hitRatios,
    writeVisible: { writes: WRITES, p50: pct(visible, 50), p99: pct(visible, 99), answeredP50: pct(answered, 50), answeredP99: pct(answered, 99), staleAfterAnswer },
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  process.on('SIGINT', () => void cleanup().then(() => process.exit(130)));
  const result = await measureEdge().catch((e: unknown) => {
    console.error(e);
    process.exitCode = 1;
    return null;
  });
  if (typeof result === 'string') {
    console.error(`bench:edge: ${result}`);
    process.exitCode = 1;
  } else if (result) console.log(`\n${result.rows.join('\n')}`);
}
