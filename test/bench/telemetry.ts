/**
 * What metrics and tracing cost (docs/operations.md, "Metrics and traces"): cached reads
 * (GET /events?per_page=50 answered by the byte cache, the cheapest request and so the one where
 * any per-request overhead shows most) on three servers over copies of one seeded calendar:
 *
 *   off      CAL_METRICS_ADDR=off, no OTEL_* variable: tracing off, nothing recorded
 *   metrics  CAL_METRICS_ADDR on (scraped every 15 s, as deploy/prometheus/prometheus.yml does), tracing off
 *   traced   metrics on, and OTLP traces with OTEL_TRACES_SAMPLER=traceidratio, ARG=0.1, exported to
 *            a receiver in this process that reads and drops them
 *
 * Rounds alternate the three (each gets the same machine load, which drifts on a shared machine),
 * and the figures are medians over rounds: throughput (req/s at BENCH_TELEMETRY_CONNECTIONS) and the
 * server's CPU per request (its /proc time over the run), each as a ratio to `off`.
 *
 *   npm run bench:telemetry         (also run by `npm run bench`, BENCH_TELEMETRY=0 leaves it out)
 *   BENCH_TELEMETRY_ROUNDS=20 BENCH_TELEMETRY_SECONDS=1.5 BENCH_TELEMETRY_CONNECTIONS=4 BENCH_TELEMETRY_EVENTS=300
 */
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { runLoad } from './load.ts';
import { readCpuMs, ROOT, startChild, type Child } from './process.ts';
import { seedUrl } from './seed.ts';

export interface TelemetryRow {
  setup: 'off' | 'metrics' | 'traced';
  rps: number;
  cpuMsPerReq: number;
  /** rps ÷ off's rps and CPU ÷ off's CPU (1 for off). */
  rpsRatio: number;
  cpuRatio: number;
  spansReceived?: number;
}

const env = process.env;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;

export async function measureTelemetry(root = ROOT): Promise<TelemetryRow[]> {
  const rounds = Number(env.BENCH_TELEMETRY_ROUNDS ?? 20);
  const seconds = Number(env.BENCH_TELEMETRY_SECONDS ?? 1.5);
  const connections = Number(env.BENCH_TELEMETRY_CONNECTIONS ?? 4);
  const events = Number(env.BENCH_TELEMETRY_EVENTS ?? 300);
  const scrapeS = Number(env.BENCH_TELEMETRY_SCRAPE_S ?? 15);
  execFileSync(process.execPath, ['src/build.mjs', '--if-stale'], { cwd: root, stdio: 'inherit' });

  // A receiver that takes the spans and drops them (an OTLP collector's cost is not the server's).
  let spans = 0;
  const sink = createServer((req, res) => {
    req.on('data', (d: Buffer) => (spans += d.length > 0 ? 1 : 0));
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end('{}'));
  });
  await new Promise<void>((resolve) => sink.listen(0, '127.0.0.1', resolve));
  const sinkUrl = `http://127.0.0.1:${(sink.address() as AddressInfo).port}`;

  const seeded = mkdtempSync(path.join(os.tmpdir(), 'cal-bench-telemetry-'));
  const children: Child[] = [];
  const scrapers: NodeJS.Timeout[] = [];
  try {
    await seedUrl(undefined, path.join(seeded, 'seed'), { events, siteTimezone: 'America/New_York', label: `seed ${events} (telemetry)` });
    const setups = [
      { setup: 'off', env: { CAL_METRICS_ADDR: 'off' } },
      { setup: 'metrics', env: {} },
      { setup: 'traced', env: { OTEL_EXPORTER_OTLP_ENDPOINT: sinkUrl, OTEL_EXPORTER_OTLP_PROTOCOL: 'http/protobuf', OTEL_TRACES_SAMPLER: 'traceidratio', OTEL_TRACES_SAMPLER_ARG: '0.1' } },
    ] as const;
    const servers: { setup: TelemetryRow['setup']; child: Child; rps: number[]; cpu: number[] }[] = [];
    for (const s of setups) {
      const dir = path.join(seeded, s.setup);
      cpSync(path.join(seeded, 'seed'), dir, { recursive: true });
      const metricsPort = s.setup === 'off' ? null : await freeLoopbackPort();
      const child = await startChild({
        script: 'dist/src/server/main.js',
        root,
        env: {
          DATABASE_URL: '',
          CAL_DATA_DIR: dir,
          CAL_LOG_LEVEL: 'warn',
          // Long enough that every measured read is a hit (nothing writes meanwhile).
          CAL_CACHE_TTL_S: '3600',
          CAL_TIMEZONE: 'America/New_York',
          ...(metricsPort ? { CAL_METRICS_ADDR: `127.0.0.1:${metricsPort}` } : {}),
          ...s.env,
        },
        readyPath: '/healthz',
        label: `server (${s.setup})`,
      });
      children.push(child);
      // Scraped as the shipped Prometheus configuration does (every 15 s; BENCH_TELEMETRY_SCRAPE_S): its cost is part of having metrics on.
      if (metricsPort) scrapers.push(setInterval(() => void fetch(`http://127.0.0.1:${metricsPort}/metrics`).then((r) => r.arrayBuffer()).catch(() => {}), scrapeS * 1000));
      servers.push({ setup: s.setup, child, rps: [], cpu: [] });
    }
    const path50 = '/wp-json/cal/events/v1/events?per_page=50';
    for (const { child } of servers) {
      const warm = await runLoad({ baseUrl: child.baseUrl, path: path50, connections, durationSec: 2 });
      if (warm.non2xx || warm.errors) throw new Error(`telemetry bench: ${path50} answered errors (${JSON.stringify(warm.statusCodes)})`);
      const probe = await fetch(child.baseUrl + path50);
      await probe.arrayBuffer();
      if (probe.headers.get('x-cache') !== 'HIT') throw new Error(`telemetry bench: ${path50} is not answered by the byte cache (X-Cache ${probe.headers.get('x-cache')})`);
    }
    for (let round = 0; round < rounds; round++) {
      for (const s of round % 2 ? [...servers].reverse() : servers) {
        const cpu0 = readCpuMs(s.child.pid) ?? 0;
        const r = await runLoad({ baseUrl: s.child.baseUrl, path: path50, connections, durationSec: seconds });
        const cpu = (readCpuMs(s.child.pid) ?? 0) - cpu0;
        s.rps.push(r.rps);
        s.cpu.push(cpu / Math.max(1, r.requests));
      }
    }
    const base = servers[0]!;
    const [baseRps, baseCpu] = [median(base.rps), median(base.cpu)];
    return servers.map((s) => ({
      setup: s.setup,
      rps: Math.round(median(s.rps)),
      cpuMsPerReq: +median(s.cpu).toFixed(3),
      rpsRatio: +(median(s.rps) / baseRps).toFixed(3),
      cpuRatio: +(median(s.cpu) / baseCpu).toFixed(3),
      ...(s.setup === 'traced' ? { spansReceived: spans } : {}),
    }));
  } finally {
    for (const t of scrapers) clearInterval(t);
    for (const c of children) await c.stop().catch(() => {});
    sink.close();
    rmSync(seeded, { recursive: true, force: true });
  }
}

async function freeLoopbackPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((resolve) => s.listen(0, '127.0.0.1', resolve));
  const { port } = s.address() as AddressInfo;
  await new Promise((resolve) => s.close(resolve));
  return port;
}

export function formatTelemetry(rows: TelemetryRow[]): string {
  const lines = ['telemetry overhead, cached GET /events?per_page=50 (byte cache hits), medians over alternating rounds:'];
  const label = { off: 'metrics off, tracing off', metrics: 'metrics on (scraped), tracing off', traced: 'metrics on, tracing 10 % sampled' };
  for (const r of rows) {
    const cost = r.setup === 'off' ? '' : `: throughput ${((r.rpsRatio - 1) * 100).toFixed(1)} %, CPU/req ${((r.cpuRatio - 1) * 100).toFixed(1)} % vs off`;
    lines.push(`  ${label[r.setup].padEnd(40)} ${String(r.rps).padStart(6)} req/s, ${r.cpuMsPerReq.toFixed(3)} ms CPU/req${cost}${r.spansReceived !== undefined ? ` (${r.spansReceived} exports received)` : ''}`);
  }
  return lines.join('\n');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  console.log(formatTelemetry(await measureTelemetry()));
}
