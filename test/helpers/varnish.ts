import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Debian's Varnish (varnish, varnish-modules) with the shipped VCL (deploy/varnish/cal-events.vcl),
 * for the Varnish test and `npm run bench:edge`.
 */
const VARNISHD = '/usr/sbin/varnishd';
const VARNISHSTAT = '/usr/bin/varnishstat';
const VCL = path.resolve(import.meta.dirname, '../../deploy/varnish/cal-events.vcl');

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

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export interface Varnish {
  base: string;
  /** Counters of varnishstat (`MAIN.cache_hit`, `MAIN.cache_miss`, …). */
  stats(): Record<string, number>;
  stop(): Promise<void>;
}

/** varnishd in the foreground on `port` with the shipped VCL, its backend set to `backend`. */
export async function startVarnish(port: number, backend: string, storageMb = 64): Promise<Varnish> {
  const dir = mkdtempSync(path.join(tmpdir(), 'cal-varnish-'));
  chmodSync(dir, 0o755); // the cache process runs as an unprivileged user when started as root
  const { hostname, port: backendPort } = new URL(backend);
  const vcl = readFileSync(VCL, 'utf8').replace('.host = "127.0.0.1";', `.host = "${hostname}";`).replace('.port = "8080";', `.port = "${backendPort}";`);
  const vclFile = path.join(dir, 'cal-events.vcl');
  writeFileSync(vclFile, vcl);
  chmodSync(vclFile, 0o644);
  const work = path.join(dir, 'work');
  const child: ChildProcess = spawn(VARNISHD, ['-F', '-n', work, '-a', `127.0.0.1:${port}`, '-f', vclFile, '-s', `malloc,${storageMb}m`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`varnishd exited: ${output}`);
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (i > 600) throw new Error(`varnishd did not answer: ${output}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    base,
    stats: () => {
      const r = spawnSync(VARNISHSTAT, ['-n', work, '-1', '-j'], { encoding: 'utf8' });
      const json = JSON.parse(r.stdout) as { counters?: Record<string, { value: number }> };
      return Object.fromEntries(Object.entries(json.counters ?? {}).map(([k, v]) => [k, v.value]));
    },
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
