import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, launchServerProcess, stopServerProcesses } from '../helpers/process.ts';

// Debian's prometheus (.ci/run installs it, as chromium and varnish); the test skips without it.
const PROMETHEUS = '/usr/bin/prometheus';
const missing = existsSync(PROMETHEUS) ? null : `${PROMETHEUS} is not installed`;
const SHIPPED = path.resolve(import.meta.dirname, '../../deploy/prometheus/prometheus.yml');
const DASHBOARD = path.resolve(import.meta.dirname, '../../deploy/grafana/cal-events-dashboard.json');

// Backend-independent (an embedded database): runs in the PGlite project only.
describe.skipIf(missing !== null || process.env.TEST_BACKEND === 'postgres')('a real Prometheus scrapes an instance (deploy/prometheus/prometheus.yml)', { timeout: 300_000 }, () => {
  let prometheus: ChildProcess | undefined;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cal-prom-'));
  afterAll(() => {
    prometheus?.kill('SIGKILL');
    stopServerProcesses();
    rmSync(dir, { recursive: true, force: true });
  });

  it('scrapes /metrics and answers a PromQL rate query over the requests it saw', async () => {
    const metricsPort = await freePort();
    const server = launchServerProcess({ DATABASE_URL: 'memory:', CAL_METRICS_ADDR: `127.0.0.1:${metricsPort}` });
    const base = await server.listening;

    // The shipped configuration, its targets replaced by this instance and scraped every second.
    const shipped = readFileSync(SHIPPED, 'utf8');
    expect(shipped).toContain('metrics_path: /metrics');
    const config = shipped
      .replace(/scrape_interval: \d+s/, 'scrape_interval: 1s')
      .replace(/- targets:\n(\s+- [\d.:]+\n)+/, `- targets:\n          - 127.0.0.1:${metricsPort}\n`);
    expect(config).toContain(`127.0.0.1:${metricsPort}`);
    writeFileSync(path.join(dir, 'prometheus.yml'), config);
    const webPort = await freePort();
    let output = '';
    prometheus = spawn(PROMETHEUS, [`--config.file=${path.join(dir, 'prometheus.yml')}`, `--storage.tsdb.path=${path.join(dir, 'data')}`, `--web.listen-address=127.0.0.1:${webPort}`], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    prometheus.stdout!.on('data', (d) => (output += d));
    prometheus.stderr!.on('data', (d) => (output += d));

    const query = async (promql: string) => {
      const res = await fetch(`http://127.0.0.1:${webPort}/api/v1/query?query=${encodeURIComponent(promql)}`);
      return (await res.json()) as { status: string; data: { result: { metric: Record<string, string>; value: [number, string] }[] } };
    };
    // Traffic while Prometheus scrapes, until a rate over it is known (two scrapes at least).
    const rate = 'sum by (route) (rate(cal_http_requests_total{surface="rest"}[30s]))';
    let answer: Awaited<ReturnType<typeof query>> | undefined;
    for (let i = 0; i < 240; i++) {
      await fetch(`${base}/wp-json/cal/events/v1/events`).then((r) => r.arrayBuffer());
      await new Promise((r) => setTimeout(r, 250));
      if (i % 4 !== 3) continue;
      answer = await query(rate).catch(() => undefined);
      if (answer?.data.result.some((r) => Number(r.value[1]) > 0)) break;
    }
    expect(answer?.status, output).toBe('success');
    const series = answer!.data.result.find((r) => r.metric.route === '/cal/events/v1/events');
    expect(Number(series?.value[1])).toBeGreaterThan(0);
    // The target is up, as Prometheus sees it.
    const up = await query('up{job="cal-events"}');
    expect(up.data.result.map((r) => r.value[1])).toEqual(['1']);

    // Every query of the shipped Grafana dashboard is valid PromQL over these metrics, and the
    // request, latency and event-loop panels have data.
    const dashboard = JSON.parse(readFileSync(DASHBOARD, 'utf8')) as { panels: { title: string; targets: { expr: string }[] }[] };
    const withData: string[] = [];
    for (const panel of dashboard.panels) {
      for (const { expr } of panel.targets) {
        const promql = expr.replaceAll('$job', 'cal-events').replaceAll('$instance', '.*').replaceAll('$__rate_interval', '30s');
        const res = await query(promql);
        expect(res.status, `${panel.title}: ${promql}`).toBe('success');
        if (res.data.result.length) withData.push(panel.title);
      }
    }
    for (const title of ['Requests / s', 'Request rate by route', 'p99 latency by route', 'Event loop', 'Heap and GC']) expect(withData).toContain(title);
  });
});
