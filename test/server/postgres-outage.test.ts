/**
 * What a server does when its PostgreSQL database goes away and comes back. The shared
 * PostgreSQL server must stay up for everyone else, so the outage is of this test's own database:
 * it stops accepting connections (`ALLOW_CONNECTIONS false`) and every connection to it is ended
 * (`pg_terminate_backend`). Expected: /readyz 503 while /healthz stays 200, requests answer at once
 * 503 with `Retry-After` in the API's error shapes without internals, and everything works again
 * once it is back.
 */
import net from 'node:net';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testBackend } from '../helpers/database.ts';
import { freePort, startServerProcess, stopServerProcesses } from '../helpers/process.ts';
import { subscribeSse } from '../helpers/sse.ts';

afterAll(stopServerProcesses);

const auth = `Basic ${Buffer.from('admin:secret-pass').toString('base64')}`;

async function admin(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

describe.runIf(testBackend === 'postgres')('PostgreSQL outage', () => {
  it('readiness fails, requests fail cleanly, and the server recovers by itself', async () => {
    const db = await createPostgresDatabase();
    const name = new URL(db.url).pathname.slice(1);
    try {
      const server = await startServerProcess({ DATABASE_URL: db.url, CAL_ADMIN_LOGIN: 'admin', CAL_ADMIN_PASSWORD: 'secret-pass', CAL_CACHE_TTL_S: '0' });
      const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.base}${path}`, { headers });
      const graphql = () =>
        fetch(`${server.base}/graphql`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query: '{ events { totalCount } }' }) });
      expect((await get('/readyz')).status).toBe(200);
      expect((await get('/wp-json/cal/events/v1/events', { authorization: auth })).status).toBe(200);

      await admin(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS false`);
      await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${name}'`);
      try {
        expect((await get('/healthz')).status).toBe(200);
        expect(await (await get('/readyz')).json()).toEqual({ status: 'unavailable', database: 'postgres' });
        for (const headers of [{}, { authorization: auth }] as Record<string, string>[]) {
          const res = await get('/wp-json/cal/events/v1/events', headers);
          const body = (await res.json()) as { code: string; message: string; data: { status: number } };
          // Unavailable for a moment, not broken: 503 and when to try again, in the REST error shape.
          expect(res.status).toBe(503);
          expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
          expect(body).toMatchObject({ code: 'service_unavailable', message: expect.any(String), data: { status: 503 } });
          expect(JSON.stringify(body)).not.toMatch(/stack|prisma|accepting connections|at .*\.ts/i);
        }
        const gqlRes = await graphql();
        expect(gqlRes.status).toBe(503);
        expect(gqlRes.headers.get('retry-after')).toMatch(/^\d+$/);
        const gql = (await gqlRes.json()) as { errors: { message: string; extensions: { code: string } }[] };
        expect(gql.errors.map((e) => e.extensions.code)).toEqual(['SERVICE_UNAVAILABLE']);
        expect(JSON.stringify(gql)).not.toMatch(/stack|prisma|accepting connections|at .*\.ts/i);
        const page = await get('/events/');
        expect(page.status).toBe(503);
        expect(page.headers.get('retry-after')).toMatch(/^\d+$/);
      } finally {
        await admin(`ALTER DATABASE "${name}" ALLOW_CONNECTIONS true`);
      }

      // Back: the pool opens new connections; no restart needed.
      expect((await get('/readyz')).status).toBe(200);
      expect((await get('/wp-json/cal/events/v1/events')).status).toBe(200);
      expect((await get('/wp-json/cal/events/v1/events', { authorization: auth })).status).toBe(200);
      expect(await (await graphql()).json()).toEqual({ data: { events: { totalCount: 0 } } });
    } finally {
      stopServerProcesses();
      await new Promise((r) => setTimeout(r, 300));
      await db.drop();
    }
  }, 180_000);
});

/**
 * A TCP relay to PostgreSQL that can be cut (every connection through it dropped, new ones refused)
 * and restored: one process loses its database while another, connected directly, keeps it.
 */
async function relay(target: URL) {
  const sockets = new Set<net.Socket>();
  let cut = false;
  const server = net.createServer((client) => {
    if (cut) return void client.destroy();
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    for (const [a, b] of [[client, upstream], [upstream, client]] as const) {
      sockets.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => (sockets.delete(a), b.destroy()));
      a.pipe(b);
    }
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: (database: string) => Object.assign(new URL(database), { host: `127.0.0.1:${port}` }).href,
    cut: () => {
      cut = true;
      for (const s of sockets) s.destroy();
    },
    restore: () => void (cut = false),
    close: () => new Promise((resolve) => (cut = true, sockets.forEach((s) => s.destroy()), server.close(resolve))),
  };
}

const redisUrl = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
async function redisAvailable(): Promise<boolean> {
  const client = new Redis(redisUrl, { lazyConnect: true, connectTimeout: 1_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  return client.connect().then(
    () => (client.disconnect(), true),
    () => (client.disconnect(), false),
  );
}

describe.runIf(testBackend === 'postgres')('PostgreSQL outage under a subscription', () => {
  it('a subscriber keeps its subscription while its process loses the database for a moment', async (t) => {
    if (!(await redisAvailable())) return t.skip(`no Redis at ${redisUrl} (TEST_REDIS_URL) for the change bus`);
    const db = await createPostgresDatabase();
    const target = new URL(db.url);
    const link = await relay(target);
    const env = { CAL_ADMIN_LOGIN: 'admin', CAL_ADMIN_PASSWORD: 'secret-pass', REDIS_URL: redisUrl, CAL_CHANGES_CHANNEL: `cal_outage_sub_${process.pid}` };
    try {
      // A writes on the database directly; B, whose subscriber listens, reaches it through the relay.
      const a = await startServerProcess({ ...env, DATABASE_URL: db.url });
      const b = await startServerProcess({ ...env, DATABASE_URL: link.url(db.url) });
      const sub = await subscribeSse(b.base, 'subscription { eventChanged { action event { title } } }');
      const write = async (title: string) => {
        const res = await fetch(`${a.base}/wp-json/cal/events/v1/events`, {
          method: 'POST',
          headers: { authorization: auth, 'content-type': 'application/json' },
          body: JSON.stringify({ title, start_date: '2030-03-01 19:00:00', end_date: '2030-03-01 21:00:00', status: 'publish' }),
        });
        expect(res.status).toBe(201);
      };
      const titleOf = (payload: any) => payload.data?.eventChanged?.event?.title ?? JSON.stringify(payload);
      try {
        await write('Before');
        expect(titleOf(await sub.next(10_000))).toBe('Before');
        // B cannot read the changed record for a moment (a database restarting under it).
        link.cut();
        await write('During');
        await new Promise((r) => setTimeout(r, 1_500));
        link.restore();
        await write('After');
        // The same stream goes on: the change written meanwhile arrives late, then the next one.
        expect(titleOf(await sub.next(20_000))).toBe('During');
        expect(titleOf(await sub.next(10_000))).toBe('After');
      } finally {
        sub.close();
      }
    } finally {
      stopServerProcesses();
      await link.close();
      await new Promise((r) => setTimeout(r, 300));
      await db.drop();
    }
  }, 180_000);
});
