import { performance } from 'node:perf_hooks';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The service's Prometheus metrics (prom-client), one registry per process. Every layer records
 * into it (the database, the services, the server); only the metrics listener
 * (src/server/metrics-listener.ts) reads it. Recording costs a counter increment or a histogram
 * observation; when CAL_METRICS_ADDR is `off` nothing reads the registry and nothing else is done.
 *
 * Labels stay bounded whatever clients send: a request's label is the template of the route that
 * answered it, never its URL; names that come from clients (GraphQL operation names, error codes)
 * go through `bounded`, which keeps the first ones seen and files the rest under `other`.
 */
export const registry = new Registry();

const SECONDS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

export const http = {
  requests: new Counter({
    name: 'cal_http_requests_total',
    help: 'HTTP requests answered, by method, route template, status class and surface (rest, graphql, pages, feeds, other).',
    labelNames: ['method', 'route', 'status', 'surface'] as const,
    registers: [registry],
  }),
  duration: new Histogram({
    name: 'cal_http_request_duration_seconds',
    help: 'Time to answer an HTTP request (until its body is handed to the socket), by method, route template, status class and surface.',
    labelNames: ['method', 'route', 'status', 'surface'] as const,
    buckets: SECONDS,
    registers: [registry],
  }),
};

export const graphql = {
  operations: new Counter({
    name: 'cal_graphql_operations_total',
    help: 'GraphQL operations executed, by operation name and type, and the REST route that ran it (none: sent to /graphql or a WebSocket).',
    labelNames: ['operation', 'type', 'route'] as const,
    registers: [registry],
  }),
  duration: new Histogram({
    name: 'cal_graphql_operation_duration_seconds',
    help: 'Time to execute a GraphQL operation (after parsing and validation), by operation name and type.',
    labelNames: ['operation', 'type'] as const,
    buckets: SECONDS,
    registers: [registry],
  }),
  errors: new Counter({
    name: 'cal_graphql_errors_total',
    help: 'Errors in GraphQL results, by operation name and error code (extensions.code).',
    labelNames: ['operation', 'code'] as const,
    registers: [registry],
  }),
};

export const cache = {
  hits: new Counter({ name: 'cal_cache_hits_total', help: 'Byte cache: reads answered from the cache.', registers: [registry] }),
  misses: new Counter({ name: 'cal_cache_misses_total', help: 'Byte cache: cacheable reads computed.', registers: [registry] }),
  evictions: new Counter({ name: 'cal_cache_evictions_total', help: 'Byte cache: entries evicted to stay within CAL_CACHE_MAX_BYTES.', registers: [registry] }),
  bytes: new Gauge({ name: 'cal_cache_bytes', help: 'Byte cache: bytes held.', registers: [registry] }),
  entries: new Gauge({ name: 'cal_cache_entries', help: 'Byte cache: entries held.', registers: [registry] }),
  purges: new Counter({
    name: 'cal_cache_purges_total',
    help: 'Purges sent to the reverse proxies, by outcome (sent: accepted; failed: refused or unreachable after retries).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  }),
};

export const db = {
  statement: new Histogram({
    name: 'cal_db_statement_duration_seconds',
    help: 'Time of one SQL statement, from the driver adapter (Prisma queries and raw statements).',
    buckets: SECONDS,
    registers: [registry],
  }),
  poolInUse: new Gauge({ name: 'cal_db_pool_in_use', help: 'PostgreSQL pool: connections running a statement or a transaction.', registers: [registry] }),
  poolWaiting: new Gauge({ name: 'cal_db_pool_waiting', help: 'PostgreSQL pool: requests waiting for a connection.', registers: [registry] }),
  poolSize: new Gauge({ name: 'cal_db_pool_connections', help: 'PostgreSQL pool: connections open.', registers: [registry] }),
  retries: new Counter({
    name: 'cal_db_retries_total',
    help: 'Retried database work, by kind (write_conflict: a serialization failure or unique race; read: a read during an outage; vanished_link).',
    labelNames: ['kind'] as const,
    registers: [registry],
  }),
  unavailable: new Counter({ name: 'cal_db_unavailable_total', help: 'Answers 503 because the database was unavailable.', registers: [registry] }),
};

export const live = {
  subscriptions: new Gauge({
    name: 'cal_subscriptions_open',
    help: 'Open GraphQL subscriptions, by transport (websocket, sse).',
    labelNames: ['transport'] as const,
    registers: [registry],
  }),
  deliveries: new Counter({ name: 'cal_change_deliveries_total', help: 'Changes delivered to this process’s subscribers (one per change, whatever the number of subscribers).', registers: [registry] }),
  lag: new Histogram({
    name: 'cal_change_delivery_lag_seconds',
    help: 'Time from a change’s commit (its publication) to its delivery to this process’s subscribers, across processes through the change bus.',
    buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [registry],
  }),
};

/**
 * The change log's backlog and the webhook queue. The backlog is this process's: how far its log
 * tailer (src/services/change-log.ts), which feeds its subscribers, is behind the log's committed
 * rows. The queue's gauges are read from the database on scrape and are the same on every instance
 * (take their max across instances); the counters are this process's attempts.
 */
export const changeLog = {
  backlogRows: new Gauge({ name: 'cal_change_log_backlog_rows', help: 'Committed change-log rows this process’s log tailer has not read yet (0 while it has no reader).', registers: [registry] }),
  backlogSeconds: new Gauge({
    name: 'cal_change_log_backlog_seconds',
    help: 'Age of the oldest committed change-log row this process’s log tailer has not read yet (0: none).',
    registers: [registry],
  }),
};

export const webhooks = {
  pending: new Gauge({ name: 'cal_webhook_deliveries_pending', help: 'Webhook deliveries queued and not yet delivered or given up (whole database).', registers: [registry] }),
  oldestPending: new Gauge({
    name: 'cal_webhook_oldest_pending_seconds',
    help: 'Age of the oldest pending webhook delivery (whole database; 0: none).',
    registers: [registry],
  }),
  endpoints: new Gauge({ name: 'cal_webhook_endpoints', help: 'Webhook endpoints, by state (enabled, disabled) (whole database).', labelNames: ['state'] as const, registers: [registry] }),
  attempts: new Counter({
    name: 'cal_webhook_attempts_total',
    help: 'Webhook delivery attempts by this process, by outcome (delivered: a 2xx answer; retry: failed, tried again later; given_up: failed for too long).',
    labelNames: ['outcome'] as const,
    registers: [registry],
  }),
  duration: new Histogram({
    name: 'cal_webhook_attempt_duration_seconds',
    help: 'Time of one webhook delivery attempt (address check, POST, answer read), whatever its outcome.',
    buckets: SECONDS,
    registers: [registry],
  }),
  disabled: new Counter({ name: 'cal_webhook_endpoints_disabled_total', help: 'Webhook endpoints this process disabled because every delivery failed for too long.', registers: [registry] }),
};

let defaults = false;
/** Node's process metrics (event-loop lag and utilisation, heap, GC: prom-client's defaults), once. */
export function collectProcessMetrics(): void {
  if (defaults) return;
  defaults = true;
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
  new Gauge({
    name: 'nodejs_eventloop_utilization',
    help: 'Event loop utilisation since the previous scrape (0–1).',
    registers: [registry],
    collect() {
      const now = performance.eventLoopUtilization();
      this.set(performance.eventLoopUtilization(now, lastElu).utilization);
      lastElu = now;
    },
  });
}
let lastElu = performance.eventLoopUtilization();

/**
 * Sources read when scraped (a cache's size, a pool's counts, one query for the webhook queue):
 * each registered once, read on each scrape. A sampler that fails leaves its gauges as they were.
 */
type Sampler = () => void | Promise<void>;
const samplers = new Set<Sampler>();
export function sampleOnScrape(sampler: Sampler): () => void {
  samplers.add(sampler);
  return () => void samplers.delete(sampler);
}

/** The exposition, after the samplers have set their gauges. */
export async function exposition(): Promise<{ contentType: string; body: string }> {
  for (const gauge of [db.poolInUse, db.poolWaiting, db.poolSize, cache.bytes, cache.entries]) gauge.set(0);
  await Promise.allSettled([...samplers].map(async (sample) => sample()));
  return { contentType: registry.contentType, body: await registry.metrics() };
}

/**
 * A label value from a set that clients may grow (operation names, error codes): the first `max`
 * values seen are kept as they are, any later one is `other`, so a client sending a new name per
 * request adds no series.
 */
export function bounded(max: number): (value: string) => string {
  const seen = new Set<string>();
  return (value) => {
    if (seen.has(value)) return value;
    if (seen.size >= max) return 'other';
    seen.add(value);
    return value;
  };
}
