/**
 * Issue 21: what a server does when its PostgreSQL database goes away and comes back. The shared
 * PostgreSQL server must stay up for everyone else, so the outage is of this test's own database:
 * it stops accepting connections (`ALLOW_CONNECTIONS false`) and every connection to it is ended
 * (`pg_terminate_backend`). Expected: /readyz 503 while /healthz stays 200, requests answer at once
 * in the API's error shapes without internals, and everything works again once it is back.
 */
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testBackend } from '../helpers/database.ts';
import { startServerProcess, stopServerProcesses } from '../helpers/process.ts';

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
          expect(res.status).toBeGreaterThanOrEqual(500);
          expect(body).toMatchObject({ code: expect.any(String), message: expect.any(String), data: { status: res.status } });
          expect(JSON.stringify(body)).not.toMatch(/stack|prisma|accepting connections|at .*\.ts/i);
        }
        const gql = (await (await graphql()).json()) as { errors: { message: string }[] };
        expect(gql.errors.map((e) => e.message)).toEqual(['Unexpected error.']);
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
