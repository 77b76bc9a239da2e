import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrationsDir } from '../../src/db/migrate.ts';
import { createPostgresDatabase, createTestDatabase, testBackend } from '../helpers/database.ts';
import { launchServerProcess, stopServerProcesses, type LaunchedServer } from '../helpers/process.ts';

// Issue 21 item 3: a SIGKILL during the first start (migrations running on an empty database, or
// the embedded database being created) used to leave a database every later start refused. Here
// the first start is killed at instants spread evenly over its measured duration, each time on a
// fresh database, and the next start must come up with the complete schema.

afterEach(stopServerProcesses);

const committed = readdirSync(migrationsDir, { withFileTypes: true })
  .filter((e) => e.isDirectory())
  .map((e) => e.name)
  .sort();

/**
 * What the migrations define, as one comparable value: columns, indexes, constraints, enum
 * labels, functions and triggers of the public schema, and the migration rows.
 */
async function schemaFingerprint(db: Database): Promise<unknown> {
  return db.session(async (s) => {
    const q = async (sql: string) => (await s.query<{ v: string }>(sql)).rows.map((r) => r.v);
    return {
      columns: await q(`SELECT table_name || '.' || column_name || ' ' || data_type || ' ' || is_nullable AS v
        FROM information_schema.columns WHERE table_schema = 'public' ORDER BY 1`),
      indexes: await q(`SELECT indexdef AS v FROM pg_indexes WHERE schemaname = 'public' ORDER BY 1`),
      constraints: await q(`SELECT conrelid::regclass || ' ' || pg_get_constraintdef(oid) AS v FROM pg_constraint
        WHERE connamespace = 'public'::regnamespace ORDER BY 1`),
      enums: await q(`SELECT t.typname || '.' || e.enumlabel AS v FROM pg_enum e JOIN pg_type t ON t.oid = e.enumtypid ORDER BY 1`),
      functions: await q(`SELECT proname AS v FROM pg_proc WHERE pronamespace = 'public'::regnamespace ORDER BY 1`),
      triggers: await q(`SELECT tgname AS v FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`),
      migrations: await q(`SELECT migration_name || ' ' || (finished_at IS NOT NULL) || ' ' || (rolled_back_at IS NOT NULL) AS v
        FROM _prisma_migrations ORDER BY 1`),
    };
  });
}

/** The fingerprint of a database migrated in-process, the way every test database is. */
async function referenceFingerprint(): Promise<unknown> {
  const db = await createTestDatabase();
  try {
    const fingerprint = await schemaFingerprint(db);
    expect((fingerprint as { migrations: string[] }).migrations).toEqual(committed.map((n) => `${n} true false`));
    return fingerprint;
  } finally {
    await db.close();
  }
}

/** Time from launch until the server listens (the first start, database creation and migrations included). */
async function firstStartMs(env: Record<string, string>): Promise<number> {
  const started = performance.now();
  const server = launchServerProcess(env);
  await server.listening;
  const ms = performance.now() - started;
  server.stop();
  await server.exited;
  return ms;
}

/** Launches, SIGKILLs after `ms` (unless it already listens or exited), and waits for the end. */
async function killAfter(env: Record<string, string>, ms: number): Promise<string> {
  const server = launchServerProcess(env);
  const outcome = await Promise.race([
    new Promise<string>((resolve) => setTimeout(() => resolve('killed'), ms)),
    server.listening.then(() => 'listened before the kill', () => 'exited before the kill'),
  ]);
  server.stop();
  await server.exited;
  return outcome;
}

/** The next start must come up and be healthy and able to serve a database read. */
async function expectHealthyStart(env: Record<string, string>, label: string): Promise<LaunchedServer> {
  const server = launchServerProcess(env);
  const base = await server.listening.catch((e: Error) => {
    throw new Error(`${label}: the start after the kill failed: ${e.message}`);
  });
  expect((await fetch(`${base}/healthz`)).status, label).toBe(200);
  expect((await fetch(`${base}/readyz`)).status, label).toBe(200);
  expect((await fetch(`${base}/wp-json/cal/events/v1/events`)).status, label).toBe(200);
  return server;
}

const instants = (count: number, durationMs: number) => Array.from({ length: count }, (_, i) => Math.round(((i + 0.5) * durationMs) / count));

describe.runIf(testBackend === 'postgres')('first start killed at any instant, PostgreSQL', () => {
  it('the next start always finds the migrations applied or not applied, never half', async () => {
    const reference = await referenceFingerprint();
    const measured = await createPostgresDatabase();
    const duration = await firstStartMs({ DATABASE_URL: measured.url }).finally(() => measured.drop());
    const outcomes: string[] = [];
    // 20 kills, evenly spread over the first start's duration, each on a fresh database.
    for (const ms of instants(20, duration)) {
      const fresh = await createPostgresDatabase();
      try {
        const env = { DATABASE_URL: fresh.url };
        outcomes.push(`${ms} ms: ${await killAfter(env, ms)}`);
        const server = await expectHealthyStart(env, `killed after ${ms} ms`);
        server.stop();
        await server.exited;
        const db = await openDatabase(fresh.url);
        try {
          expect(await schemaFingerprint(db), `killed after ${ms} ms`).toEqual(reference);
        } finally {
          await db.close();
        }
      } finally {
        await fresh.drop();
      }
    }
    console.log(`first start ${Math.round(duration)} ms; kills: ${outcomes.join(', ')}`);
    // The start's duration varies with the machine's load: most kills must still have hit it.
    expect(outcomes.filter((o) => o.endsWith(': killed')).length).toBeGreaterThanOrEqual(5);
  }, 1_800_000);
});

describe.runIf(testBackend === 'pglite')('first start killed at any instant, embedded PGlite', () => {
  it('the next start finds a working database in CAL_DATA_DIR', async () => {
    const reference = await referenceFingerprint();
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'cal-killed-'));
    try {
      const duration = await firstStartMs({ CAL_DATA_DIR: path.join(tmp, 'measured') });
      const outcomes: string[] = [];
      // 10 kills rather than 20: each round creates an embedded database twice (initdb and the
      // migrations in WebAssembly), several seconds each on the shared 2-core machine.
      for (const ms of instants(10, duration)) {
        const env = { CAL_DATA_DIR: path.join(tmp, `killed-${ms}`) };
        outcomes.push(`${ms} ms: ${await killAfter(env, ms)}`);
        const server = await expectHealthyStart(env, `killed after ${ms} ms`);
        server.stop();
        await server.exited;
        const db = await openDatabase(undefined, { dataDir: env.CAL_DATA_DIR });
        try {
          expect(await schemaFingerprint(db), `killed after ${ms} ms`).toEqual(reference);
        } finally {
          await db.close();
        }
      }
      console.log(`first start ${Math.round(duration)} ms; kills: ${outcomes.join(', ')}`);
      expect(outcomes.filter((o) => o.endsWith(': killed')).length).toBeGreaterThanOrEqual(3);
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, 1_800_000);
});
