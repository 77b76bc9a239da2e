/**
 * `npm run bench:footprint`: start time and idle memory of the built server as `npm start` runs it
 * (`node dist/src/server/main.js`, built first when stale).
 *
 *   - embedded PGlite, first start on an empty data directory (unpacks the prebuilt empty database);
 *   - embedded PGlite, later starts on that existing data directory;
 *   - PostgreSQL (BENCH_DATABASE_URL's server; a database of its own, dropped at the end), a later start.
 *
 * Per start: wall time from spawn to the first 200 of `/healthz`, the process's CPU time by then
 * (user + system: on a busy machine the wall time stretches, the CPU time much less), RSS at that
 * moment, and the idle RSS after one request to each main route and a pause (what a deployment
 * holds between bursts), split into anonymous and file-backed memory (/proc/<pid>/status).
 * Later starts are repeated (BENCH_STARTS, default 3) and the medians printed.
 *
 * Environment: BENCH_STARTS=3, BENCH_BACKENDS=pglite,postgres,
 * BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres, BENCH_IDLE_S=5.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { killChildren, readCpuMs, readRss, ROOT, startChild } from './process.ts';

const env = process.env;
const STARTS = Math.max(1, Number(env.BENCH_STARTS ?? 3));
const BACKENDS = (env.BENCH_BACKENDS ?? 'pglite,postgres').split(',').map((s) => s.trim());
const ADMIN_URL = env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const IDLE_S = Number(env.BENCH_IDLE_S ?? 5);
const ROUTES = [
  '/wp-json/cal/events/v1/events',
  '/wp-json/cal/events/v1/events?per_page=50',
  '/wp-json/cal/events/v1/venues',
  '/wp-json/cal/events/v1/categories',
  '/graphql?query=%7Bevents%7BtotalCount%7D%7D',
  '/',
];

interface Start {
  wallMs: number;
  cpuMs: number;
  rssMB: number;
  idleMB: number;
  anonMB: number;
  fileMB: number;
}

const mb = (b: number) => +(b / 1048576).toFixed(1);
const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : +((s[m - 1]! + s[m]!) / 2).toFixed(1);
};

function statusKB(pid: number, field: string): number {
  const m = new RegExp(`${field}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) : 0;
}

async function oneStart(label: string, childEnv: Record<string, string | undefined>): Promise<Start> {
  const child = await startChild({ script: 'dist/src/server/main.js', env: { CAL_LOG_LEVEL: 'warn', ...childEnv }, readyPath: '/healthz', label });
  try {
    const cpuMs = readCpuMs(child.pid) ?? NaN;
    const rssMB = mb(readRss(child.pid) ?? 0);
    for (const route of ROUTES) await (await fetch(child.baseUrl + route)).arrayBuffer();
    await new Promise((r) => setTimeout(r, IDLE_S * 1000));
    const start: Start = {
      wallMs: Math.round(child.readyMs),
      cpuMs: Math.round(cpuMs),
      rssMB,
      idleMB: mb(readRss(child.pid) ?? 0),
      anonMB: +(statusKB(child.pid, 'RssAnon') / 1024).toFixed(1),
      fileMB: +(statusKB(child.pid, 'RssFile') / 1024).toFixed(1),
    };
    console.error(`  ${label}: /healthz after ${start.wallMs} ms (${start.cpuMs} ms CPU), RSS ${start.rssMB} MB; idle ${start.idleMB} MB (anon ${start.anonMB}, file ${start.fileMB})`);
    return start;
  } finally {
    await child.stop();
  }
}

function line(label: string, starts: Start[]): string {
  const m = (k: keyof Start) => median(starts.map((s) => s[k]));
  const n = starts.length > 1 ? ` (median of ${starts.length})` : '';
  return `${label.padEnd(34)} /healthz ${String(m('wallMs')).padStart(6)} ms wall, ${String(m('cpuMs')).padStart(5)} ms CPU; RSS ${m('rssMB')} MB at /healthz, idle ${m('idleMB')} MB (anon ${m('anonMB')}, file ${m('fileMB')})${n}`;
}

async function main() {
  execFileSync(process.execPath, ['src/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  const lines: string[] = [];
  if (BACKENDS.includes('pglite')) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cal-footprint-'));
    try {
      const dataEnv = { DATABASE_URL: undefined, CAL_DATA_DIR: path.join(dir, 'data') };
      lines.push(line('embedded, first start (empty dir)', [await oneStart('embedded first start', dataEnv)]));
      const later: Start[] = [];
      for (let i = 0; i < STARTS; i++) later.push(await oneStart(`embedded later start ${i + 1}`, dataEnv));
      lines.push(line('embedded, later start', later));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (BACKENDS.includes('postgres')) {
    const name = `cal_footprint_${process.pid}`;
    const admin = new pg.Client({ connectionString: ADMIN_URL });
    await admin.connect();
    try {
      await admin.query(`CREATE DATABASE ${name}`);
      const u = new URL(ADMIN_URL);
      u.pathname = `/${name}`;
      const dbEnv = { DATABASE_URL: u.href };
      lines.push(line('PostgreSQL, first start (migrates)', [await oneStart('postgres first start', dbEnv)]));
      const later: Start[] = [];
      for (let i = 0; i < STARTS; i++) later.push(await oneStart(`postgres later start ${i + 1}`, dbEnv));
      lines.push(line('PostgreSQL, later start', later));
    } finally {
      await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`).catch(() => {});
      await admin.end();
    }
  }
  console.log(`\n## footprint (load average ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs)\n`);
  for (const l of lines) console.log(l);
  console.log(`\ntargets: later start ≤ 2000 ms to /healthz on an idle machine; idle RSS ≤ 150 MB (PostgreSQL), ≤ 300 MB (embedded)`);
}

main().catch((e: unknown) => {
  killChildren();
  console.error(e);
  process.exitCode = 1;
});
