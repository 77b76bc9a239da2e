import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, launchServerProcess, stopServerProcesses, type LaunchedServer } from '../helpers/process.ts';
import { createPostgresDatabase, testBackend } from '../helpers/database.ts';
import { subscribeSse } from '../helpers/sse.ts';

const START_BUDGET_MS = 180_000;
const ADMIN = `Basic ${Buffer.from('admin:secret-pass').toString('base64')}`;
const REST = '/wp-json/cal/events/v1';

/** The exposition's series: `name{labels}` → value (comments left out). */
function series(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}
const sum = (s: Map<string, number>, prefix: string, has: string[] = []) =>
  [...s].filter(([k]) => k.startsWith(prefix) && has.every((h) => k.includes(h))).reduce((n, [, v]) => n + v, 0);

describe('Prometheus metrics (CAL_METRICS_ADDR)', () => {
  let server: LaunchedServer;
  let base: string;
  let metricsUrl: string;
  let drop = async () => {};
  // A webhook receiver that answers 200; a second endpoint points at a closed port (its delivery
  // fails and waits for a retry far away, so it stays pending).
  let hooks: Server;
  let received = 0;
  beforeAll(async () => {
    hooks = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        received++;
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => hooks.listen(0, '127.0.0.1', resolve));
    const env: Record<string, string> = {
      CAL_ADMIN_LOGIN: 'admin',
      CAL_ADMIN_PASSWORD: 'secret-pass',
      DATABASE_URL: 'memory:',
      CAL_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      CAL_WEBHOOK_RETRY_BASE_MS: '3600000',
    };
    if (testBackend === 'postgres') {
      const db = await createPostgresDatabase();
      env.DATABASE_URL = db.url;
      drop = db.drop;
    }
    const port = await freePort();
    server = launchServerProcess({ ...env, CAL_METRICS_ADDR: `127.0.0.1:${port}` });
    base = await server.listening;
    metricsUrl = `http://127.0.0.1:${port}/metrics`;
  }, START_BUDGET_MS);
  afterAll(async () => {
    stopServerProcesses();
    hooks?.close();
    await drop();
  });

  const scrape = async () => {
    const res = await fetch(metricsUrl);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    return res.text();
  };

  it('counts mixed traffic in every family, by route template; a thousand distinct URLs add no series', async () => {
    // Writes (a change delivered to an open subscription), REST reads (a miss, then hits), GraphQL, pages, feeds.
    const sub = await subscribeSse(base, 'subscription { eventChanged { action } }');
    const closedPort = await freePort();
    for (const url of [`http://127.0.0.1:${(hooks.address() as AddressInfo).port}/hook`, `http://127.0.0.1:${closedPort}/hook`]) {
      const added = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { authorization: ADMIN, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'mutation ($input: AddWebhookEndpointInput!) { addWebhookEndpoint(input: $input) { __typename } }', variables: { input: { url, types: ['EVENT'] } } }),
      });
      expect(await added.json()).toEqual({ data: { addWebhookEndpoint: { __typename: 'AddWebhookEndpointSuccess' } } });
    }
    const created = await fetch(`${base}${REST}/events`, {
      method: 'POST',
      headers: { authorization: ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Metrics', start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 11:00:00' }),
    });
    expect(created.status).toBe(201);
    const { id } = (await created.json()) as { id: number };
    expect((await sub.next(20_000)).data.eventChanged.action).toBe('CREATED');
    for (let i = 0; i < 3; i++) expect((await fetch(`${base}${REST}/events/${id}`)).status).toBe(200);
    expect((await fetch(`${base}${REST}/events?per_page=5`)).status).toBe(200);
    const gql = await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: 'query Probe { events(first: 1) { totalCount } }', operationName: 'Probe' }) });
    expect(gql.status).toBe(200);
    await fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ event(id: "x") { nope } }' }) });
    expect((await fetch(`${base}/events/`)).status).toBe(200);
    expect((await fetch(`${base}/events.ics`)).status).toBe(200);

    // The webhook attempts (one delivered, one failed) are recorded after their answers.
    const deadline = Date.now() + 60_000;
    let first = await scrape();
    while (Date.now() < deadline && !(/^cal_webhook_attempts_total\{outcome="delivered"\} /m.test(first) && /^cal_webhook_attempts_total\{outcome="retry"\} /m.test(first))) {
      await new Promise((r) => setTimeout(r, 200));
      first = await scrape();
    }
    const s = series(first);
    // Every family of the issue, with the labels an operator filters by.
    expect(sum(s, 'cal_http_requests_total', ['route="/cal/events/v1/events/(?P<id>\\\\d+)"', 'surface="rest"', 'status="2xx"', 'method="GET"'])).toBe(3);
    expect(sum(s, 'cal_http_requests_total', ['route="/graphql"', 'surface="graphql"'])).toBeGreaterThanOrEqual(2);
    expect(sum(s, 'cal_http_requests_total', ['surface="pages"'])).toBeGreaterThanOrEqual(1);
    expect(sum(s, 'cal_http_requests_total', ['surface="feeds"'])).toBeGreaterThanOrEqual(1);
    expect(sum(s, 'cal_http_request_duration_seconds_count', ['surface="rest"'])).toBeGreaterThanOrEqual(5);
    expect(sum(s, 'cal_graphql_operations_total', ['operation="Probe"', 'type="query"', 'route="none"'])).toBe(1);
    expect(sum(s, 'cal_graphql_operations_total', ['type="mutation"', 'route="/cal/events/v1/events"'])).toBeGreaterThanOrEqual(1);
    expect(sum(s, 'cal_graphql_operation_duration_seconds_count', ['operation="Probe"'])).toBe(1);
    expect(first).toMatch(/^cal_graphql_errors_total\{operation="[^"]*",code="GRAPHQL_VALIDATION_FAILED"\} 1$|^# TYPE cal_graphql_errors_total counter$/m);
    expect(sum(s, 'cal_cache_hits_total')).toBeGreaterThanOrEqual(2);
    expect(sum(s, 'cal_cache_misses_total')).toBeGreaterThanOrEqual(1);
    expect(s.has('cal_cache_evictions_total')).toBe(true);
    expect(sum(s, 'cal_cache_bytes')).toBeGreaterThan(0);
    expect(sum(s, 'cal_cache_entries')).toBeGreaterThan(0);
    expect(first).toContain('# TYPE cal_cache_purges_total counter');
    expect(sum(s, 'cal_db_statement_duration_seconds_count')).toBeGreaterThan(5);
    expect(s.has('cal_db_pool_in_use')).toBe(true);
    expect(s.has('cal_db_pool_waiting')).toBe(true);
    if (testBackend === 'postgres') expect(sum(s, 'cal_db_pool_connections')).toBeGreaterThan(0);
    expect(first).toContain('# TYPE cal_db_retries_total counter');
    expect(s.has('cal_db_unavailable_total')).toBe(true);
    expect(sum(s, 'cal_subscriptions_open', ['transport="sse"'])).toBe(1);
    expect(sum(s, 'cal_change_deliveries_total')).toBeGreaterThanOrEqual(1);
    expect(sum(s, 'cal_change_delivery_lag_seconds_count')).toBeGreaterThanOrEqual(1);
    // The change log's backlog: this process's tailer has read every committed change (the subscriber got it).
    expect(s.get('cal_change_log_backlog_rows')).toBe(0);
    expect(s.get('cal_change_log_backlog_seconds')).toBe(0);
    // The webhook queue: one delivered, one failed and pending until its retry; no URL in any label.
    expect(received).toBeGreaterThanOrEqual(1);
    expect(s.get('cal_webhook_attempts_total{outcome="delivered"}')).toBeGreaterThanOrEqual(1);
    expect(s.get('cal_webhook_attempts_total{outcome="retry"}')).toBeGreaterThanOrEqual(1);
    expect(sum(s, 'cal_webhook_attempt_duration_seconds_count')).toBeGreaterThanOrEqual(2);
    expect(s.get('cal_webhook_deliveries_pending')).toBe(1);
    expect(s.get('cal_webhook_oldest_pending_seconds')).toBeGreaterThan(0);
    expect(s.get('cal_webhook_endpoints{state="enabled"}')).toBe(2);
    expect(s.get('cal_webhook_endpoints{state="disabled"}')).toBe(0);
    expect(s.get('cal_webhook_endpoints_disabled_total')).toBe(0);
    expect([...s.keys()].filter((k) => k.startsWith('cal_webhook') && k.includes('127.0.0.1'))).toEqual([]);
    // The library's process metrics: event-loop lag and utilisation, heap, GC.
    for (const name of ['nodejs_eventloop_lag_p99_seconds', 'nodejs_eventloop_utilization', 'nodejs_heap_size_used_bytes', 'process_cpu_seconds_total']) expect(s.has(name), name).toBe(true);
    expect(first).toContain('# TYPE nodejs_gc_duration_seconds histogram');
    sub.close();

    // A thousand distinct URLs: REST searches, records by ID, unknown REST routes, unknown pages, GraphQL operation names.
    const before = series(await scrape());
    for (let i = 0; i < 1000; i += 50) {
      await Promise.all(
        Array.from({ length: 50 }, (_, j) => {
          const n = i + j;
          const urls = [`${REST}/events?search=term${n}`, `${REST}/events/${100000 + n}`, `${REST}/nothing-${n}`, `/no-page-${n}`, `/events/?tribe-bar-search=q${n}`];
          return Promise.all([
            ...urls.map((u) => fetch(`${base}${u}`).then((r) => r.arrayBuffer())),
            fetch(`${base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: `query Op${n} { __typename }`, operationName: `Op${n}` }) }).then((r) => r.arrayBuffer()),
          ]);
        }),
      );
    }
    const after = series(await scrape());
    const keys = (m: Map<string, number>) => [...m.keys()].filter((k) => k.startsWith('cal_'));
    const added = keys(after).filter((k) => !before.has(k));
    // No URL becomes a label: the new series are the status classes and routes met for the first
    // time (4xx of the unknown IDs, the no-route answers), a handful whatever the number of URLs.
    const byUrl = added.filter((k) => !k.includes('operation='));
    expect(byUrl.filter((k) => /term\d|nothing-\d|no-page-\d|100\d\d\d|q\d/.test(k))).toEqual([]);
    expect(new Set(byUrl.map((k) => k.replace(/_(bucket|sum|count)\{/, '{').replace(/,?le="[^"]*"/, ''))).size).toBeLessThan(12);
    // Operation names sent by clients: the first hundred are kept, the rest counted as `other`.
    const names = new Set(keys(after).flatMap((k) => /operation="(Op\d+)"/.exec(k)?.[1] ?? []));
    expect(names.size).toBeLessThanOrEqual(100);
    expect(sum(after, 'cal_http_requests_total', ['route="(no route)"'])).toBeGreaterThanOrEqual(1000);
    expect(sum(after, 'cal_graphql_operations_total', ['operation="other"'])).toBeGreaterThanOrEqual(900);
  }, 300_000);

  it('serves only /metrics, and a second instance on a taken metrics port starts without it', async () => {
    expect((await fetch(metricsUrl.replace('/metrics', '/'))).status).toBe(404);
    expect((await fetch(`${base}/metrics`)).status).not.toBe(200);
    const taken = new URL(metricsUrl).port;
    const second = launchServerProcess({ DATABASE_URL: 'memory:', CAL_METRICS_ADDR: `127.0.0.1:${taken}` });
    const other = await second.listening;
    expect((await fetch(`${other}/healthz`)).status).toBe(200);
    expect(second.stdout()).toContain('metrics: cannot listen');
    second.stop();
  }, START_BUDGET_MS);
});
