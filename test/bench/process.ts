/**
 * Child processes of the bench: the real server as `npm start` runs it (compiled:
 * `node dist/src/server/main.js`, plus the SQL-count preload) and the minimal handler, each on its own loopback port, with RSS sampling from
 * `/proc/<pid>/status` and the SQL counter reached over IPC.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from '../helpers/process.ts';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const PRELOAD = path.join(ROOT, 'test/bench/sql-count-preload.mjs');

/** Resident set size of a process in bytes (VmRSS), or null once it is gone. */
export function readRss(pid: number): number | null {
  try {
    const m = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) * 1024 : null;
  } catch {
    return null;
  }
}

let clockTicks = 100;
try {
  clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
} catch {
  /* Linux default */
}

/** CPU time (user + system) a process has used so far, in milliseconds; null once it is gone. */
export function readCpuMs(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // fields[0] is field 3 (state): utime is field 14, stime field 15.
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / clockTicks;
  } catch {
    return null;
  }
}

/** Samples RSS every `intervalMs`; `take()` returns the maximum since the last `take()` and resets it. */
export function rssSampler(pid: number, intervalMs = 200) {
  let max = readRss(pid) ?? 0;
  let overall = max;
  let period = max;
  const timer = setInterval(() => {
    const rss = readRss(pid);
    if (rss !== null) {
      if (rss > max) max = rss;
      if (rss > overall) overall = rss;
      if (rss > period) period = rss;
    }
  }, intervalMs);
  timer.unref();
  return {
    take() {
      const rss = readRss(pid);
      const value = Math.max(max, rss ?? 0);
      max = rss ?? 0;
      return value;
    },
    /** Maximum since the previous call (e.g. per round). */
    period() {
      const value = Math.max(period, readRss(pid) ?? 0);
      period = readRss(pid) ?? 0;
      return value;
    },
    current: () => readRss(pid),
    overall: () => overall,
    stop: () => clearInterval(timer),
  };
}

export interface Child {
  pid: number;
  baseUrl: string;
  port: number;
  /** Milliseconds from spawn until the process answered its readiness probe. */
  readyMs: number;
  /** Statements sent so far (null when the process has no SQL counter). */
  sqlCount(): Promise<number | null>;
  /** Records statement texts and parameters until `dump()`. */
  record(): Promise<void>;
  dump(): Promise<{ sql: string; values: unknown[] }[]>;
  /** process.memoryUsage() of the child (server with the preload only). */
  memory(): Promise<NodeJS.MemoryUsage | null>;
  stop(): Promise<void>;
  /** SIGKILL, resolved once it is gone. */
  kill(): Promise<void>;
  output(): string;
}

export interface StartOptions {
  /** Script relative to `root`: TypeScript runs through tsx, JavaScript (the compiled server) as is. */
  script: string;
  /** Project directory the script runs in (default: this checkout). */
  root?: string;
  env: Record<string, string | undefined>;
  /** Extra node flags (e.g. --cpu-prof). */
  nodeFlags?: string[];
  /** Load the SQL-count preload (server only). */
  sqlPreload?: boolean;
  readyPath?: string;
  label: string;
  /** Port to listen on (default: a free one). */
  port?: number;
}

const children = new Set<ChildProcess>();

/**
 * Cleanups of a bench that starts pieces of its own (a PostgreSQL, a Redis, instances): `add` them as
 * they start; `run` undoes them newest first (once) and kills the children left, also on SIGINT or
 * SIGTERM, then exits.
 */
export function cleanupsOnExit(log: (msg: string) => void): { add: (undo: () => unknown) => void; run: () => Promise<void> } {
  const undo: (() => unknown)[] = [];
  let ran = false;
  async function run() {
    if (ran) return;
    ran = true;
    for (const c of undo.splice(0).reverse()) await Promise.resolve().then(c).catch((e: unknown) => log(`cleanup: ${(e as Error).message}`));
    killChildren();
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => {
      log(`${signal}: stopping everything it started`);
      void run().finally(() => process.exit(130));
    });
  }
  return { add: (c) => void undo.push(c), run };
}

/** The CPU time (ms) of each client backend of the client's database but its own, by PID. */
export function dbCpuReader(client: pg.Client): () => Promise<Map<number, number>> {
  return async () => {
    const { rows } = await client.query<{ pid: number }>(
      `SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() AND backend_type = 'client backend'`,
    );
    const out = new Map<number, number>();
    for (const { pid } of rows) {
      const ms = readCpuMs(pid);
      if (ms !== null) out.set(pid, ms);
    }
    return out;
  };
}

/** Kills what is still running (bench aborted): only the processes this bench started. */
export function killChildren() {
  for (const c of children) {
    try {
      c.kill('SIGKILL');
    } catch {
      /* gone */
    }
  }
}

const SERVER = 'dist/src/server/main.js';

/**
 * How `npm start` launches the compiled server (package.json `start`: `[NAME=value …] exec node
 * [flags] src/start.mjs`, which checks that dist/ is current and imports dist/src/server/main.js; older
 * revisions ran main.js itself): its environment settings and node flags (`${NAME:-default}` honoured),
 * so that the bench measures the process `npm start` runs. Empty for older revisions still.
 */
export function npmStartLaunch(root = ROOT): { env: Record<string, string>; flags: string[] } {
  const start = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts?: Record<string, string> }).scripts?.start ?? '';
  const m = /^((?:\w+=\S+\s+)*)exec node((?:\s+--\S+)*)\s+(?:dist\/src\/server\/main\.js|src\/start\.mjs)$/.exec(start.trim());
  if (!m) return { env: {}, flags: [] };
  const expand = (text: string) => text.replace(/\$\{(\w+):-([^}]*)\}/g, (_, name: string, dflt: string) => process.env[name] || dflt);
  const env: Record<string, string> = {};
  for (const [, name, value] of m[1]!.matchAll(/(\w+)=(\S+)/g)) env[name!] = expand(value!);
  return { env, flags: m[2]!.trim().split(/\s+/).filter(Boolean).map(expand) };
}

export async function startChild(opts: StartOptions): Promise<Child> {
  const port = opts.port ?? (await freePort());
  const loader = opts.script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const launch = opts.script === SERVER ? npmStartLaunch(opts.root) : { env: {}, flags: [] };
  const args = [...launch.flags, ...(opts.nodeFlags ?? []), ...loader, ...(opts.sqlPreload ? ['--import', PRELOAD] : []), path.join(opts.root ?? ROOT, opts.script)];
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries({ ...process.env, ...launch.env, ...opts.env, PORT: String(port), HOST: '127.0.0.1' })) if (v !== undefined) env[k] = v;
  const spawnedAt = performance.now();
  const child = spawn(process.execPath, args, { cwd: opts.root ?? ROOT, env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  children.add(child);
  let log = '';
  const keep = (b: Buffer) => {
    log = (log + b.toString()).slice(-20_000);
  };
  child.stdout!.on('data', keep);
  child.stderr!.on('data', keep);
  let exited: number | null = null;
  const exit = new Promise<void>((resolve) =>
    child.on('exit', (code, signal) => {
      exited = code ?? (signal ? 128 : 0);
      children.delete(child);
      resolve();
    }),
  );

  const pending = new Map<string, (m: Record<string, unknown>) => void>();
  child.on('message', (m: Record<string, unknown>) => {
    const key = String(m?.sqlBench ?? m?.bench ?? '');
    const resolve = pending.get(key);
    pending.delete(key);
    resolve?.(m);
  });
  const ask = (cmd: string, timeoutMs = 5000) =>
    new Promise<Record<string, unknown> | null>((resolve) => {
      if (!child.connected) return resolve(null);
      const timer = setTimeout(() => {
        pending.delete(cmd);
        resolve(null);
      }, timeoutMs);
      pending.set(cmd, (m) => {
        clearTimeout(timer);
        resolve(m);
      });
      child.send({ sqlBench: cmd });
    });

  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (exited !== null) throw new Error(`${opts.label} exited with ${exited} before listening:\n${log}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${opts.label} did not start within 120 s:\n${log}`);
    }
    try {
      const res = await fetch(baseUrl + (opts.readyPath ?? '/readyz'));
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    await new Promise((r) => setTimeout(r, 200));
  }

  const readyMs = performance.now() - spawnedAt;
  return {
    pid: child.pid!,
    port,
    readyMs,
    baseUrl,
    async sqlCount() {
      if (!opts.sqlPreload) return null;
      const m = await ask('count');
      return m ? Number(m.count) : null;
    },
    async record() {
      await ask('record');
    },
    async dump() {
      const m = await ask('dump');
      return (m?.statements as { sql: string; values: unknown[] }[]) ?? [];
    },
    async memory() {
      if (!opts.sqlPreload) return null;
      const m = await ask('memory');
      return (m?.usage as NodeJS.MemoryUsage) ?? null;
    },
    async stop() {
      if (exited !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exit;
      clearTimeout(timer);
    },
    async kill() {
      if (exited !== null) return;
      child.kill('SIGKILL');
      await exit;
    },
    output: () => log,
  };
}

/** Runs `f` on a client connected to `adminUrl` (creating and dropping the benches' own databases). */
export async function withAdminClient(adminUrl: string, f: (c: pg.Client) => Promise<unknown>): Promise<void> {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  try {
    await f(c);
  } finally {
    await c.end();
  }
}
