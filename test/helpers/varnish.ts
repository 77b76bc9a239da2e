import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Debian's Varnish (varnish, varnish-modules) with the shipped VCL (deploy/varnish/cal-events.vcl),
 * for the Varnish test, `npm run bench:edge` and `npm run topology`. The shipped backends.vcl is
 * replaced by one listing the given instances, with the same probe and director.
 */
const VARNISHD = '/usr/sbin/varnishd';
const VARNISHSTAT = '/usr/bin/varnishstat';
const VARNISHADM = '/usr/bin/varnishadm';
const VCL_DIR = path.resolve(import.meta.dirname, '../../deploy/varnish');
const VCL = path.join(VCL_DIR, 'cal-events.vcl');

/** Why Varnish cannot run here (no varnishd, or the VCL does not compile: no xkey vmod); null when it can. */
export function varnishMissing(): string | null {
  if (!existsSync(VARNISHD)) return `no ${VARNISHD} (apt-get install varnish varnish-modules)`;
  const dir = mkdtempSync(path.join(tmpdir(), 'cal-vcl-'));
  try {
    const r = spawnSync(VARNISHD, ['-C', '-f', VCL, '-n', path.join(dir, 'work')], { encoding: 'utf8' });
    return r.status === 0 ? null : `the VCL does not compile here (xkey vmod missing? apt-get install varnish-modules): ${r.stderr.split('\n').slice(0, 4).join(' ')}`;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export interface Varnish {
  base: string;
  /** Counters of varnishstat (`MAIN.cache_hit`, `MAIN.cache_miss`, …). */
  stats(): Record<string, number>;
  /** Whether each instance is in the rotation (its probe of /readyz), by position in `backends`. */
  healthy(): boolean[];
  /** SIGKILL of varnishd (its cache process goes with it): the cache is lost, the port closed. */
  crash(): Promise<void>;
  /** Starts it again on the same port after `crash`; resolves once it answers. */
  restart(): Promise<void>;
  stop(): Promise<void>;
}

/** backends.vcl for these instances: the shipped probe and round-robin director `cal`. */
const backendNames = (backends: readonly string[]) => backends.map((_, i) => `app${i + 1}`);

function backendsVcl(backends: readonly string[]): string {
  const names = backendNames(backends);
  const defs = backends.map((url, i) => {
    const { hostname, port } = new URL(url);
    return `backend ${names[i]} {\n    .host = "${hostname}";\n    .port = "${port}";\n    .probe = cal_ready;\n    .connect_timeout = 2s;\n    .first_byte_timeout = 60s;\n    .between_bytes_timeout = 60s;\n}\n`;
  });
  return `${defs.join('\n')}\nsub vcl_init {\n    new cal = directors.round_robin();\n${names.map((n) => `    cal.add_backend(${n});\n`).join('')}}\n`;
}

/**
 * varnishd in the foreground on `port` with the shipped VCL, its director over `backends` (one
 * base URL or several). `ready`: wait until a request through it reaches an instance (default).
 */
export async function startVarnish(port: number, backends: string | readonly string[], storageMb = 64, opts: { ready?: boolean } = {}): Promise<Varnish> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cal-varnish-'));
  chmodSync(dir, 0o755); // the cache process runs as an unprivileged user when started as root
  const vclFile = path.join(dir, 'cal-events.vcl');
  copyFileSync(VCL, vclFile);
  const list = typeof backends === 'string' ? [backends] : backends;
  const names = backendNames(list);
  writeFileSync(path.join(dir, 'backends.vcl'), backendsVcl(list));
  for (const f of ['cal-events.vcl', 'backends.vcl']) chmodSync(path.join(dir, f), 0o644);
  const work = path.join(dir, 'work');
  const base = `http://127.0.0.1:${port}`;
  let child: ChildProcess;
  let output = '';

  const launch = async (ready: boolean) => {
    output = '';
    // Its own process group: a crash takes the cache process down with the manager.
    child = spawn(VARNISHD, ['-F', '-n', work, '-a', `127.0.0.1:${port}`, '-f', vclFile, '-s', `malloc,${storageMb}m`], {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    child.stdout!.on('data', (d) => (output += d));
    child.stderr!.on('data', (d) => (output += d));
    for (let i = 0; ; i++) {
      if (child.exitCode !== null) throw new Error(`varnishd exited: ${output}`);
      const res = await fetch(`${base}/healthz`).catch(() => null);
      await res?.body?.cancel();
      // Listening is enough when the instances may be down; otherwise a request reached one.
      if (res && (!ready || res.ok)) break;
      if (i > 600) throw new Error(`varnishd did not answer: ${output}`);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  };
  const kill = async (signal: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    try {
      process.kill(-child.pid!, signal);
    } catch {
      child.kill(signal);
    }
    await exited;
  };

  await launch(opts.ready ?? true);
  return {
    base,
    stats: () => {
      const r = spawnSync(VARNISHSTAT, ['-n', work, '-1', '-j'], { encoding: 'utf8' });
      const json = JSON.parse(r.stdout) as { counters?: Record<string, { value: number }> };
      return Object.fromEntries(Object.entries(json.counters ?? {}).map(([k, v]) => [k, v.value]));
    },
    healthy: () => {
      const r = spawnSync(VARNISHADM, ['-n', work, 'backend.list', '-j'], { encoding: 'utf8' });
      const [, , , table] = JSON.parse(r.stdout) as [number, unknown, number, Record<string, { probe_message?: [number, number, string] }>];
      return names.map((name) => Object.entries(table).some(([key, b]) => key.endsWith(`.${name}`) && b.probe_message?.[2] === 'healthy'));
    },
    crash: () => kill('SIGKILL'),
    restart: () => launch(false),
    stop: async () => {
      await kill('SIGTERM');
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
