/**
 * `npm run bench:fanout`: how long one change takes to reach many live subscribers spread over the
 * instances. It starts a PostgreSQL of its own, a Redis of its own (the change bus, as in a
 * scale-out) and two instances as `npm start` runs them (dist/); opens anonymous SSE subscriptions
 * (`eventChanged` over `GET /graphql`, `Accept: text/event-stream`), half on each instance, and
 * waits until every one has its first ping (the subscription is listening by then); then creates
 * events one after another through REST as an administrator, alternately on each instance, and
 * records when each subscriber receives each one.
 *
 * It prints, per write and overall, the latency percentiles from the write's answer (and from its
 * request's start) to each subscriber's receipt, split by subscribers on the writing instance and
 * on the other one; the deliveries missing (there must be none: it exits 1 otherwise); each
 * instance's CPU time and RSS during the fanout (/proc/<pid>/stat and status) and the machine's
 * load average (a shared machine inflates every figure: compare runs made together).
 *
 *   npm run bench:fanout                                   1,000 subscribers, 20 writes 500 ms apart, Redis bus
 *   npm run bench:fanout -- --bus=postgres                 no Redis: PostgreSQL LISTEN/NOTIFY wakes the tailers
 *   npm run bench:fanout -- --bus=both --subscribers=200 --writes=10 --gap=1000
 *   npm run bench:fanout -- --cpu-prof=/tmp/prof           a CPU profile of each instance (--cpu-prof) in that directory
 *
 * Needs redis-server and PostgreSQL's server binaries (/usr/lib/postgresql/<version>/bin, or
 * PG_BIN); without them it says what is missing and exits 0.
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { cleanupsOnExit, readCpuMs, readRss, ROOT, rssSampler, startChild, type Child } from './process.ts';
import { seedUrl } from './seed.ts';
import { shippedEnv } from './topology/env.ts';
import { NS, restEvent } from './topology/operations.ts';
import { postgresMissing, startPostgres } from './topology/postgres.ts';
import { freePort } from '../helpers/process.ts';
import { killRedis, redisServerMissing, startRedis } from '../helpers/redis-server.ts';

const { values: opts } = parseArgs({
  options: {
    subscribers: { type: 'string', default: '1000' },
    writes: { type: 'string', default: '20' },
    gap: { type: 'string', default: '500' },
    bus: { type: 'string', default: 'redis' },
    'cpu-prof': { type: 'string' },
  },
});
const SUBSCRIBERS = Number(opts.subscribers);
const WRITES = Number(opts.writes);
const GAP_MS = Number(opts.gap);
const BUSES = opts.bus === 'both' ? (['redis', 'postgres'] as const) : ([opts.bus] as ('redis' | 'postgres')[]);
if (!BUSES.every((b) => b === 'redis' || b === 'postgres')) throw new Error(`--bus: redis, postgres or both (got ${opts.bus})`);
const INSTANCES = 2;
/** How long after the last write's answer a delivery still counts (later: missing). */
const DELIVERY_TIMEOUT_MS = 30_000;
/** Subscriptions opened at once while setting up (the listen backlog and the instances' setup reads). */
const OPEN_AT_ONCE = 50;
const ADMIN = { login: 'fanout-admin', password: `fanout-${process.pid}-${Date.now().toString(36)}` };
const AUTH = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;
const SUBSCRIPTION = 'subscription Fanout { eventChanged { cursor action event { title } } }';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const log = (msg: string) => process.stderr.write(`fanout: ${msg}\n`);

const { add: cleanupLater, run: cleanup } = cleanupsOnExit(log);

/* ------------------------------------------------------------------------------ subscribers */

interface Subscriber {
  instance: number;
  /** Title -> when its change arrived (performance.now(), taken as the bytes arrived). */
  received: Map<string, number>;
  /** Why the stream ended before the bench closed it, if it did. */
  ended: string | null;
  close(): void;
}

// Node's global agent pools sockets per origin: a stream holds its socket for as long as it lasts.
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });

/** One anonymous SSE subscription; resolves at its first event (the ping Yoga sends once the subscription is set up). */
function subscribe(base: string, instance: number): Promise<Subscriber> {
  return new Promise((resolve, reject) => {
    const sub: Subscriber = { instance, received: new Map(), ended: null, close: () => req.destroy() };
    let ready = false;
    const timer = setTimeout(() => req.destroy(new Error('no first event within 60 s')), 60_000);
    const req = http.get(`${base}/graphql?query=${encodeURIComponent(SUBSCRIPTION)}`, { agent, headers: { accept: 'text/event-stream' } }, (res) => {
      if (res.statusCode !== 200) {
        clearTimeout(timer);
        reject(new Error(`subscription answered ${res.statusCode}`));
        res.resume();
        return;
      }
      res.setEncoding('utf8');
      let buffer = '';
      res.on('data', (chunk: string) => {
        const at = performance.now();
        buffer += chunk;
        for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          if (!ready) {
            ready = true;
            clearTimeout(timer);
            resolve(sub);
          }
          if (/^event: complete$/m.test(event)) sub.ended = 'completed by the server';
          const data = event
            .split('\n')
            .filter((line) => line.startsWith('data:'))
            .map((line) => line.slice(5).trim())
            .join('\n');
          if (!data) continue;
          const payload = JSON.parse(data) as { data?: { eventChanged?: { event?: { title?: string } | null } }; errors?: { message: string }[] };
          const title = payload.data?.eventChanged?.event?.title;
          // The first change showing the title is the one measured.
          if (title) {
            if (!sub.received.has(title)) sub.received.set(title, at);
          }
          else if (payload.errors) sub.ended = payload.errors.map((e) => e.message).join('; ');
        }
      });
      res.on('close', () => {
        sub.ended ??= 'connection closed';
      });
    });
    req.on('error', (error) => {
      clearTimeout(timer);
      if (!ready) reject(error);
      else sub.ended ??= error.message;
    });
  });
}

async function openSubscribers(bases: string[], count: number): Promise<Subscriber[]> {
  const subs: Subscriber[] = [];
  for (let i = 0; i < count; i += OPEN_AT_ONCE) {
    const batch = Array.from({ length: Math.min(OPEN_AT_ONCE, count - i) }, (_, j) => (i + j) % bases.length);
    subs.push(...(await Promise.all(batch.map((n) => subscribe(bases[n]!, n)))));
  }
  return subs;
}

/* ------------------------------------------------------------------------------ figures */

/** Nearest-rank percentile of sorted values. */
const pct = (sorted: number[], p: number) => sorted[Math.max(0, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
const ms = (v: number) => (Number.isNaN(v) ? '-' : v.toFixed(v < 10 ? 1 : 0));
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const summary = (xs: number[]) => {
  const s = sorted(xs);
  return { n: s.length, p50: pct(s, 50), p95: pct(s, 95), p99: pct(s, 99), max: s.at(-1) ?? NaN };
};
const mb = (bytes: number | null) => (bytes === null ? '-' : `${(bytes / 1024 / 1024).toFixed(0)} MB`);
const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' / ');

function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const fmt = (cells: string[]) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ');
  return [fmt(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(fmt)].join('\n');
}

/* ------------------------------------------------------------------------------ one run */

interface Write {
  title: string;
  instance: number;
  start: number;
  at: number;
}

async function run(bus: 'redis' | 'postgres', postgresUrl: string): Promise<boolean> {
  const ports = await Promise.all(Array.from({ length: INSTANCES }, freePort));
  const env: Record<string, string | undefined> = {
    ...shippedEnv(),
    // As shipped (connection_limit=10), on this machine's PostgreSQL.
    DATABASE_URL: `${postgresUrl}?connection_limit=10`,
    REDIS_URL: undefined,
    CAL_SITE_URL: `http://127.0.0.1:${ports[0]}`,
    // No cache in front, no metrics listener (two instances would want the same port), no drain wait.
    CAL_PURGE_URL: undefined,
    CAL_METRICS_ADDR: 'off',
    CAL_DRAIN_DELAY_MS: '0',
    CAL_ADMIN_LOGIN: ADMIN.login,
    CAL_ADMIN_PASSWORD: ADMIN.password,
    CAL_LOG_LEVEL: 'warn',
  };
  let redis: Awaited<ReturnType<typeof startRedis>> | null = null;
  if (bus === 'redis') {
    const redisPort = await freePort();
    redis = await startRedis(redisPort);
    env.REDIS_URL = `redis://127.0.0.1:${redisPort}`;
    log(`Redis of its own on port ${redisPort}`);
  }
  const profDir = opts['cpu-prof'] ? path.resolve(opts['cpu-prof'], bus) : null;
  if (profDir) mkdirSync(profDir, { recursive: true });
  const instances: Child[] = await Promise.all(
    ports.map((port, i) =>
      startChild({
        script: 'dist/src/server/main.js',
        port,
        env,
        label: `instance ${i + 1}`,
        readyPath: '/readyz',
        nodeFlags: profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`, `--cpu-prof-name=instance-${i + 1}.cpuprofile`] : [],
      }),
    ),
  );
  const bases = instances.map((c) => c.baseUrl);
  log(`${INSTANCES} instances on ports ${ports.join(', ')}, bus: ${bus === 'redis' ? 'Redis' : 'PostgreSQL LISTEN/NOTIFY'}`);
  const stopAll = async () => {
    await Promise.all(instances.map((c) => c.stop()));
    if (redis) await killRedis(redis);
  };
  let subs: Subscriber[] = [];
  try {
    const idleRss = instances.map((c) => readRss(c.pid));
    const setupCpu = instances.map((c) => readCpuMs(c.pid) ?? 0);
    const setupStarted = performance.now();
    subs = await openSubscribers(bases, SUBSCRIBERS);
    const setupMs = performance.now() - setupStarted;
    const setupCpuMs = instances.map((c, i) => (readCpuMs(c.pid) ?? 0) - setupCpu[i]!);
    log(`${subs.length} subscriptions set up in ${(setupMs / 1000).toFixed(1)} s`);
    await sleep(1_000);
    const subscribedRss = instances.map((c) => readRss(c.pid));

    const loadBefore = load();
    const samplers = instances.map((c) => rssSampler(c.pid, 100));
    const cpuBefore = instances.map((c) => readCpuMs(c.pid) ?? 0);
    const fanoutStarted = performance.now();
    const writes: Write[] = [];
    const tag = `${process.pid.toString(36)}${Date.now().toString(36)}`;
    for (let n = 0; n < WRITES; n++) {
      const instance = n % INSTANCES;
      const title = `Fanout ${tag} ${n + 1}`;
      const start = performance.now();
      const res = await fetch(`${bases[instance]}${NS}/events`, {
        method: 'POST',
        headers: { authorization: AUTH, 'content-type': 'application/json' },
        body: JSON.stringify(restEvent(title, `2031-06-${String((n % 28) + 1).padStart(2, '0')}`)),
      });
      const at = performance.now();
      if (res.status !== 201) throw new Error(`write ${n + 1}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      writes.push({ title, instance, start, at });
      await sleep(Math.max(0, start + GAP_MS - performance.now()));
    }
    const lastAt = writes.at(-1)!.at;
    const allIn = () => subs.every((s) => s.ended !== null || writes.every((w) => s.received.has(w.title)));
    while (!allIn() && performance.now() - lastAt < DELIVERY_TIMEOUT_MS) await sleep(50);
    const fanoutMs = performance.now() - fanoutStarted;
    const cpuMs = instances.map((c, i) => (readCpuMs(c.pid) ?? 0) - cpuBefore[i]!);
    const maxRss = samplers.map((s) => s.overall());
    for (const s of samplers) s.stop();
    const loadAfter = load();
    // Whether what the fanout took is kept: RSS once the instances had a moment to collect.
    await sleep(5_000);
    const settledRss = instances.map((c) => readRss(c.pid));

    const fromAnswer: number[] = [];
    const fromStart: number[] = [];
    const local: number[] = [];
    const remote: number[] = [];
    let missing = 0;
    const rows: string[][] = [];
    for (const [n, w] of writes.entries()) {
      const ofWrite: number[] = [];
      const ofWriteStart: number[] = [];
      let missed = 0;
      for (const s of subs) {
        const got = s.received.get(w.title);
        if (got === undefined) {
          missed++;
          continue;
        }
        ofWrite.push(got - w.at);
        ofWriteStart.push(got - w.start);
        (s.instance === w.instance ? local : remote).push(got - w.at);
      }
      missing += missed;
      fromAnswer.push(...ofWrite);
      fromStart.push(...ofWriteStart);
      const a = summary(ofWrite);
      const b = summary(ofWriteStart);
      rows.push([String(n + 1), String(w.instance + 1), ms(w.at - w.start), ms(a.p50), ms(a.p95), ms(a.p99), ms(a.max), ms(b.p99), ms(b.max), String(missed)]);
    }
    const ended = subs.filter((s) => s.ended !== null);

    console.log(
      `\n## npm run bench:fanout: ${subs.length} SSE subscribers over ${INSTANCES} instances (${subs.length / INSTANCES} each), ${writes.length} REST creates ${GAP_MS} ms apart; bus: ${bus === 'redis' ? 'Redis pub/sub' : 'PostgreSQL LISTEN/NOTIFY (no Redis)'}\n`,
    );
    console.log(
      table(
        ['write', 'on instance', 'answer ms', 'p50', 'p95', 'p99', 'max', 'p99 from start', 'max from start', 'missing'],
        rows,
      ),
    );
    const all = summary(fromAnswer);
    const allStart = summary(fromStart);
    const loc = summary(local);
    const rem = summary(remote);
    console.log(`\nlatency from a write's answer to a subscriber's receipt (ms; from the request's start where said), over ${all.n} deliveries:`);
    console.log(
      table(
        ['deliveries', 'n', 'p50', 'p95', 'p99', 'max'],
        [
          ['all, from the answer', String(all.n), ms(all.p50), ms(all.p95), ms(all.p99), ms(all.max)],
          ['all, from the request start', String(allStart.n), ms(allStart.p50), ms(allStart.p95), ms(allStart.p99), ms(allStart.max)],
          ['subscriber on the writing instance', String(loc.n), ms(loc.p50), ms(loc.p95), ms(loc.p99), ms(loc.max)],
          ['subscriber on the other instance', String(rem.n), ms(rem.p50), ms(rem.p95), ms(rem.p99), ms(rem.max)],
        ],
      ),
    );
    console.log(`\nmissing deliveries: ${missing} of ${writes.length * subs.length}${ended.length ? `; ${ended.length} streams ended early (${[...new Set(ended.map((s) => s.ended))].join('; ')})` : ''}`);
    console.log(`setup: ${subs.length} subscriptions in ${(setupMs / 1000).toFixed(1)} s (${OPEN_AT_ONCE} opened at once)`);
    console.log(
      table(
        ['instance', 'CPU during fanout', 'CPU per write', 'CPU of setup', 'RSS idle', 'RSS subscribed', 'RSS max in fanout', 'RSS 5 s after'],
        instances.map((_, i) => [
          String(i + 1),
          `${ms(cpuMs[i]!)} ms`,
          `${ms(cpuMs[i]! / writes.length)} ms`,
          `${ms(setupCpuMs[i]!)} ms`,
          mb(idleRss[i]!),
          mb(subscribedRss[i]!),
          mb(maxRss[i]!),
          mb(settledRss[i]!),
        ]),
      ),
    );
    console.log(`fanout phase: ${(fanoutMs / 1000).toFixed(1)} s (writes, then until every delivery arrived). CPU time is user + system from /proc/<pid>/stat.`);
    console.log(`load average (1 / 5 / 15 min) before the fanout: ${loadBefore}; after: ${loadAfter}; ${os.cpus().length} cores, shared with other work: wall-clock figures are inflated when it is high.`);
    return missing === 0 && ended.length === 0;
  } finally {
    for (const s of subs) s.close();
    await stopAll();
    if (profDir) log(`CPU profiles in ${profDir}`);
  }
}

/* ------------------------------------------------------------------------------ main */

async function main(): Promise<number> {
  const missing = (BUSES.includes('redis') ? redisServerMissing() : null) ?? postgresMissing();
  if (missing) {
    console.log(`npm run bench:fanout: skipped: ${missing}`);
    return 0;
  }
  execFileSync(process.execPath, ['src/build.mjs', '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  const dir = mkdtempSync(path.join(os.tmpdir(), 'cal-fanout-'));
  chmodSync(dir, 0o755); // PostgreSQL runs as its own user when this runs as root
  cleanupLater(() => rmSync(dir, { recursive: true, force: true }));
  const postgres = await startPostgres(path.join(dir, 'pg'), await freePort());
  cleanupLater(() => postgres.stop());
  log(`PostgreSQL of its own (${path.join(dir, 'pg')})`);
  await seedUrl(postgres.url, undefined, { events: 200, progress: false });
  let ok = true;
  for (const bus of BUSES) ok = (await run(bus, postgres.url)) && ok;
  if (!ok) console.log('\nFAILED: deliveries missing or streams ended early');
  return ok ? 0 : 1;
}

let code = 1;
try {
  code = await main();
} catch (e) {
  console.error(`npm run bench:fanout failed: ${(e as Error).stack ?? String(e)}`);
} finally {
  await cleanup();
}
process.exit(code);
