/**
 * `npm run topology`: the whole scale-out path on one machine, under load, with each piece killed
 * in turn (docs/topology.md). It starts a PostgreSQL of its own (initdb in a temporary directory,
 * on a free port: `pg_ctl restart` never touches the machine's), a Redis of its own, three
 * instances as `npm start` runs them (dist/) and Varnish with the shipped VCL in front of them;
 * runs a mixed load through Varnish (anonymous readers over many URLs, REST and GraphQL writers
 * signed in, a subscriber on each instance and one through Varnish); and meanwhile, one at a time:
 * SIGKILLs an instance and restarts it, SIGKILLs Redis and restarts it, SIGKILLs Varnish and
 * restarts it, restarts PostgreSQL, drains an instance (SIGTERM) and restarts it, and takes the
 * webhook receiver down for 30 s. After each fault the writers pause, and what the edge serves is
 * compared with the database. A webhook receiver (an endpoint registered by the administrator)
 * verifies every delivery's signature with the `standardwebhooks` package and counts each change
 * once by its `webhook-id`; at the end every acknowledged write must have reached it.
 *
 * It prints, per fault: errors seen by readers and writers, how long until the service answered
 * normally again, acknowledged writes missing afterwards, stale reads at the edge after recovery,
 * subscription events missed and whether subscribers reconnected. It exits 1 on a lost
 * acknowledged write, a stale read after recovery, a fault the service did not recover from, or a
 * subscription the server ended (clients do not subscribe again by themselves).
 *
 *   npm run topology                 ~4 minutes
 *   npm run topology -- --short      ~1.5 minutes (CI: .ci/run)
 *
 * Needs varnishd with varnish-modules, redis-server and PostgreSQL's server binaries
 * (/usr/lib/postgresql/<version>/bin, or PG_BIN); without them it says what is missing and exits 0.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { cleanupsOnExit, ROOT, startChild, type Child } from './process.ts';
import { seedUrl } from './seed.ts';
import { hotTitle, hotVersions, Load, STALE_AFTER_MS, type Hot, type Request } from './topology/load.ts';
import { HOT_QUERY, NS, restEvent } from './topology/operations.ts';
import { shippedEnv } from './topology/env.ts';
import { postgresMissing, startPostgres, type PostgresServer } from './topology/postgres.ts';
import { sseSubscriber, wsSubscriber, type Subscriber } from './topology/subscribers.ts';
import { startWebhookReceiver, type WebhookReceiver } from './topology/webhooks.ts';
import { freePort } from '../helpers/process.ts';
import { killRedis, redisServerMissing, startRedis } from '../helpers/redis-server.ts';
import { startVarnish, varnishMissing, type Varnish } from '../helpers/varnish.ts';

const SHORT = process.argv.includes('--short') || process.env.TOPOLOGY_SHORT === '1';
const TIMES = SHORT
  ? { baselineS: 5, beforeS: 2, downS: 2, observeS: 6 }
  : { baselineS: 10, beforeS: 3, downS: 4, observeS: 12 };
const INSTANCES = 3;
const HOT_EVENTS = 6;
const SEED_EVENTS = 200;
const ADMIN = { login: 'topology-admin', password: `topology-${process.pid}-${Date.now().toString(36)}` };
const AUTH = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;
/** A subscriber is expected to get a change when it was connected from the write's start to this long after its answer. */
const DELIVERY_MS = 1_000;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (msg: string) => process.stderr.write(`topology: ${msg}\n`);
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/* ------------------------------------------------------------------------------ cleanup */

const { add: cleanupLater, run: cleanup } = cleanupsOnExit(log);

/* ------------------------------------------------------------------------------ the cluster */

interface Cluster {
  dir: string;
  postgres: PostgresServer;
  redisPort: number;
  redis: Awaited<ReturnType<typeof startRedis>>;
  varnish: Varnish;
  instances: Child[];
  ports: number[];
  env: Record<string, string>;
  seed: Awaited<ReturnType<typeof seedUrl>>;
  webhooks: WebhookReceiver;
}

async function startInstance(cluster: Pick<Cluster, 'env' | 'ports'>, i: number): Promise<Child> {
  return startChild({ script: 'dist/src/server/main.js', port: cluster.ports[i], env: cluster.env, label: `instance ${i + 1}`, readyPath: '/readyz' });
}

async function startCluster(): Promise<Cluster> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cal-topology-'));
  chmodSync(dir, 0o755); // PostgreSQL runs as its own user when this runs as root
  cleanupLater(() => rmSync(dir, { recursive: true, force: true }));
  const [pgPort, redisPort, varnishPort, hookPort, ...ports] = await Promise.all([freePort(), freePort(), freePort(), freePort(), ...Array.from({ length: INSTANCES }, freePort)]);
  const postgres = await startPostgres(path.join(dir, 'pg'), pgPort!);
  cleanupLater(() => postgres.stop());
  log(`PostgreSQL of its own on port ${pgPort} (${path.join(dir, 'pg')})`);
  const cluster: Partial<Cluster> = { dir, postgres, redisPort: redisPort!, ports };
  cluster.redis = await startRedis(redisPort!);
  cleanupLater(() => killRedis(cluster.redis!));
  log(`Redis of its own on port ${redisPort}`);
  cluster.webhooks = await startWebhookReceiver(hookPort!);
  cleanupLater(() => cluster.webhooks!.close());
  cluster.seed = await seedUrl(postgres.url, undefined, { events: SEED_EVENTS, progress: false });
  const edge = `http://127.0.0.1:${varnishPort}`;
  // What each instance needs: the shipped deploy/systemd/cal-events.env, with this machine's addresses.
  cluster.env = {
    ...shippedEnv(),
    DATABASE_URL: `${postgres.url}?connection_limit=8`,
    REDIS_URL: `redis://127.0.0.1:${redisPort}`,
    CAL_PURGE_URL: `${edge}/`,
    CAL_SITE_URL: edge,
    HOST: '127.0.0.1',
    CAL_ADMIN_LOGIN: ADMIN.login,
    CAL_ADMIN_PASSWORD: ADMIN.password,
    CAL_LOG_LEVEL: 'warn',
    // The receiver is on loopback; retries every 1 s doubling up to 5 s, so a receiver back after
    // 30 s gets its backlog within seconds (the default schedule goes on to hours).
    CAL_WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    CAL_WEBHOOK_RETRY_BASE_MS: '1000',
    CAL_WEBHOOK_RETRY_MAX_MS: '5000',
  };
  cluster.instances = await Promise.all(Array.from({ length: INSTANCES }, (_, i) => startInstance(cluster as Cluster, i)));
  cleanupLater(() => Promise.all(cluster.instances!.map((c) => c.kill())));
  log(`${INSTANCES} instances on ports ${ports.join(', ')}`);
  cluster.varnish = await startVarnish(varnishPort!, ports.map((p) => `http://127.0.0.1:${p}`), 128);
  cleanupLater(() => cluster.varnish!.stop());
  log(`Varnish on ${edge}`);
  return cluster as Cluster;
}

/* ------------------------------------------------------------------------------ faults */

interface Fault {
  name: string;
  /** Injects the fault and brings the piece back; resolves once it is back. */
  run(cluster: Cluster): Promise<void>;
}

const KILLED = 1;
/** As long in --short: the point is a receiver away for longer than a retry or two. */
const RECEIVER_DOWN_S = 30;
const DRAINED = 2;
const FAULTS: Fault[] = [
  {
    name: `instance ${KILLED + 1} SIGKILL`,
    async run(c) {
      await c.instances[KILLED]!.kill();
      await sleep(TIMES.downS * 1000);
      c.instances[KILLED] = await startInstance(c, KILLED);
    },
  },
  {
    name: 'Redis SIGKILL',
    async run(c) {
      await killRedis(c.redis);
      await sleep(TIMES.downS * 1000);
      c.redis = await startRedis(c.redisPort);
    },
  },
  {
    name: 'Varnish SIGKILL',
    async run(c) {
      await c.varnish.crash();
      await sleep(TIMES.downS * 1000);
      await c.varnish.restart();
    },
  },
  {
    name: 'PostgreSQL restart',
    async run(c) {
      await c.postgres.restart();
    },
  },
  {
    name: `instance ${DRAINED + 1} SIGTERM (drain)`,
    async run(c) {
      await c.instances[DRAINED]!.stop();
      c.instances[DRAINED] = await startInstance(c, DRAINED);
    },
  },
  {
    name: `webhook receiver down ${RECEIVER_DOWN_S} s`,
    async run(c) {
      await c.webhooks.down();
      await sleep(RECEIVER_DOWN_S * 1000);
      await c.webhooks.up();
    },
  },
];

/* ------------------------------------------------------------------------------ checks */

interface Truth {
  titles: Map<number, string>;
}

async function readTruth(url: string, ids: number[]): Promise<Truth> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: number; title: string }>('SELECT id, title FROM "Event" WHERE id = ANY($1)', [ids]);
    return { titles: new Map(rows.map((r) => [r.id, r.title])) };
  } finally {
    await client.end();
  }
}

const versionOf = (title: string | undefined) => (title ? (hotVersions(title)[0]?.[1] ?? -1) : -1);

/** Acknowledged writes the database does not hold (a created event gone or changed, a hot event behind its last acknowledged version). */
function lostWrites(load: Load, hot: Hot[], truth: Truth): string[] {
  const lost: string[] = [];
  for (const c of load.created) if (truth.titles.get(c.id) !== c.title) lost.push(`created event ${c.id} "${c.title}": database has ${JSON.stringify(truth.titles.get(c.id) ?? null)}`);
  for (const h of hot) {
    const acked = h.acks.at(-1)?.version ?? 0;
    const stored = versionOf(truth.titles.get(h.id));
    if (stored < acked) lost.push(`hot ${h.n}: v${acked} acknowledged, database has v${stored}`);
  }
  return lost;
}

async function get(url: string): Promise<{ status: number; text: string }> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(30_000) });
    return { status: res.status, text: await res.text() };
  } catch (e) {
    return { status: 0, text: String(e) };
  }
}

const normalized = (text: string) => {
  try {
    return JSON.stringify(JSON.parse(text));
  } catch {
    return text;
  }
};
const isJsonRead = (url: string) => url.startsWith(NS) || url.startsWith(`/fr${NS}`) || url.startsWith('/graphql');

/**
 * With the writers paused and the purges' repeat window passed: every read URL, every hot event and
 * every event created in this phase, read at the edge, must show what the database holds; JSON
 * reads must equal the same read sent to an instance directly.
 */
async function sweep(c: Cluster, load: Load, hot: Hot[], readUrls: string[], createdSince: number): Promise<string[]> {
  const created = load.created.filter((e) => e.start >= createdSince);
  const truth = await readTruth(c.postgres.url, [...hot.map((h) => h.id), ...created.map((e) => e.id)]);
  const stale: string[] = [];
  const edge = c.varnish.base;
  const origin = `http://127.0.0.1:${c.ports[0]}`;
  const judge = (url: string, text: string) => {
    for (const [n, seen] of hotVersions(text)) {
      const stored = versionOf(truth.titles.get(hot[n - 1]!.id));
      if (seen !== stored) stale.push(`${url}: hot ${n} v${seen}, database v${stored}`);
    }
  };
  for (const url of readUrls) {
    const atEdge = await get(edge + url);
    if (atEdge.status !== 200) {
      stale.push(`${url}: ${atEdge.status} at the edge`);
      continue;
    }
    judge(url, atEdge.text);
    if (isJsonRead(url)) {
      const direct = await get(origin + url);
      if (direct.status === 200 && normalized(direct.text) !== normalized(atEdge.text)) stale.push(`${url}: the edge's answer differs from the instance's`);
    }
  }
  for (const h of hot) judge(`${NS}/events/${h.id}`, (await get(`${edge}${NS}/events/${h.id}`)).text);
  for (const e of created) {
    const atEdge = await get(`${edge}${NS}/events/${e.id}`);
    const title = atEdge.status === 200 ? (JSON.parse(atEdge.text) as { title: string }).title : `HTTP ${atEdge.status}`;
    if (title !== truth.titles.get(e.id)) stale.push(`${NS}/events/${e.id}: "${title}", database "${truth.titles.get(e.id)}"`);
  }
  return stale;
}

/* ------------------------------------------------------------------------------ subscriptions */

interface Delivery {
  /** Changes a connected subscriber should have received and did not. */
  missed: number;
  /** Changes written while a subscriber was disconnected that it never got (it resumes after its last cursor: should be none). */
  whileAway: number;
  drops: number;
  reconnected: number;
  longestAwayMs: number;
  /** Subscribers that received changes written after the fault was over. */
  resumed: number;
  /** Subscriptions the server ended (clients do not resume those by themselves). */
  ended: string[];
}

interface AckedWrite {
  start: number;
  at: number;
  /** Whether this payload title shows the write. */
  shows(title: string): boolean;
}

function ackedWrites(load: Load, hot: Hot[], from: number, to: number): AckedWrite[] {
  const writes: AckedWrite[] = load.created.filter((e) => e.start >= from && e.start < to).map((e) => ({ start: e.start, at: e.at, shows: (t) => t === e.title }));
  for (const h of hot) {
    for (const a of h.acks) {
      if (a.start < from || a.start >= to) continue;
      // A change is delivered with the record as it is then: a later version shows this write too.
      writes.push({ start: a.start, at: a.at, shows: (t) => hotVersions(t).some(([n, v]) => n === h.n && v >= a.version) });
    }
  }
  return writes;
}

function delivery(subs: Subscriber[], writes: AckedWrite[], from: number, to: number, restoredAt: number): Delivery {
  const d: Delivery = { missed: 0, whileAway: 0, drops: 0, reconnected: 0, longestAwayMs: 0, resumed: 0, ended: [] };
  for (const s of subs) {
    for (const e of s.ended) if (e.at >= from && e.at < to) d.ended.push(`${s.name}: ${e.reason}`);
    for (const w of writes) {
      const connected = s.spans.some((span) => span.from <= w.start && (span.to === null || span.to >= w.at + DELIVERY_MS));
      const got = s.received.some((r) => r.at >= w.start && w.shows(r.title));
      if (!connected) d.whileAway += got ? 0 : 1;
      else if (!got) d.missed++;
    }
    for (const [i, span] of s.spans.entries()) {
      if (span.to === null || span.to < from || span.to >= to) continue;
      d.drops++;
      const next = s.spans[i + 1];
      if (next) {
        d.reconnected++;
        d.longestAwayMs = Math.max(d.longestAwayMs, next.from - span.to);
      }
    }
    if (writes.some((w) => w.start >= restoredAt && s.received.some((r) => r.at >= w.start && w.shows(r.title)))) d.resumed++;
  }
  return d;
}

/* ------------------------------------------------------------------------------ webhooks */

/**
 * Waits (60 s at most) until every acknowledged write of the run has reached the webhook receiver,
 * then counts per phase the writes no verified delivery showed; the wait, or null when it ran out.
 */
async function webhooksDelivered(receiver: WebhookReceiver, load: Load, hot: Hot[], rows: Row[]): Promise<number | null> {
  const started = performance.now();
  const count = () => {
    let missing = 0;
    for (const r of rows) {
      const writes = ackedWrites(load, hot, r.from, r.to);
      r.webhookWrites = writes.length;
      r.webhooksMissed = writes.filter((w) => !receiver.received.some((d) => d.at >= w.start && d.title !== null && w.shows(d.title))).length;
      missing += r.webhooksMissed;
    }
    return missing;
  };
  while (count() > 0) {
    if (performance.now() - started > 60_000) return null;
    await sleep(500);
  }
  return performance.now() - started;
}

/** The webhook attempts the instances recorded, and how many got no 2xx. */
async function countAttempts(url: string): Promise<{ total: number; failed: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ total: string; failed: string }>(
      'SELECT count(*) AS total, count(*) FILTER (WHERE "statusCode" IS NULL OR "statusCode" NOT BETWEEN 200 AND 299) AS failed FROM "WebhookAttempt"',
    );
    return { total: Number(rows[0]!.total), failed: Number(rows[0]!.failed) };
  } finally {
    await client.end();
  }
}

/** From a write's answer to the first verified delivery showing it (ms), over the phases given. */
function webhookLatencies(receiver: WebhookReceiver, load: Load, hot: Hot[], rows: Row[]): number[] {
  const latencies: number[] = [];
  for (const r of rows) {
    for (const w of ackedWrites(load, hot, r.from, r.to)) {
      const first = receiver.received.find((d) => d.at >= w.start && d.title !== null && w.shows(d.title));
      if (first) latencies.push(Math.max(0, first.at - w.at));
    }
  }
  return latencies.sort((x, y) => x - y);
}

/* ------------------------------------------------------------------------------ phases */

interface Row {
  fault: string;
  /** The phase's window (performance.now()). */
  from: number;
  to: number;
  /** Acknowledged writes of the phase that no verified webhook delivery showed by the end of the run. */
  webhooksMissed: number;
  webhookWrites: number;
  reads: Request[];
  writes: Request[];
  /** From the fault to the end of the last failed request; null: still failing at the end. */
  recoveredMs: number | null;
  backMs: number;
  lost: string[];
  staleAfter: string[];
  staleDuring: number;
  delivery: Delivery;
  subscribers: number;
}

async function phase(name: string, c: Cluster, load: Load, hot: Hot[], subs: Subscriber[], readUrls: string[], fault?: Fault): Promise<Row> {
  const from = performance.now();
  await sleep((fault ? TIMES.beforeS : TIMES.baselineS) * 1000);
  const faultAt = performance.now();
  // Without a fault the whole phase is "after recovery".
  let restoredAt = fault ? faultAt : from;
  if (fault) {
    log(`${name}…`);
    await fault.run(c);
    restoredAt = performance.now();
    await sleep(TIMES.observeS * 1000);
  }
  const to = performance.now();
  await load.pauseWrites();
  await sleep(STALE_AFTER_MS);
  const inPhase = (r: Request) => r.start >= from && r.start < to;
  const reads = load.reads.filter(inPhase);
  const writes = load.writes.filter(inPhase);
  const failed = [...reads, ...writes].filter((r) => !r.ok);
  // Still failing in the second half of the time it had after the piece came back: not recovered.
  const stillFailing = failed.some((r) => r.start > restoredAt + (TIMES.observeS * 1000) / 2);
  const recoveredMs = stillFailing ? null : failed.length ? Math.max(...failed.map((r) => r.end)) - faultAt : 0;
  const recoveredAt = recoveredMs === null ? to : fault ? faultAt + recoveredMs : from;
  const staleReads = load.stale.filter((s) => s.start >= from && s.start < to);
  const staleAfter = [
    ...staleReads.filter((s) => s.start >= recoveredAt).map((s) => `${s.url}: hot ${s.hot} v${s.seen} read ${seconds(s.start - from)} into the phase, v${s.acknowledged} acknowledged before`),
    ...(await sweep(c, load, hot, readUrls, from)),
  ];
  const truth = await readTruth(c.postgres.url, [...hot.map((h) => h.id), ...load.created.map((e) => e.id)]);
  const lost = lostWrites(load, hot, truth);
  const row: Row = {
    fault: name,
    from,
    to,
    webhooksMissed: 0,
    webhookWrites: 0,
    reads,
    writes,
    recoveredMs,
    backMs: restoredAt - faultAt,
    lost,
    staleAfter,
    staleDuring: staleReads.length - staleReads.filter((s) => s.start >= recoveredAt).length,
    delivery: delivery(subs, ackedWrites(load, hot, from, to), from, to, restoredAt),
    subscribers: subs.length,
  };
  load.resumeWrites();
  return row;
}

/* ------------------------------------------------------------------------------ report */

function errorSummary(requests: Request[]): string {
  const failed = requests.filter((r) => !r.ok);
  const byStatus = new Map<string, number>();
  // A GraphQL mutation that failed is answered 200 with errors.
  const label = (r: Request) => (r.status === 200 ? 'GraphQL error' : r.status ? String(r.status) : 'no answer');
  for (const r of failed) byStatus.set(label(r), (byStatus.get(label(r)) ?? 0) + 1);
  return `${failed.length}/${requests.length}${failed.length ? ` (${[...byStatus].map(([s, n]) => `${s}×${n}`).join(', ')})` : ''}`;
}

function report(rows: Row[]): string {
  const header = ['fault', 'read errors', 'write errors', 'piece back after', 'normal again after', 'lost acked writes', 'stale after recovery', 'sub events missed', 'subscribers reconnected', 'webhooks missed'];
  const lines = rows.map((r) => {
    const d = r.delivery;
    const drops = d.drops === 0 ? 'none dropped' : `${d.reconnected}/${d.drops} drops, ≤ ${seconds(d.longestAwayMs)}`;
    const reconnect = `${drops}; ${d.resumed}/${r.subscribers} delivering${d.ended.length ? `; ${d.ended.length} ENDED by the server` : ''}`;
    return [
      r.fault,
      errorSummary(r.reads),
      errorSummary(r.writes),
      r.fault.startsWith('none') ? '-' : seconds(r.backMs),
      r.recoveredMs === null ? 'NOT RECOVERED' : r.recoveredMs === 0 ? '0 (no error)' : seconds(r.recoveredMs),
      String(r.lost.length),
      String(r.staleAfter.length),
      `${d.missed} connected, ${d.whileAway} while away`,
      reconnect,
      `${r.webhooksMissed} of ${r.webhookWrites}`,
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((l) => l[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [fmt(header), fmt(widths.map((w) => '-'.repeat(w))), ...lines.map(fmt)].join('\n');
}

/* ------------------------------------------------------------------------------ main */

async function main(): Promise<number> {
  const missing = varnishMissing() ?? redisServerMissing() ?? postgresMissing();
  if (missing) {
    console.log(`npm run topology: skipped: ${missing}`);
    return 0;
  }
  // The instances run the build, as `npm start` does (src/start.mjs) when dist/ is stale.
  execFileSync(process.execPath, ['src/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  const started = performance.now();
  const c = await startCluster();
  const edge = c.varnish.base;
  const seed = c.seed;

  // The hot events every reader sees (June 2031), renamed by the writers all along.
  const hot: Hot[] = [];
  for (let n = 1; n <= HOT_EVENTS; n++) {
    const res = await fetch(`${edge}${NS}/events`, {
      method: 'POST',
      headers: { authorization: AUTH, 'content-type': 'application/json' },
      body: JSON.stringify(restEvent(hotTitle(n, 0), `2031-06-${String(n * 3).padStart(2, '0')}`)),
    });
    if (res.status !== 201) throw new Error(`creating hot event ${n}: ${res.status} ${await res.text()}`);
    const e = (await res.json()) as { id: number; slug: string };
    hot.push({ n, id: e.id, slug: e.slug, acks: [{ version: 0, start: 0, at: 0 }], attempted: 0 });
  }
  const window = 'start_date=2020-01-01&end_date=2040-12-31';
  const june = 'start_date=2031-06-01&end_date=2031-06-30';
  const readUrls = [
    `${NS}/events?${june}`,
    `${NS}/events?${june}&per_page=3&page=2`,
    `/fr${NS}/events?${june}`,
    ...hot.map((h) => `${NS}/events/${h.id}`),
    `/fr${NS}/events/${hot[0]!.id}`,
    ...[1, 2, 3, 4, 5, 6].map((p) => `${NS}/events?${window}&page=${p}`),
    ...[1, 2, 3].map((p) => `${NS}/events?${window}&per_page=25&page=${p}`),
    `${NS}/events?start_date=2031-07-01&end_date=2031-07-31&per_page=50`,
    ...seed.sampleEvents.slice(0, 20).map((e) => `${NS}/events/${e.id}`),
    `${NS}/venues`,
    `${NS}/organizers`,
    `${NS}/categories`,
    `${NS}/tags`,
    ...seed.venueIds.slice(0, 3).map((id) => `${NS}/venues/${id}`),
    `/graphql?query=${encodeURIComponent(HOT_QUERY)}`,
    '/events/2031-06/',
    ...hot.slice(0, 2).map((h) => `/event/${h.slug}/`),
    `/events.ics?${june}`,
  ];

  const subs: Subscriber[] = [
    sseSubscriber('instance 1 (SSE)', `http://127.0.0.1:${c.ports[0]}`),
    wsSubscriber('instance 2 (WebSocket)', `http://127.0.0.1:${c.ports[1]}`),
    sseSubscriber('instance 3 (SSE)', `http://127.0.0.1:${c.ports[2]}`),
    wsSubscriber('edge (WebSocket through Varnish)', edge),
  ];
  cleanupLater(() => subs.forEach((s) => s.close()));
  // The webhook endpoint, registered as an administrator would (GraphQL), before any write.
  const added = await fetch(`${edge}/graphql`, {
    method: 'POST',
    headers: { authorization: AUTH, 'content-type': 'application/json' },
    body: JSON.stringify({
      query: 'mutation ($url: String!) { addWebhookEndpoint(input: { url: $url, types: [EVENT] }) { ... on AddWebhookEndpointSuccess { webhookEndpoint { secret } } ... on Error { message } } }',
      variables: { url: c.webhooks.url },
    }),
  });
  const hook = ((await added.json()) as { data?: { addWebhookEndpoint: { webhookEndpoint?: { secret: string }; message?: string } } }).data?.addWebhookEndpoint;
  if (!hook?.webhookEndpoint) throw new Error(`registering the webhook endpoint: ${hook?.message ?? added.status}`);
  c.webhooks.setSecret(hook.webhookEndpoint.secret);
  log(`webhook receiver on ${c.webhooks.url}`);
  const load = new Load({ edge, auth: AUTH, hot, readUrls, readers: 4, readThinkMs: 40, restWriters: 2, writeThinkMs: 600 });
  cleanupLater(() => load.stop());
  await sleep(1_000); // subscribers connected
  load.start();
  log(`load running: 4 readers over ${readUrls.length} URLs, 2 REST writers and 1 GraphQL writer, ${subs.length} subscribers; ${SHORT ? 'short run' : 'full run'}`);

  const rows: Row[] = [await phase('none (baseline)', c, load, hot, subs, readUrls)];
  for (const fault of FAULTS) rows.push(await phase(fault.name, c, load, hot, subs, readUrls, fault));
  await load.stop();
  const drained = await webhooksDelivered(c.webhooks, load, hot, rows);
  log(`webhooks: every acknowledged write delivered ${drained === null ? 'NOT within 60 s' : `${seconds(drained)} after the load stopped`}`);
  const attempts = await countAttempts(c.postgres.url);
  // Latency where the receiver was up all along (not the phase it was down in).
  const latencies = webhookLatencies(c.webhooks, load, hot, rows.filter((r) => !r.fault.startsWith('webhook receiver')));
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? NaN;

  const reads = load.reads.length;
  const writes = load.writes.length;
  console.log(`\n## npm run topology${SHORT ? ' --short' : ''}: 3 instances, Varnish, PostgreSQL, Redis on one machine (${seconds(performance.now() - started)}; ${reads} reads, ${writes} writes, ${load.created.length} events created)\n`);
  console.log(report(rows));
  console.log(`\npiece back after: from the fault until the piece answered again (a killed one is started again after ${TIMES.downS} s down).`);
  console.log('normal again after: from the fault to the end of the last failed request through the edge.');
  console.log(`stale after recovery: reads at the edge that showed a hot event older than a version acknowledged ${STALE_AFTER_MS} ms before they started, after the service answered normally again, plus the sweep with the writers paused (edge vs database vs instance).`);
  console.log(`webhook attempts: ${attempts.failed} failed (receiver down or refusing) of ${attempts.total}, every one retried until delivered.`);
  console.log(`webhook latency, from a write's answer to its verified delivery (receiver up): p50 ${pct(50).toFixed(0)} ms, p99 ${pct(99).toFixed(0)} ms over ${latencies.length} writes.`);
  console.log(`webhooks missed: acknowledged writes of the phase that no delivery (signature verified, counted once by webhook-id) showed by the end of the run; ${c.webhooks.received.length} changes received, ${c.webhooks.repeats} repeated deliveries, ${c.webhooks.unverified} failing verification.`);
  console.log(`sub events missed: acknowledged changes a subscriber connected from the write to ${DELIVERY_MS} ms after its answer never got, and changes written while it was disconnected that it never got after resuming from its last cursor.`);
  const during = rows.reduce((n, r) => n + r.staleDuring, 0);
  if (during) console.log(`stale reads during faults, before recovery: ${during}`);
  for (const r of rows) for (const line of [...r.lost.map((l) => `LOST ${l}`), ...r.staleAfter.map((s) => `STALE ${s}`)]) console.log(`${r.fault}: ${line}`);
  for (const r of rows) for (const e of r.delivery.ended) console.log(`${r.fault}: subscription ENDED ${e}`);

  const failed = rows.filter((r) => r.lost.length || r.staleAfter.length || r.recoveredMs === null || r.delivery.ended.length || r.webhooksMissed);
  if (c.webhooks.unverified) failed.push({ fault: `${c.webhooks.unverified} webhook deliveries failing verification` } as Row);
  if (failed.length) {
    console.log(`\nFAILED: ${failed.map((r) => r.fault).join(', ')}`);
    for (const [i, inst] of c.instances.entries()) console.log(`--- instance ${i + 1}, last output:\n${inst.output().split('\n').slice(-20).join('\n')}`);
    return 1;
  }
  console.log('\nok: no acknowledged write lost, no stale read at the edge after recovery, every fault recovered from, no subscription ended by the server, every webhook delivered and verified');
  return 0;
}

let code = 1;
try {
  code = await main();
} catch (e) {
  console.error(`npm run topology failed: ${(e as Error).stack ?? String(e)}`);
} finally {
  await cleanup();
}
process.exit(code);
