/**
 * With REDIS_URL set and Redis gone, signed-in requests once took ~8 s and wrong
 * passwords 9–12 s (every throttle command waited for reconnection attempts). This test runs its
 * own redis-server on a free port (the shared one must stay up for everyone else), starts real
 * servers on it, kills that Redis, and checks that requests answer promptly, throttling goes on
 * locally, and that after Redis comes back on the same port the shared counters and the change
 * bus work again. It prints the latencies (Redis up / Redis down) for the record.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testBackend } from '../helpers/database.ts';
import { freePort, startServerProcess, stopServerProcesses } from '../helpers/process.ts';
import { killRedis, redisServerMissing, startRedis } from '../helpers/redis-server.ts';
import { subscribeSse } from '../helpers/sse.ts';

const redisMissing = redisServerMissing();
const hasRedisServer = redisMissing === null;
if (!hasRedisServer) console.warn(`test/server/redis-outage: ${redisMissing}; the Redis outage test is skipped`);

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;
const ADMIN = basic('admin', 'secret-pass');
const WRONG = basic('admin', 'wrong-pass');
const LIMIT = 5;
/** Generous: the point is seconds (before) versus milliseconds, on a loaded shared machine. */
const PROMPT_MS = 2_000;

async function timed(base: string, authorization: string, pathname = '/wp-json/cal/events/v1/events'): Promise<{ status: number; ms: number }> {
  const started = performance.now();
  const res = await fetch(`${base}${pathname}`, { headers: { authorization } });
  await res.arrayBuffer();
  return { status: res.status, ms: performance.now() - started };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (xs: number[]) => `median ${median(xs).toFixed(0)} ms, max ${Math.max(...xs).toFixed(0)} ms`;

let redis: ChildProcess | undefined;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  stopServerProcesses();
  if (redis) await killRedis(redis);
  for (const c of cleanups) await c();
});

describe.runIf(hasRedisServer)(`Redis outage on ${testBackend}`, () => {
  it('signed-in requests and wrong passwords stay prompt, throttling goes on locally, and everything resumes with Redis', async () => {
    const port = await freePort();
    redis = await startRedis(port);
    const prefix = `cal-outage-${randomUUID()}`;
    const env: Record<string, string> = {
      REDIS_URL: `redis://127.0.0.1:${port}`,
      CAL_REDIS_PREFIX: prefix,
      CAL_CHANGES_CHANNEL: `cal_outage_${process.pid}`,
      CAL_ADMIN_LOGIN: 'admin',
      CAL_ADMIN_PASSWORD: 'secret-pass',
      CAL_AUTH_FAILURE_LIMIT: String(LIMIT),
      CAL_AUTH_FAILURE_WINDOW_S: '600',
    };
    if (testBackend === 'postgres') {
      const db = await createPostgresDatabase();
      cleanups.push(() => db.drop());
      env.DATABASE_URL = db.url;
    } else {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'cal-outage-'));
      cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
      env.CAL_DATA_DIR = dir;
    }
    // On PostgreSQL two processes share the counters and the bus; the embedded database has one.
    const a = await startServerProcess(env);
    const b = testBackend === 'postgres' ? await startServerProcess(env) : a;
    const watcher = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0 });
    watcher.on('error', () => {});
    cleanups.push(() => watcher.disconnect());

    // Redis up.
    const up = { signedIn: [] as number[], wrong: [] as number[] };
    for (let i = 0; i < 5; i++) up.signedIn.push((await timed(a.base, ADMIN)).ms);
    for (let i = 0; i < 2; i++) {
      const r = await timed(i % 2 ? b.base : a.base, WRONG);
      expect(r.status).toBe(401);
      up.wrong.push(r.ms);
    }

    // Redis gone.
    await killRedis(redis);
    const down = { signedIn: [] as number[], wrong: [] as number[] };
    for (let i = 0; i < 5; i++) {
      const r = await timed(a.base, ADMIN);
      expect(r.status).toBe(200);
      down.signedIn.push(r.ms);
    }
    // A write answers too (its change cannot travel; publishing must not hold the request).
    const started = performance.now();
    const write = await fetch(`${a.base}/wp-json/cal/events/v1/events`, {
      method: 'POST',
      headers: { authorization: ADMIN, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'During the outage', start_date: '2030-03-01 19:00:00', end_date: '2030-03-01 21:00:00', status: 'publish' }),
    });
    const writeMs = performance.now() - started;
    expect(write.status).toBe(201);
    // Local counters take over: this process has seen no failure yet, so LIMIT wrong passwords
    // answer 401 and the next one 429.
    for (let i = 0; i < LIMIT; i++) {
      const r = await timed(a.base, WRONG);
      expect(r.status, `wrong password ${i + 1} during the outage`).toBe(401);
      down.wrong.push(r.ms);
    }
    const throttled = await timed(a.base, WRONG);
    console.log(
      `Redis up: signed-in ${fmt(up.signedIn)}, wrong password ${fmt(up.wrong)}; ` +
        `Redis down: signed-in ${fmt(down.signedIn)}, wrong password ${fmt(down.wrong)}, write ${writeMs.toFixed(0)} ms`,
    );
    expect(throttled.status).toBe(429);
    for (const ms of [...down.signedIn, ...down.wrong]) expect(ms).toBeLessThan(PROMPT_MS);
    // A write does more work (PGlite writes take ~1–2 s on the loaded test machine); it took ~7 s.
    expect(writeMs).toBeLessThan(2.5 * PROMPT_MS);
    // One line about the outage per Redis client, not one per request.
    // The line is written when the client notices (its socket closes); the process's stdout reaches
    // this test through a pipe, so give it a moment rather than reading it at one instant.
    const outageLinesOf = () => a.stdout().split('\n').filter((l) => /Redis (connection lost|unreachable)/.test(l));
    for (const until = Date.now() + 10_000; outageLinesOf().length === 0 && Date.now() < until; ) await new Promise((r) => setTimeout(r, 100));
    const outageLines = outageLinesOf();
    expect(outageLines.length).toBeGreaterThan(0);
    expect(outageLines.length).toBeLessThanOrEqual(4);

    // Redis back on the same port (empty: no persistence). The servers reconnect with backoff;
    // a successful sign-in writes a shared "known address" key once the throttle is back on Redis.
    redis = await startRedis(port);
    await watcher.connect();
    const deadline = Date.now() + 60_000;
    // Every process's throttle must be back on Redis (its "connection back" line), not only the first.
    const throttleBack = (p: typeof a) => p.stdout().split('\n').some((l) => l.includes('sign-in throttling: Redis connection back'));
    while ((await watcher.keys(`${prefix}:auth:known*`)).length === 0 || !throttleBack(a) || !throttleBack(b)) {
      if (Date.now() > deadline) throw new Error('the throttle did not come back to Redis within 60 s');
      await timed(a.base, ADMIN);
      if (b !== a) await timed(b.base, ADMIN);
      await new Promise((r) => setTimeout(r, 200));
    }
    // Shared counters again: LIMIT failures spread over the processes use up the address's budget
    // in Redis, and then every process refuses (even the right password, the address being throttled).
    for (let i = 0; i < LIMIT; i++) expect((await timed(i % 2 ? b.base : a.base, WRONG)).status).toBe(401);
    expect(await watcher.keys(`${prefix}:auth:address*`)).not.toHaveLength(0);
    expect((await timed(b.base, ADMIN)).status).toBe(429);

    // The change bus delivers again: a write on A reaches a subscriber on B (the first writes may
    // go while the subscriber connection is still coming back).
    const sub = await subscribeSse(b.base, 'subscription { eventChanged { action event { title } } }');
    try {
      let delivered = false;
      for (let i = 0; i < 20 && !delivered; i++) {
        // The address is throttled now: clear the shared counters so that the admin may write.
        await watcher.del(...(await watcher.keys(`${prefix}:auth:*`)));
        const w = await fetch(`${a.base}/wp-json/cal/events/v1/events`, {
          method: 'POST',
          headers: { authorization: ADMIN, 'content-type': 'application/json' },
          body: JSON.stringify({ title: `After the outage ${i}`, start_date: '2030-03-02 19:00:00', end_date: '2030-03-02 21:00:00', status: 'publish' }),
        });
        expect(w.status).toBe(201);
        delivered = await sub.next(3_000).then(
          (p: { data: { eventChanged: { event: { title: string } } } }) => p.data.eventChanged.event.title.startsWith('After the outage'),
          () => false,
        );
      }
      expect(delivered).toBe(true);
    } finally {
      sub.close();
    }
  }, 600_000);
});
