/**
 * `npm run bench:write-cost`: what a write pays for its change-log rows, against the revision before
 * the log, in the same run. Both revisions' compiled servers run side by side, each on a fresh
 * database of its own seeded alike; batches of authenticated `POST /events` (an event with a venue,
 * an organizer, a category and a tag, as the `create` scenario of `npm run bench`) and of
 * `POST /events/{id}` (a new title) go to one server, then the other, the order swapped every round.
 * Per write: the server process's CPU time (from /proc: PGlite runs inside it) and, on PostgreSQL,
 * the CPU of the database backends serving its database, plus the wall time. The machine is shared:
 * only the side-by-side ratios mean anything, so the load average is printed with them.
 *
 * Environment (all optional):
 *   WRITE_COST_REVS=7755851^,.      the revisions compared, two or more (git archive of each; `.` is
 *                                   this working tree); the ratios are each later one ÷ the first
 *   WRITE_COST_BACKENDS=postgres,pglite
 *   WRITE_COST_ROUNDS=12            rounds; each sends one batch of creates, then one of updates, to each server
 *   WRITE_COST_BATCH=40             writes per batch (sequential, one connection)
 *   WRITE_COST_EVENTS=200           events seeded into each database
 *   BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
 *                                   the way in to the PostgreSQL server; the bench creates (and drops)
 *                                   a database per revision on it
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { dbCpuReader, killChildren, readCpuMs, ROOT, startChild, withAdminClient, type Child } from './process.ts';
import { seedUrl, type SeedInfo } from './seed.ts';

const env = process.env;
const REVS = (env.WRITE_COST_REVS ?? '7755851^,.').split(',').map((s) => s.trim());
if (REVS.length < 2) throw new Error('WRITE_COST_REVS: two revisions or more, comma-separated');
const BACKENDS = (env.WRITE_COST_BACKENDS ?? 'postgres,pglite').split(',').map((s) => s.trim());
const ROUNDS = Number(env.WRITE_COST_ROUNDS ?? 12);
const BATCH = Number(env.WRITE_COST_BATCH ?? 40);
const EVENTS = Number(env.WRITE_COST_EVENTS ?? 200);
const ADMIN_URL = env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const ADMIN = { login: 'bench-admin', password: `bench-${process.pid}-${Date.now().toString(36)}` };
const AUTH = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;
const NS = '/wp-json/cal/events/v1';

/** Run last to first: the snapshots (whole run), then per backend the databases and servers. */
const cleanups: (() => unknown)[] = [];
async function cleanUpTo(length: number) {
  while (cleanups.length > length) await Promise.resolve(cleanups.pop()!()).catch((e: unknown) => console.error(e));
}
const load = () => os.loadavg().map((x) => x.toFixed(2)).join(' ');

/** A revision's product directory: this checkout, or a git archive sharing its node_modules. */
function product(rev: string): { root: string; label: string } {
  if (rev === '.') return { root: ROOT, label: `${git('rev-parse', '--short', 'HEAD')}${git('status', '--porcelain', '--', 'src', 'schema', 'rest-facade', 'prisma') ? '+working tree' : ''}` };
  const sha = git('rev-parse', '--short', rev);
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cal-write-cost-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  execFileSync('sh', ['-c', 'git archive "$1" | tar -x -C "$2"', 'sh', sha, dir], { cwd: ROOT });
  symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
  return { root: dir, label: `${rev} (${sha})` };
}

function git(...args: string[]): string {
  return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
}

/** The compiled server `npm start` runs, built when stale. */
function serverScript(root: string): string {
  if (!existsSync(path.join(root, 'src/build.mjs'))) throw new Error(`${root}: no src/build.mjs (too old a revision)`);
  execFileSync(process.execPath, ['src/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });
  return 'dist/src/server/main.js';
}

interface Side {
  label: string;
  server: Child;
  seed: SeedInfo;
  /** CPU (ms) of the PostgreSQL backends of this side's database, by pid. */
  dbCpu: (() => Promise<Map<number, number>>) | null;
  created: number[];
  totals: Record<'create' | 'update', { n: number; cpu: number; db: number; wall: number }>;
  ratios: Record<'create' | 'update', number[]>;
  perBatch: Record<'create' | 'update', number[]>;
}

let counter = 0;
function createBody(seed: SeedInfo): string {
  const n = ++counter;
  const day = String(1 + (n % 28)).padStart(2, '0');
  // In 2001, outside the seeded span, as the `create` scenario of run.ts.
  return JSON.stringify({
    title: `Write cost event ${process.pid} ${n}`,
    description: 'Created by the write-cost benchmark.\n\nSecond paragraph.',
    start_date: `2001-03-${day} 18:00:00`,
    end_date: `2001-03-${day} 20:00:00`,
    status: 'publish',
    cost: '15',
    venue: seed.venueIds[n % seed.venueIds.length],
    organizer: [seed.organizerIds[n % seed.organizerIds.length]],
    categories: [seed.topCategories[n % seed.topCategories.length]!.id],
    tags: [seed.tagIds[n % seed.tagIds.length]],
  });
}

async function post(side: Side, pathname: string, body: string, expect: number): Promise<{ id: number }> {
  const r = await fetch(side.server.baseUrl + NS + pathname, { method: 'POST', headers: { authorization: AUTH, 'content-type': 'application/json' }, body });
  const text = await r.text();
  if (r.status !== expect) throw new Error(`${side.label}: POST ${pathname} answered ${r.status}: ${text.slice(0, 300)}`);
  return JSON.parse(text) as { id: number };
}

async function dbCpuTotal(side: Side, before: Map<number, number> | null): Promise<number> {
  if (!side.dbCpu || !before) return 0;
  let ms = 0;
  for (const [pid, v] of await side.dbCpu()) ms += v - (before.get(pid) ?? 0);
  return ms;
}

/** One batch of writes to one side; returns the server CPU per write. */
async function batch(side: Side, kind: 'create' | 'update', record: boolean): Promise<void> {
  const ids = kind === 'update' ? side.created.slice(-BATCH) : [];
  const db0 = side.dbCpu ? await side.dbCpu() : null;
  const cpu0 = readCpuMs(side.server.pid)!;
  const t0 = performance.now();
  for (let i = 0; i < BATCH; i++) {
    if (kind === 'create') side.created.push((await post(side, '/events', createBody(side.seed), 201)).id);
    else await post(side, `/events/${ids[i]}`, JSON.stringify({ title: `Write cost event ${process.pid} ${ids[i]} moved ${++counter}` }), 200);
  }
  const wall = performance.now() - t0;
  const cpu = readCpuMs(side.server.pid)! - cpu0;
  const db = await dbCpuTotal(side, db0);
  if (!record) return;
  const t = side.totals[kind];
  t.n += BATCH;
  t.cpu += cpu;
  t.db += db;
  t.wall += wall;
  side.perBatch[kind].push(cpu / BATCH);
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : NaN;
};
const f2 = (x: number) => x.toFixed(2);
const pct = (r: number) => `${r >= 1 ? '+' : ''}${((r - 1) * 100).toFixed(1)} %`;

async function prepare(backend: string, rev: { root: string; label: string }, i: number): Promise<Side> {
  let serverEnv: Record<string, string | undefined>;
  let seed: SeedInfo;
  let dbCpu: Side['dbCpu'] = null;
  if (backend === 'postgres') {
    const name = `cal_write_cost_${process.pid}_${i}`;
    await withAdminClient(ADMIN_URL, (c) => c.query(`CREATE DATABASE "${name}"`));
    cleanups.push(() => withAdminClient(ADMIN_URL, (c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)));
    const url = new URL(ADMIN_URL);
    url.pathname = `/${name}`;
    seed = await seedUrl(url.href, undefined, { events: EVENTS, progress: false });
    serverEnv = { DATABASE_URL: url.href, CAL_DATA_DIR: undefined };
    const client = new pg.Client({ connectionString: url.href });
    await client.connect();
    cleanups.push(() => client.end());
    dbCpu = dbCpuReader(client);
  } else {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cal-write-cost-data-'));
    cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
    seed = await seedUrl(undefined, dir, { events: EVENTS, progress: false });
    serverEnv = { DATABASE_URL: '', CAL_DATA_DIR: dir };
  }
  const server = await startChild({
    script: serverScript(rev.root),
    root: rev.root,
    env: { ...serverEnv, CAL_LOG_LEVEL: 'warn', CAL_ADMIN_LOGIN: ADMIN.login, CAL_ADMIN_PASSWORD: ADMIN.password, CAL_SITE_URL: undefined, CAL_CACHE_TTL_S: '0' },
    readyPath: '/healthz',
    label: `server ${rev.label} on ${backend}`,
  });
  cleanups.push(() => server.stop());
  const zero = () => ({ n: 0, cpu: 0, db: 0, wall: 0 });
  return { label: rev.label, server, seed, dbCpu, created: [], totals: { create: zero(), update: zero() }, ratios: { create: [], update: [] }, perBatch: { create: [], update: [] } };
}

async function idleCpu(side: Side, ms: number): Promise<number> {
  const c0 = readCpuMs(side.server.pid)!;
  await new Promise((r) => setTimeout(r, ms));
  return ((readCpuMs(side.server.pid)! - c0) / ms) * 1000;
}

async function benchBackend(backend: string, revs: { root: string; label: string }[]) {
  console.log(`\n=== ${backend}: ${revs.map((r) => r.label).join(' vs ')} · ${ROUNDS} rounds × ${BATCH} writes · ${EVENTS} events seeded · load ${load()}`);
  const sides: Side[] = [];
  for (const [i, rev] of revs.entries()) sides.push(await prepare(backend, rev, i));
  // Warm-up: every route compiled and cached, pools filled.
  for (const s of sides) {
    await batch(s, 'create', false);
    await batch(s, 'update', false);
  }
  const idle = await Promise.all(sides.map((s) => idleCpu(s, 5000)));
  const loads: number[] = [os.loadavg()[0]!];
  for (let round = 0; round < ROUNDS; round++) {
    // Each revision first as often as last: a drift of the machine's load favours none.
    const order = round % 2 ? [...sides].reverse() : sides;
    for (const kind of ['create', 'update'] as const) for (const s of order) await batch(s, kind, true);
    for (const kind of ['create', 'update'] as const) for (const s of sides.slice(1)) s.ratios[kind].push(s.perBatch[kind].at(-1)! / sides[0]!.perBatch[kind].at(-1)!);
    loads.push(os.loadavg()[0]!);
  }
  console.log(`load average (1 min) during the rounds: ${Math.min(...loads).toFixed(2)}–${Math.max(...loads).toFixed(2)} on ${os.cpus().length} CPUs`);
  console.log(`idle server CPU: ${sides.map((s, i) => `${s.label} ${f2(idle[i]!)} ms/s`).join(', ')}`);
  for (const kind of ['create', 'update'] as const) {
    const label = kind === 'create' ? 'POST /events' : 'POST /events/{id}';
    console.log(`${label}:`);
    for (const s of sides) {
      const t = s.totals[kind];
      console.log(
        `  ${s.label.padEnd(28)} server CPU ${f2(t.cpu / t.n)} ms/write (batch median ${f2(median(s.perBatch[kind]))})` +
          (s.dbCpu ? ` · PostgreSQL CPU ${f2(t.db / t.n)} ms/write · server+db ${f2((t.cpu + t.db) / t.n)}` : '') +
          ` · wall ${f2(t.wall / t.n)} ms/write`,
      );
    }
    const a = sides[0]!.totals[kind];
    for (const s of sides.slice(1)) {
      const b = s.totals[kind];
      const r = s.ratios[kind];
      console.log(
        `  ${s.label} ÷ ${sides[0]!.label}: server CPU ${pct(b.cpu / b.n / (a.cpu / a.n))} (median of the rounds' ratios ${pct(median(r))}, range ${pct(Math.min(...r))} … ${pct(Math.max(...r))})` +
          (s.dbCpu ? `, PostgreSQL CPU ${pct(b.db / a.db)}, server+db ${pct((b.cpu + b.db) / (a.cpu + a.db))}` : '') +
          `, wall ${pct(b.wall / a.wall)}`,
      );
    }
  }
}

try {
  const revs = REVS.map(product);
  const kept = cleanups.length;
  for (const backend of BACKENDS) {
    await benchBackend(backend, revs);
    await cleanUpTo(kept);
  }
} finally {
  await cleanUpTo(0);
  killChildren();
}
