import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../helpers/database.ts';
import { startServerProcess, stopServerProcesses } from '../helpers/process.ts';
import { subscribeSse } from '../helpers/sse.ts';

// Two server processes on one PostgreSQL database: a subscription opened on one receives a REST
// write made through the other, over PostgreSQL LISTEN/NOTIFY and over Redis pub/sub (REDIS_URL).
// Needs PostgreSQL (the postgres project, TEST_DATABASE_URL); the Redis variant needs a Redis at
// TEST_REDIS_URL (default redis://127.0.0.1:6379) and says so when there is none.
const ADMIN = { login: 'admin', password: 'process-pass' };
const auth = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;
const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const onPostgres = process.env.TEST_BACKEND === 'postgres';
if (!onPostgres) console.warn('test/server/changes-processes: runs in the postgres project only (set TEST_DATABASE_URL)');

const startServer = async (env: Record<string, string>): Promise<string> =>
  (await startServerProcess({ CAL_ADMIN_LOGIN: ADMIN.login, CAL_ADMIN_PASSWORD: ADMIN.password, ...env })).base;

async function redisAvailable(): Promise<boolean> {
  const client = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

async function writeOnOneReceiveOnOther(env: Record<string, string>, label: string) {
  const db = await createPostgresDatabase();
  try {
    const env2 = { DATABASE_URL: db.url, ...env };
    const a = await startServer(env2); // migrates
    const b = await startServer(env2);
    const anonymous = await subscribeSse(b, 'subscription { eventChanged { action eventId event { title } } }');
    const admin = await subscribeSse(b, 'subscription { eventChanged { action eventId event { title } } }', { authorization: auth });
    try {
      const latencies: number[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await fetch(`${a}/wp-json/cal/events/v1/events`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify({ title: `Across ${i}`, start_date: '2030-03-01 19:00:00', end_date: '2030-03-01 21:00:00', status: 'publish' }),
        });
        const answered = performance.now();
        const body = (await res.json()) as { id: number };
        expect(res.status).toBe(201);
        expect((await anonymous.next(1_000)).data).toEqual({ eventChanged: { action: 'CREATED', eventId: Buffer.from(`Event:${body.id}`).toString('base64'), event: { title: `Across ${i}` } } });
        latencies.push(anonymous.received[i].at - answered);
        await admin.next(1_000);
      }
      // A draft written on A reaches B's admin, not B's anonymous subscriber.
      await fetch(`${a}/wp-json/cal/events/v1/events`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ title: 'Draft across', start_date: '2030-03-01 19:00:00', end_date: '2030-03-01 21:00:00', status: 'draft' }),
      });
      expect((await admin.next(1_000)).data.eventChanged.event.title).toBe('Draft across');
      await expect(anonymous.next(500)).rejects.toThrow(/no subscription payload/);
      const sorted = [...latencies].sort((x, y) => x - y);
      console.log(
        `${label}: write on A → SSE payload on B, ms after A's REST answer: ${latencies.map((l) => l.toFixed(1)).join(', ')} (median ${sorted[2].toFixed(1)})`,
      );
    } finally {
      anonymous.close();
      admin.close();
    }
  } finally {
    stopServerProcesses();
    await new Promise((r) => setTimeout(r, 200));
    await db.drop();
  }
}

describe.skipIf(!onPostgres)('live changes across server processes on one PostgreSQL', () => {
  let hasRedis = false;
  beforeAll(async () => {
    hasRedis = await redisAvailable();
    if (!hasRedis) console.warn(`test/server/changes-processes: no Redis at ${redisUrl}; the Redis variant is skipped`);
  });
  afterAll(() => {
    stopServerProcesses();
  });

  it('PostgreSQL LISTEN/NOTIFY: a REST write on one process reaches a subscriber on the other within a second', { timeout: 240_000 }, async () => {
    await writeOnOneReceiveOnOther({}, 'PostgreSQL LISTEN/NOTIFY');
  });

  it('Redis pub/sub (REDIS_URL): the same across processes', { timeout: 240_000 }, async (t) => {
    if (!hasRedis) t.skip();
    await writeOnOneReceiveOnOther({ REDIS_URL: redisUrl, CAL_CHANGES_CHANNEL: `cal_test_${process.pid}` }, 'Redis pub/sub');
  });
});
