/**
 * `npm run bench:start`: `npm start` on existing data, as an operator runs it, from spawn to the first
 * 200 of `/healthz` (polled every 10 ms).
 *
 * Per start: the wall time; the CPU time of the whole process tree by then (npm, its shell, the
 * server; exited children through their parent's cumulative times); and the server's main thread:
 * its CPU time and its wall time minus the time it waited for a CPU (/proc/<pid>/task/<pid>/schedstat),
 * which on a busy machine is nearer what an idle one would show than the wall time. Starts alternate
 * between the checkouts of BENCH_ROOTS (before/after: each built, e.g. `git worktree add`
 * + `npm ci`), each on its own data directory created by a first start that is not counted.
 *
 * Environment: BENCH_STARTS=5, BENCH_ROOTS=<this checkout>[,<another>…], BENCH_BACKENDS=pglite,postgres,
 * BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres (a database of its own per checkout,
 * dropped at the end).
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../helpers/process.ts';
import { ROOT, withAdminClient } from './process.ts';

const env = process.env;
const STARTS = Math.max(1, Number(env.BENCH_STARTS ?? 5));
const ROOTS = (env.BENCH_ROOTS ?? ROOT).split(',').map((r) => path.resolve(r.trim()));
const BACKENDS = (env.BENCH_BACKENDS ?? 'pglite,postgres').split(',').map((s) => s.trim());
const ADMIN_URL = env.BENCH_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/postgres';
const TICK_MS = 1000 / (Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100);

interface Start {
  wallMs: number;
  treeCpuMs: number;
  mainCpuMs: number;
  mainUnqueuedMs: number;
}

/** Parent and CPU time (own + waited-for children) of every process. */
function processes(): Map<number, { ppid: number; cpuMs: number }> {
  const all = new Map<number, { ppid: number; cpuMs: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // f[1] is field 4 (ppid); utime, stime, cutime, cstime are fields 14–17.
      all.set(Number(name), { ppid: Number(f[1]), cpuMs: (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) * TICK_MS });
    } catch {
      /* gone */
    }
  }
  return all;
}

/** CPU time of `rootPid` and its descendants, and which of them is the server (node running start.mjs or main.js). */
function tree(rootPid: number): { cpuMs: number; server: number | null } {
  const all = processes();
  let cpuMs = 0;
  let server: number | null = null;
  const queue = [rootPid];
  while (queue.length) {
    const pid = queue.pop()!;
    cpuMs += all.get(pid)?.cpuMs ?? 0;
    for (const [child, p] of all) if (p.ppid === pid) queue.push(child);
    try {
      if (/start\.mjs|server\/main\.js/.test(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))) server = pid;
    } catch {
      /* gone */
    }
  }
  return { cpuMs, server };
}

async function oneStart(root: string, extraEnv: Record<string, string | undefined>): Promise<Start> {
  const port = await freePort();
  const childEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...env, CAL_LOG_LEVEL: 'warn', ...extraEnv, PORT: String(port), HOST: '127.0.0.1' })) if (v !== undefined) childEnv[k] = v;
  const spawnedAt = performance.now();
  const child = spawn('npm', ['start', '--silent'], { cwd: root, env: childEnv, stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (b: Buffer) => (log = (log + b.toString()).slice(-5000)));
  let exited = false;
  const exit = new Promise<void>((resolve) => child.on('exit', () => ((exited = true), resolve())));
  try {
    for (;;) {
      if (exited) throw new Error(`npm start in ${root} exited before answering:\n${log}`);
      if (performance.now() - spawnedAt > 120_000) throw new Error(`npm start in ${root}: no /healthz within 120 s`);
      const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
        async (r) => (await r.arrayBuffer(), r.ok),
        () => false,
      );
      if (ok) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    const wallMs = performance.now() - spawnedAt;
    const { cpuMs, server } = tree(child.pid!);
    let mainCpuMs = NaN;
    let mainUnqueuedMs = NaN;
    if (server) {
      const [onCpu, queued] = readFileSync(`/proc/${server}/task/${server}/schedstat`, 'utf8').split(' ').map(Number);
      mainCpuMs = onCpu! / 1e6;
      mainUnqueuedMs = wallMs - queued! / 1e6;
    }
    return { wallMs, treeCpuMs: cpuMs, mainCpuMs, mainUnqueuedMs };
  } finally {
    child.kill('SIGTERM');
    await exit;
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
const figures = (xs: number[]) => `${Math.round(Math.min(...xs))} / ${Math.round(median(xs))}`;

async function backend(label: string, envFor: (root: string) => Record<string, string | undefined>, lines: string[]) {
  const starts = new Map<string, Start[]>(ROOTS.map((r) => [r, []]));
  // The first start creates the data (or migrates), and is not counted.
  for (const root of ROOTS) await oneStart(root, envFor(root));
  for (let i = 0; i < STARTS; i++) {
    for (const root of ROOTS) {
      const s = await oneStart(root, envFor(root));
      starts.get(root)!.push(s);
      console.error(`  ${label} ${path.basename(root)} ${i + 1}: /healthz after ${Math.round(s.wallMs)} ms, tree CPU ${Math.round(s.treeCpuMs)} ms, main thread ${Math.round(s.mainCpuMs)} ms CPU, ${Math.round(s.mainUnqueuedMs)} ms unqueued`);
    }
  }
  for (const [root, ss] of starts) {
    lines.push(
      `${`${label}, ${path.basename(root)}`.padEnd(28)} wall ${figures(ss.map((s) => s.wallMs))} ms; tree CPU ${figures(ss.map((s) => s.treeCpuMs))} ms; ` +
        `server main thread: CPU ${figures(ss.map((s) => s.mainCpuMs))} ms, wall minus CPU wait ${figures(ss.map((s) => s.mainUnqueuedMs))} ms`,
    );
  }
}

async function main() {
  const lines: string[] = [];
  const loadBefore = os.loadavg()[0];
  if (BACKENDS.includes('pglite')) {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cal-start-'));
    try {
      await backend('embedded', (root) => ({ DATABASE_URL: undefined, CAL_DATA_DIR: path.join(dir, String(ROOTS.indexOf(root))) }), lines);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  if (BACKENDS.includes('postgres')) {
    const names = ROOTS.map((_, i) => `cal_bench_start_${process.pid}_${i}`);
    const urlFor = (root: string) => {
      const u = new URL(ADMIN_URL);
      u.pathname = `/${names[ROOTS.indexOf(root)]}`;
      return u.href;
    };
    await withAdminClient(ADMIN_URL, async (c) => {
      for (const name of names) await c.query(`CREATE DATABASE ${name}`);
    });
    try {
      await backend('PostgreSQL', (root) => ({ DATABASE_URL: urlFor(root) }), lines);
    } finally {
      await withAdminClient(ADMIN_URL, async (c) => {
        for (const name of names) await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      });
    }
  }
  console.log(`\n## npm start to /healthz, min / median of ${STARTS} (load average ${loadBefore.toFixed(1)} → ${os.loadavg()[0].toFixed(1)} on ${os.cpus().length} CPUs)\n`);
  for (const l of lines) console.log(l);
  console.log('\ntarget: ≤ 1000 ms wall on an idle machine (there, wall ≈ the main thread\'s wall minus its CPU wait plus npm\'s ~0.15 s)');
}

main().catch((e: unknown) => {
  console.error(e);
  process.exitCode = 1;
});
