import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { migrationsDir } from '../../src/db/migrate.ts';
import { createPostgresDatabase, testBackend } from '../helpers/database.ts';
import { launchServerProcess, stopServerProcesses } from '../helpers/process.ts';
import { readdirSync } from 'node:fs';

const auth = `Basic ${Buffer.from('admin:secret-pass').toString('base64')}`;
const NS = '/wp-json/cal/events/v1';

const start = (databaseUrl: string) =>
  launchServerProcess({ DATABASE_URL: databaseUrl, CAL_ADMIN_LOGIN: 'admin', CAL_ADMIN_PASSWORD: 'secret-pass' });

afterAll(stopServerProcesses);

// Needs a PostgreSQL server: runs in the postgres project only.
describe.runIf(testBackend === 'postgres')('three server processes on one fresh PostgreSQL database', () => {
  it('start at once without racing on migrations, and see each other’s writes', async () => {
    const db = await createPostgresDatabase();
    try {
      const servers = [start(db.url), start(db.url), start(db.url)];
      const bases = await Promise.all(servers.map((s) => s.listening));

      // Each migration applied exactly once, by exactly one of the processes.
      const expected = readdirSync(migrationsDir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
      const client = new pg.Client({ connectionString: db.url });
      await client.connect();
      try {
        const { rows } = await client.query(
          'SELECT migration_name, finished_at IS NOT NULL AS done, rolled_back_at IS NULL AS live FROM _prisma_migrations ORDER BY migration_name',
        );
        expect(rows).toEqual(expected.map((migration_name) => ({ migration_name, done: true, live: true })));
      } finally {
        await client.end();
      }
      const appliedBy = servers.filter((s) => s.output().includes('"msg":"migrations applied"'));
      expect(appliedBy).toHaveLength(1);

      // One administrator, however many processes bootstrapped it.
      const me = await Promise.all(
        bases.map(async (b) => (await (await fetch(`${b}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: auth },
          body: JSON.stringify({ query: '{ me { id login } }' }),
        })).json()) as { data: { me: { id: string; login: string } } }),
      );
      expect(new Set(me.map((r) => r.data.me.id)).size).toBe(1);

      // A write on one process is read on the others.
      const created = await fetch(`${bases[0]}${NS}/events`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: auth },
        body: JSON.stringify({ title: 'Shared across instances', start_date: '2030-05-01 10:00:00', end_date: '2030-05-01 12:00:00', status: 'publish' }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      for (const base of bases.slice(1)) {
        const res = await fetch(`${base}${NS}/events/${id}`);
        expect(res.status).toBe(200);
        expect(((await res.json()) as { title: string }).title).toBe('Shared across instances');
      }
    } finally {
      stopServerProcesses();
      await db.drop();
    }
  }, 240_000);
});
