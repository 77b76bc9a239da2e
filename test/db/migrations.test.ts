import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { DatabaseConfigError, openDatabase } from '../../src/db/database.ts';
import { applyMigrations, diffDatabaseToSchema, migrationsDir, resolveFailedMigration, writeEmptyDatabaseImage } from '../../src/db/migrate.ts';
import { createTestDatabase, testBackend, type TestDatabase } from '../helpers/database.ts';
import { freePort } from '../helpers/process.ts';

const committed = (await readdir(migrationsDir, { withFileTypes: true }))
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

const user = (login: string) => ({ login, role: 'EDITOR' as const, passwordHash: 'x' });

describe(`migrations on ${testBackend}`, () => {
  it('apply from empty, apply nothing the second time, and leave no diff to schema.prisma', async () => {
    const db = await createTestDatabase({ migrate: false });
    try {
      expect(committed.length).toBeGreaterThan(0);
      expect(await applyMigrations(db)).toEqual(committed);
      expect(await applyMigrations(db)).toEqual([]);
      expect(await diffDatabaseToSchema(db), 'schema.prisma changed: npm run db:migration:create <name>').toBe('');

      await db.prisma.$executeRawUnsafe('DROP INDEX "Event_endLocal_idx"');
      expect(await diffDatabaseToSchema(db)).toContain('CREATE INDEX "Event_endLocal_idx"');
    } finally {
      await db.close();
    }
  }, 60_000); // under load, PGlite needs well over the default 15 s for the whole run

  const migrationsTable = `CREATE TABLE _prisma_migrations (
      id VARCHAR(36) PRIMARY KEY NOT NULL, checksum VARCHAR(64) NOT NULL, finished_at TIMESTAMPTZ,
      migration_name VARCHAR(255) NOT NULL, logs TEXT, rolled_back_at TIMESTAMPTZ,
      started_at TIMESTAMPTZ NOT NULL DEFAULT now(), applied_steps_count INTEGER NOT NULL DEFAULT 0)`;
  /** What an older version (the schema engine) left when killed between recording a migration as started and finishing it. */
  const unfinishedRow = async (db: TestDatabase, name: string) => {
    await db.prisma.$executeRawUnsafe(migrationsTable);
    await db.prisma.$executeRawUnsafe(
      `INSERT INTO _prisma_migrations (id, checksum, migration_name) VALUES ('legacy-attempt', 'x', '${name}')`,
    );
  };
  const rowsOf = (db: TestDatabase) =>
    db.prisma.$queryRawUnsafe<{ migration_name: string; finished: boolean; rolled_back: boolean }[]>(
      `SELECT migration_name, finished_at IS NOT NULL AS finished, rolled_back_at IS NOT NULL AS rolled_back
       FROM _prisma_migrations ORDER BY started_at, migration_name`,
    );

  // A migration and its `_prisma_migrations` row are one transaction, so a failed
  // (or killed) migration leaves neither its changes nor a row; the next start applies it.
  it('a migration that fails leaves no changes and no row, and is applied once the obstacle is gone', async () => {
    const db = await createTestDatabase({ migrate: false });
    try {
      await db.prisma.$executeRawUnsafe('CREATE TABLE "Post" (x int)');
      await expect(applyMigrations(db)).rejects.toThrow(new RegExp(`^migration ${committed[0]}: .*already exists`));
      expect(await rowsOf(db)).toEqual([]);
      await db.prisma.$executeRawUnsafe('DROP TABLE "Post"');
      expect(await applyMigrations(db)).toEqual(committed);
      expect((await rowsOf(db)).map((r) => [r.migration_name, r.finished, r.rolled_back])).toEqual(committed.map((n) => [n, true, false]));
      expect(await applyMigrations(db)).toEqual([]);
      expect(await diffDatabaseToSchema(db)).toBe('');
    } finally {
      await db.close();
    }
  }, 60_000);

  // An older version's attempt killed midway left its row unfinished, and every
  // later start stopped on "migrate found failed migrations"; its script had been rolled back.
  it('an unfinished row of an older version whose changes were rolled back is applied again', async () => {
    const db = await createTestDatabase({ migrate: false });
    try {
      await unfinishedRow(db, committed[0]);
      const logs: string[] = [];
      expect(await applyMigrations(db, { log: (m) => logs.push(m) })).toEqual(committed);
      expect(logs).toContain(`migration ${committed[0]} had failed in an earlier run and left no changes: applying it again`);
      expect(await applyMigrations(db)).toEqual([]);
      expect(await diffDatabaseToSchema(db)).toBe('');
      await db.prisma.user.create({ data: user('after-recovery') });
    } finally {
      await db.close();
    }
  }, 60_000);

  it('an unfinished row whose changes are there names the way out, and migrate:resolve records it', async () => {
    const db = await createTestDatabase({ migrate: false });
    try {
      await unfinishedRow(db, committed[0]);
      const script = await readFile(path.join(migrationsDir, committed[0], 'migration.sql'), 'utf8');
      await db.session((session) => session.exec(script));
      await expect(applyMigrations(db)).rejects.toThrow(`npm run cal -- migrate:resolve --applied ${committed[0]}`);
      expect(await resolveFailedMigration(db, 'no_such_migration', 'applied')).toBe(false);
      expect(await resolveFailedMigration(db, committed[0], 'applied')).toBe(true);
      expect(await applyMigrations(db)).toEqual(committed.slice(1));
      expect(await diffDatabaseToSchema(db)).toBe('');
    } finally {
      await db.close();
    }
  }, 60_000);
});

describe.runIf(testBackend === 'pglite')('openDatabase', () => {
  let tmp: string;
  beforeAll(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'cal-events-db-'));
  });
  afterAll(async () => {
    await rm(tmp, { recursive: true, force: true });
  });

  it('memory: is an in-memory PGlite', async () => {
    const db = await openDatabase('memory:');
    expect(db.kind).toBe('pglite-memory');
    await db.ping();
    await db.close();
  }, 60_000); // booting PGlite (initdb) takes well over 15 s on the loaded shared machine

  it('no URL is a PGlite persisted in dataDir, migrated once across restarts and locked while open', async () => {
    const dataDir = path.join(tmp, 'data');
    const first = await openDatabase(undefined, { dataDir });
    expect(first.kind).toBe('pglite-dir');
    expect(await applyMigrations(first)).toEqual(committed);
    await first.prisma.user.create({ data: user('kept') });
    await expect(openDatabase('', { dataDir })).rejects.toThrow(/already open in this process/);
    await first.close();

    const second = await openDatabase('', { dataDir });
    expect(second.kind).toBe('pglite-dir');
    expect(await applyMigrations(second)).toEqual([]);
    expect(await second.prisma.user.findMany({ select: { login: true } })).toEqual([{ login: 'kept' }]);
    await second.close();
  }, 120_000);

  it('the build image of an empty database is fully migrated, and a new data directory starts from it', async () => {
    const image = path.join(tmp, 'empty-database.tar.gz');
    await writeEmptyDatabaseImage(image);
    const dataDir = path.join(tmp, 'from-image');
    const db = await openDatabase(undefined, { dataDir, loadDataDir: new Blob([await readFile(image)]) });
    try {
      expect(await applyMigrations(db)).toEqual([]);
      expect(await diffDatabaseToSchema(db)).toBe('');
      await db.prisma.user.create({ data: user('on-image') });
      expect(await db.prisma.user.count()).toBe(1);
    } finally {
      await db.close();
    }
  }, 300_000); // two PGlite instances and the schema engine's diff: minutes on a loaded machine

  it('refuses a data directory locked by another live process', async () => {
    const dataDir = path.join(tmp, 'locked');
    await (await openDatabase(undefined, { dataDir })).close();
    await writeFile(path.join(dataDir, 'cal-events.lock'), String(process.ppid));
    await expect(openDatabase(undefined, { dataDir })).rejects.toThrow(`in use by process ${process.ppid}`);
  }, 60_000);

  it.each([
    ['mysql://root@localhost/cal', 'DATABASE_URL: unsupported scheme "mysql:"; use postgres://…, memory: or leave it unset'],
    ['sqlite:./cal.db', 'DATABASE_URL: unsupported scheme "sqlite:"; use postgres://…, memory: or leave it unset'],
    ['./data', 'DATABASE_URL: not a URL; use postgres://…, memory: or leave it unset'],
    ['postgres://localhost/cal?connection_limit=0', 'DATABASE_URL: connection_limit must be a positive integer, got "0"'],
  ])('rejects %s with a one-line DatabaseConfigError', async (url, message) => {
    const error = await openDatabase(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseConfigError);
    expect((error as Error).message).toBe(message);
  });

  it('reports an unreachable PostgreSQL in one line', async () => {
    const port = await freePort();
    const error = await openDatabase(`postgres://postgres@127.0.0.1:${port}/test`).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DatabaseConfigError);
    expect((error as Error).message).toBe(`cannot connect to PostgreSQL at 127.0.0.1:${port}: connection refused`);
  });

  it.runIf(process.env.TEST_DATABASE_URL)('postgres:// and postgresql:// use adapter-pg', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL!);
    url.searchParams.set('connection_limit', '2');
    for (const protocol of ['postgres:', 'postgresql:']) {
      const db = await openDatabase(url.href.replace(/^[a-z]+:/, protocol));
      expect(db.kind).toBe('postgres');
      await db.ping();
      await db.close();
    }
  });
});

describe(`query counter and serialization on ${testBackend}`, () => {
  let db: TestDatabase;
  let queries: string[] = [];
  beforeAll(async () => {
    db = await createTestDatabase({ onQuery: (sql) => queries.push(sql) });
  });
  afterAll(() => db?.close());
  beforeEach(async () => {
    await db.reset();
    queries = [];
  });

  it('counts every statement, inside transactions too, but not BEGIN/COMMIT', async () => {
    await db.prisma.user.findMany({ include: { applicationPasswords: true } });
    expect(queries).toHaveLength(1);
    expect(queries[0]).toMatch(/^SELECT/);

    queries = [];
    await db.prisma.$transaction([db.prisma.user.create({ data: user('a') }), db.prisma.user.count()]);
    expect(queries).toHaveLength(2);

    queries = [];
    await db.prisma.$transaction(async (tx) => {
      await tx.user.create({ data: user('b') });
      await tx.user.count();
    });
    expect(queries).toHaveLength(2);
    expect(queries.join('\n')).not.toMatch(/BEGIN|COMMIT/);
  });

  it('keeps concurrent queries out of a running transaction and rolls back on error', async () => {
    const [inside, ...outside] = await Promise.all([
      db.prisma.$transaction(async (tx) => {
        await tx.user.create({ data: user('a') });
        await new Promise((resolve) => setTimeout(resolve, 50));
        return tx.user.count();
      }),
      ...Array.from({ length: 10 }, () => db.prisma.user.count()),
    ]);
    expect(inside).toBe(1);
    for (const count of outside) expect([0, 1]).toContain(count);

    await expect(
      db.prisma.$transaction(async (tx) => {
        await tx.user.create({ data: user('b') });
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await db.prisma.user.count()).toBe(1);
  });

  it.runIf(testBackend === 'postgres')('prepares statements by name, but plans counts with their values each time', async () => {
    // Sequential queries reuse one pooled connection, whose prepared statements this lists.
    for (let i = 0; i < 6; i++) {
      await db.prisma.user.findMany({ where: { role: 'EDITOR' } });
      await db.prisma.user.count({ where: { role: 'EDITOR' } });
    }
    const prepared = await db.prisma.$queryRaw<{ statement: string }[]>`SELECT statement FROM pg_prepared_statements`;
    const texts = prepared.map((p) => p.statement);
    expect(texts.some((t) => /FROM "public"\."User"/.test(t) && !/COUNT\(/i.test(t))).toBe(true);
    expect(texts.filter((t) => /COUNT\(/i.test(t))).toEqual([]);
  });

  it('reset() empties every table and restarts identities', async () => {
    await db.prisma.user.create({ data: user('a') });
    await db.reset();
    expect(await db.prisma.user.count()).toBe(0);
    expect((await db.prisma.user.create({ data: user('b') })).id).toBe(1);
    expect(await applyMigrations(db)).toEqual([]);
  });
});
