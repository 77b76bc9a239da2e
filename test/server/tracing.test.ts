import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchServerProcess, stopServerProcesses, type LaunchedServer } from '../helpers/process.ts';
import { createPostgresDatabase, testBackend } from '../helpers/database.ts';

const START_BUDGET_MS = 180_000;
const ADMIN = `Basic ${Buffer.from('admin:secret-pass').toString('base64')}`;

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: Record<string, unknown> }[];
}

/** An OTLP/HTTP receiver (JSON encoding): every span of every export it is sent. */
function otlpReceiver(): Promise<{ server: Server; url: string; spans: OtlpSpan[]; services: Set<string> }> {
  const spans: OtlpSpan[] = [];
  const services = new Set<string>();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (req.url === '/v1/traces' && req.method === 'POST') {
        const sent = JSON.parse(body) as { resourceSpans: { resource: { attributes: OtlpSpan['attributes'] }; scopeSpans: { spans: OtlpSpan[] }[] }[] };
        for (const rs of sent.resourceSpans) {
          for (const a of rs.resource.attributes) if (a.key === 'service.name') services.add(String(a.value.stringValue));
          for (const ss of rs.scopeSpans) spans.push(...ss.spans);
        }
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      } else res.writeHead(404).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, spans, services })));
}

const attr = (s: OtlpSpan, key: string) => {
  const v = s.attributes.find((a) => a.key === key)?.value;
  return v ? Object.values(v)[0] : undefined;
};

/** A webhook receiver: the headers of every POST it answers (200). */
function webhookReceiver(): Promise<{ server: Server; url: string; headers: Record<string, string | string[] | undefined>[] }> {
  const headers: Record<string, string | string[] | undefined>[] = [];
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      headers.push(req.headers);
      res.writeHead(200).end();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`, headers })));
}

describe('OpenTelemetry traces (OTEL_EXPORTER_OTLP_ENDPOINT)', () => {
  let receiver: Awaited<ReturnType<typeof otlpReceiver>>;
  let hooks: Awaited<ReturnType<typeof webhookReceiver>>;
  let server: LaunchedServer;
  let base: string;
  let drop = async () => {};
  beforeAll(async () => {
    receiver = await otlpReceiver();
    hooks = await webhookReceiver();
    const env: Record<string, string> = {
      CAL_ADMIN_LOGIN: 'admin',
      CAL_ADMIN_PASSWORD: 'secret-pass',
      DATABASE_URL: 'memory:',
      CAL_METRICS_ADDR: 'off',
      CAL_LOG_LEVEL: 'debug',
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
      OTEL_SERVICE_NAME: 'cal-events-under-test',
      CAL_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      CAL_TRACE_RESOLVERS: 'true',
    };
    if (testBackend === 'postgres') {
      const db = await createPostgresDatabase();
      env.DATABASE_URL = db.url;
      drop = db.drop;
    }
    server = launchServerProcess({ ...env, CAL_LOG_LEVEL: 'debug' });
    base = await server.listening;
  }, START_BUDGET_MS);
  afterAll(async () => {
    stopServerProcesses();
    receiver?.server.close();
    hooks?.server.close();
    await drop();
  });

  /** A published event of an hour on `day`, created over REST by the administrator. */
  const createEvent = async (title: string, day: string) => {
    const created = await fetch(`${base}/wp-json/cal/events/v1/events`, {
      method: 'POST',
      headers: { authorization: ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ title, status: 'publish', start_date: `${day} 10:00:00`, end_date: `${day} 11:00:00` }),
    });
    expect(created.status).toBe(201);
  };

  it("one REST request with a traceparent: one trace under the caller's ID, HTTP → REST route → GraphQL operation → SQL, and its log line", async () => {
    await createEvent('Traced concert', '2030-06-01');

    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const res = await fetch(`${base}/wp-json/cal/events/v1/events?search=concert`, { headers: { traceparent: `00-${traceId}-${callerSpan}-01` } });
    expect(res.status).toBe(200);
    expect(await res.json()).toHaveProperty('events');

    // The batch processor exports within a second or so.
    const deadline = Date.now() + 30_000;
    const mine = () => receiver.spans.filter((s) => s.traceId === traceId);
    while (Date.now() < deadline && !mine().some((s) => s.kind === 2)) await new Promise((r) => setTimeout(r, 200));
    const spans = mine();
    expect(receiver.services).toContain('cal-events-under-test');

    // Exactly one server span, the caller's child.
    const servers = spans.filter((s) => s.kind === 2);
    expect(servers).toHaveLength(1);
    const http = servers[0]!;
    expect(http.parentSpanId).toBe(callerSpan);
    expect(http.name).toBe('GET /cal/events/v1/events');
    expect(attr(http, 'http.response.status_code')).toBe(200);

    const children = (parent: OtlpSpan) => spans.filter((s) => s.parentSpanId === parent.spanId);
    const rest = children(http).find((s) => s.name.startsWith('REST '));
    expect(rest?.name).toBe('REST GET /cal/events/v1/events');
    const operation = children(rest!).find((s) => s.name === 'query EventsArchive');
    expect(operation, spans.map((s) => s.name).join(', ')).toBeDefined();
    expect(attr(operation!, 'graphql.operation.name')).toBe('EventsArchive');

    // Prisma's spans below the operation, down to the SQL statements.
    const below = (parent: OtlpSpan): OtlpSpan[] => children(parent).flatMap((c) => [c, ...below(c)]);
    const sql = below(operation!).filter((s) => s.name === 'prisma:client:db_query' || attr(s, 'db.query.text') !== undefined);
    expect(sql.length, below(operation!).map((s) => s.name).join(', ')).toBeGreaterThan(0);
    expect(sql.some((s) => /SELECT/i.test(String(attr(s, 'db.query.text'))))).toBe(true);
    // Every span of the request is in the caller's trace.
    expect(new Set(spans.map((s) => s.traceId))).toEqual(new Set([traceId]));

    // The request's log line carries the trace, its route template, operation, status and duration.
    const lines = server
      .stdout()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    const line = lines.find((l) => l.msg === 'request' && l.trace_id === traceId);
    expect(line).toMatchObject({ trace_id: traceId, span_id: http.spanId, route: '/cal/events/v1/events', operations: ['EventsArchive'], status: 200 });
    expect(typeof line!.ms).toBe('number');
    expect(typeof line!.requestId).toBe('string');
  }, 120_000);

  it('a webhook delivery is a client span whose traceparent the receiver gets', async () => {
    const added = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { authorization: ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'mutation ($input: AddWebhookEndpointInput!) { addWebhookEndpoint(input: $input) { __typename } }', variables: { input: { url: hooks.url, types: ['EVENT'] } } }),
    });
    expect(await added.json()).toEqual({ data: { addWebhookEndpoint: { __typename: 'AddWebhookEndpointSuccess' } } });
    await createEvent('Hooked', '2030-07-01');

    const deadline = Date.now() + 30_000;
    while (Date.now() < deadline && !hooks.headers.length) await new Promise((r) => setTimeout(r, 100));
    const traceparent = String(hooks.headers[0]?.traceparent);
    const m = /^00-([0-9a-f]{32})-([0-9a-f]{16})-0[01]$/.exec(traceparent);
    expect(m, traceparent).not.toBeNull();
    const [, traceId, spanId] = m!;
    while (Date.now() < deadline && !receiver.spans.some((s) => s.spanId === spanId)) await new Promise((r) => setTimeout(r, 200));
    // The span the receiver continues is the delivery's client span, at the root of a trace of its
    // own (not inside the request whose write it carries).
    const span = receiver.spans.find((s) => s.spanId === spanId);
    expect(span, receiver.spans.map((s) => s.name).join(', ')).toMatchObject({ name: 'WEBHOOK POST', kind: 3, traceId });
    expect(span!.parentSpanId || undefined).toBeUndefined();
    expect(attr(span!, 'http.response.status_code')).toBe(200);
    expect(attr(span!, 'server.address')).toBe(new URL(hooks.url).host);
  }, 120_000);

  it('CAL_TRACE_RESOLVERS: each resolver of its own is a span under the operation, with its SQL below it', async () => {
    await createEvent('Resolved', '2030-08-01');
    const traceId = '0af7651916cd43dd8448eb211c80319c';
    const res = await fetch(`${base}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', traceparent: `00-${traceId}-b7ad6b7169203331-01` },
      body: JSON.stringify({ query: 'query Counted { events(first: 1, filter: { defaultWindow: false }) { totalCount edges { node { title titleRaw } } } }', operationName: 'Counted' }),
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ data: { events: { edges: [{ node: { title: expect.any(String), titleRaw: expect.any(String) } }] } } });
    const deadline = Date.now() + 30_000;
    const mine = () => receiver.spans.filter((s) => s.traceId === traceId);
    while (Date.now() < deadline && !mine().some((s) => s.kind === 2)) await new Promise((r) => setTimeout(r, 200));
    const spans = mine();
    const operation = spans.find((s) => s.name === 'query Counted');
    expect(operation, spans.map((s) => s.name).join(', ')).toBeDefined();
    const field = spans.find((s) => s.name === 'resolve Query.events');
    expect(field, spans.map((s) => s.name).join(', ')).toBeDefined();
    expect(field!.parentSpanId).toBe(operation!.spanId);
    expect(attr(field!, 'graphql.field.name')).toBe('events');
    // The field's statements are its own children (or further down), not the operation's directly.
    const below = (parent: OtlpSpan): OtlpSpan[] => spans.filter((s) => s.parentSpanId === parent.spanId).flatMap((c) => [c, ...below(c)]);
    expect(below(field!).some((s) => s.name.startsWith('prisma:'))).toBe(true);
    // A field with a resolver of its own is traced; one that only exposes a value (graphql's default resolver) is not.
    expect(spans.some((s) => s.name === 'resolve Event.title'), spans.map((s) => s.name).join(', ')).toBe(true);
    expect(spans.some((s) => s.name === 'resolve Event.titleRaw')).toBe(false);
  }, 120_000);
});
