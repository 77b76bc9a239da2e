import { randomUUID } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import type { TestProject } from 'vitest/node';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { applyMigrations } from '../../src/db/migrate.ts';

export type TestBackend = 'pglite' | 'postgres';
export type TestDatabase = Database & { reset(): Promise<void> };

export interface TestDatabaseOptions {
  onQuery?: (sql: string) => void;
  /** false leaves the database empty (no tables, no `_prisma_migrations`). */
  migrate?: boolean;
}

declare module 'vitest' {
  export interface ProvidedContext {
    pgliteTemplate: string;
  }
}

/** Set per vitest project (test/vitest.config.ts); scripts outside vitest get PGlite. */
export const testBackend: TestBackend = process.env.TEST_BACKEND === 'postgres' ? 'postgres' : 'pglite';

/**
 * A fresh database for one test file, migrated like the server does at startup. PostgreSQL
 * (TEST_BACKEND=postgres): a new uniquely named database on TEST_DATABASE_URL's server, dropped on
 * close. Otherwise an in-memory PGlite.
 */
export async function createTestDatabase(opts: TestDatabaseOptions = {}): Promise<TestDatabase> {
  const migrate = opts.migrate ?? true;
  let db: Database;
  let drop = async () => {};
  if (testBackend === 'postgres') {
    const created = await createPostgresDatabase();
    drop = created.drop;
    db = await openDatabase(created.url, { onQuery: opts.onQuery }).catch(async (e) => {
      await drop();
      throw e;
    });
  } else {
    const template = migrate ? pgliteTemplate() : undefined;
    const loadDataDir = template ? new Blob([await readFile(template)]) : undefined;
    db = await openDatabase('memory:', { onQuery: opts.onQuery, loadDataDir });
  }
  try {
    // Also on a template copy: proves it is current (and costs a few milliseconds).
    if (migrate) await applyMigrations(db);
  } catch (e) {
    await db.close();
    await drop();
    throw e;
  }

  let tables: string[] | undefined;
  return {
    ...db,
    close: async () => {
      await db.close();
      await drop();
    },
    reset: async () => {
      tables ??= (
        await db.prisma.$queryRaw<{ name: string }[]>`
          SELECT quote_ident(tablename) AS name FROM pg_tables
          WHERE schemaname = current_schema() AND tablename <> '_prisma_migrations'`
      ).map((t) => t.name);
      if (tables.length) await db.prisma.$executeRawUnsafe(`TRUNCATE ${tables.join(', ')} RESTART IDENTITY CASCADE`);
    },
  };
}

/** A new, empty, uniquely named database on TEST_DATABASE_URL's server. */
export async function createPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error('TEST_BACKEND=postgres needs TEST_DATABASE_URL');
  const name = `cal_test_${process.pid}_${randomUUID().slice(0, 8)}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE "${name}"`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.href, drop: () => admin(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

/**
 * The migrated empty PGlite of this run (what `npm run build` makes for the server), for a test that
 * creates an embedded database on disk itself; undefined where globalSetup did not run.
 */
export async function pgliteTemplateImage(): Promise<Blob | undefined> {
  const template = pgliteTemplate();
  return template ? new Blob([await readFile(template)]) : undefined;
}

/** Undefined outside vitest or when globalSetup did not run; the helper then migrates from scratch. */
function pgliteTemplate(): string | undefined {
  try {
    return inject('pgliteTemplate');
  } catch {
    return undefined;
  }
}

let templateFile: string | undefined;

/**
 * vitest globalSetup of the PGlite project: booting PGlite runs initdb (~2 s); loading a dump of an
 * already migrated instance takes about a quarter of that, once per test file.
 */
export async function setup(project: TestProject): Promise<void> {
  const db = await openDatabase('memory:');
  try {
    await applyMigrations(db);
    const dump = await db.pglite!.dumpDataDir('none');
    templateFile = path.join(os.tmpdir(), `cal-events-pglite-${process.pid}.tar`);
    await writeFile(templateFile, Buffer.from(await dump.arrayBuffer()));
    project.provide('pgliteTemplate', templateFile);
  } finally {
    await db.close();
  }
}

export async function teardown(): Promise<void> {
  if (templateFile) await rm(templateFile, { force: true });
}
