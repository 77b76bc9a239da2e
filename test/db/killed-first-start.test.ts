import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../src/db/database.ts';
import { migrationsDir } from '../../src/db/migrate.ts';
import { createPostgresDatabase, createTestDatabase, testBackend } from '../helpers/database.ts';
import { launchServerProcess, stopServerProcesses, type LaunchedServer } from '../helpers/process.ts';

// A SIGKILL during the first start (migrations running on an empty database, or
// the embedded database being created) used to leave a database every later start refused. Here
// the first start is killed inside the phases where a kill can hurt, each time on a fresh
// database, and the next start must come up with the complete schema.
//
// Where the kills go. The server prints a line just before it creates an embedded
// database ("database: creating the embedded database at …") and one just before it applies
// migrations ("applying pending migrations"), and "migrations applied" after the last one. Before
// those lines a start only loads modules (~9 s of a ~9.5 s start on PostgreSQL under load, where
// the migrations take ~0.25 s): kills spread over the whole start, as before, landed there 19
// times out of 20 and tested nothing. Each kill is now timed from the line that opens its phase,
// at instants spread evenly over that phase's measured length, so nearly all of them interrupt
// the migrations (PostgreSQL; PGlite: the creation and the migrations).
//
// Why it still catches a non-atomic migration: the migration phase is almost entirely migration
// scripts running (9 of them, back to back). Were a script committed in parts (statement by
// statement) or its `_prisma_migrations` row written in a separate step, a kill inside a script
// would leave part of it behind: the next start would fail re-running it ("… already exists"), or
// come up with a schema whose fingerprint differs from the reference. Each kill that lands inside
// the phase is such a chance, and the test requires several of them (inPhaseMin), so a
// non-atomic implementation would pass only if every one of those kills fell in the few
// milliseconds between two scripts. (Checked by hand: with applyOne running a script's
// statements one by one outside a transaction, the PostgreSQL test fails on the first kill.)
// The instants follow the measured phase length, shrunk to the shortest phase any later start
// showed, so a machine that got quieter since the measurement still gets its kills inside.

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

/** The log messages that open and close the phases of a first start (pino's `msg`). */
const CREATING = /^database: creating the embedded database/;
const APPLYING = /^applying pending migrations$/;
const APPLIED = /^migrations applied$/;

/**
 * Starts a server process and notes when (performance.now() in this process) each of its log
 * lines arrived, by message; `onLine` sees each message as it arrives.
 */
function launchWatched(env: Record<string, string>, onLine: (msg: string) => void = () => {}) {
  const server = launchServerProcess(env);
  const seen: { msg: string; at: number }[] = [];
  let pending = '';
  server.child.stdout!.on('data', (d: Buffer) => {
    const at = performance.now();
    const lines = (pending + String(d)).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      let msg: unknown;
      try {
        msg = (JSON.parse(line) as { msg?: unknown }).msg;
      } catch {
        continue;
      }
      if (typeof msg !== 'string') continue;
      seen.push({ msg, at });
      onLine(msg);
    }
  });
  const at = (re: RegExp) => seen.find((l) => re.test(l.msg))?.at;
  return { server, at };
}

/** Length in ms between the first lines matching `from` and `to`; undefined unless both came. */
function span(at: (re: RegExp) => number | undefined, from: RegExp, to: RegExp): number | undefined {
  const a = at(from);
  const b = at(to);
  return a === undefined || b === undefined ? undefined : b - a;
}

/** A complete first start; returns when each log line arrived. */
async function measuredFirstStart(env: Record<string, string>) {
  const { server, at } = launchWatched(env);
  await server.listening;
  server.stop();
  await server.exited;
  return at;
}

interface Phase {
  name: string;
  from: RegExp;
  to: RegExp;
  /** Shortest length seen so far (ms): the measurement, then every later start that went through. */
  length: number;
}

/**
 * Launches and SIGKILLs `fraction` of the phase's length after the line that opens it; waits for
 * the end. The outcome says whether the kill landed inside the phase (its closing line never came).
 */
async function killInPhase(env: Record<string, string>, phase: Phase, fraction: number): Promise<string> {
  const delay = Math.round(fraction * phase.length);
  let timer: NodeJS.Timeout | undefined;
  const { server, at } = launchWatched(env, (msg) => {
    if (timer === undefined && phase.from.test(msg)) timer = setTimeout(server.stop, delay);
  });
  const listened = await server.listening.then(
    () => true,
    () => false,
  );
  server.stop();
  await server.exited;
  clearTimeout(timer);
  const seen = span(at, phase.from, phase.to);
  if (seen !== undefined) phase.length = Math.min(phase.length, seen);
  const label = `${phase.name} +${delay} ms`;
  if (at(phase.from) === undefined) return `${label}: ${listened ? 'listened' : 'exited'} without opening the phase`;
  if (listened) return `${label}: listened before the kill`;
  return `${label}: ${at(phase.to) === undefined ? 'killed in the phase' : 'killed after the phase'}`;
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

/** `count` fractions spread evenly over (0, 1). */
const fractions = (count: number) => Array.from({ length: count }, (_, i) => (i + 0.5) / count);

const inPhase = (outcomes: string[]) => outcomes.filter((o) => o.endsWith(': killed in the phase')).length;

/**
 * Budget per start: from launch to listening took 9.4 s (PostgreSQL) and 13.7 s (PGlite, initdb
 * and migrations included) at load average 10 on the shared 2-core machine; at load average 17 the
 * PGlite rounds averaged 35 s per start. Each kill costs two starts (the killed one, the next one),
 * plus the measured start; 90 s a start leaves room for a CPU-heavy job beside the suite.
 */
const START_BUDGET_MS = 90_000;
/** A budget for `kills` rounds and the measured start. */
const budget = (kills: number) => (2 * kills + 1) * START_BUDGET_MS;
/** Kills that must land inside their phase (the others landed after it: the start was quicker). */
const inPhaseMin = (kills: number) => Math.ceil(0.4 * kills);

/**
 * PostgreSQL: 10 kills in the migrations. PGlite: 6, 3 while the database is created and 3 in the
 * migrations; each round there runs initdb in WebAssembly again (the next start after a kill in the
 * creation starts over), ~20 s under load, and the migrations are the same code as on PostgreSQL,
 * where the 10 kills go.
 */
const PG_KILLS = 10;
const PGLITE_KILLS_PER_PHASE = 3;

describe.runIf(testBackend === 'postgres')('first start killed at any instant, PostgreSQL', () => {
  it('the next start always finds the migrations applied or not applied, never half', async () => {
    const reference = await referenceFingerprint();
    const measured = await createPostgresDatabase();
    const at = await measuredFirstStart({ DATABASE_URL: measured.url }).finally(() => measured.drop());
    const length = span(at, APPLYING, APPLIED);
    expect(length, 'the first start printed "applying pending migrations", then "migrations applied"').toBeGreaterThan(0);
    const migrations: Phase = { name: 'migrations', from: APPLYING, to: APPLIED, length: length! };
    const outcomes: string[] = [];
    for (const fraction of fractions(PG_KILLS)) {
      const fresh = await createPostgresDatabase();
      try {
        const env = { DATABASE_URL: fresh.url };
        const outcome = await killInPhase(env, migrations, fraction);
        outcomes.push(outcome);
        const server = await expectHealthyStart(env, outcome);
        server.stop();
        await server.exited;
        const db = await openDatabase(fresh.url);
        try {
          expect(await schemaFingerprint(db), outcome).toEqual(reference);
        } finally {
          await db.close();
        }
      } finally {
        await fresh.drop();
      }
    }
    console.log(`migrations took ${Math.round(length!)} ms in the measured start; kills: ${outcomes.join(', ')}`);
    expect(inPhase(outcomes), outcomes.join('\n')).toBeGreaterThanOrEqual(inPhaseMin(PG_KILLS));
  }, budget(PG_KILLS));
});

describe.runIf(testBackend === 'pglite')('first start killed at any instant, embedded PGlite', () => {
  it('the next start finds a working database in CAL_DATA_DIR', async () => {
    const reference = await referenceFingerprint();
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'cal-killed-'));
    try {
      const at = await measuredFirstStart({ CAL_DATA_DIR: path.join(tmp, 'measured') });
      const creationLength = span(at, CREATING, APPLYING);
      const migrationLength = span(at, APPLYING, APPLIED);
      expect(creationLength, 'the first start printed "creating the embedded database", then "applying pending migrations"').toBeGreaterThan(0);
      // Running from source there is no prebuilt image: the new database is migrated by the start.
      expect(migrationLength, '"applying pending migrations", then "migrations applied"').toBeGreaterThan(0);
      // Kills while the database is created (initdb, checkpoint, reopen), as many in the migrations.
      const phases: Phase[] = [
        { name: 'creation', from: CREATING, to: APPLYING, length: creationLength! },
        { name: 'migrations', from: APPLYING, to: APPLIED, length: migrationLength! },
      ];
      const outcomes: string[] = [];
      for (const phase of phases) {
        for (const fraction of fractions(PGLITE_KILLS_PER_PHASE)) {
          const env = { CAL_DATA_DIR: path.join(tmp, `killed-${outcomes.length}`) };
          const outcome = await killInPhase(env, phase, fraction);
          outcomes.push(outcome);
          const server = await expectHealthyStart(env, outcome);
          server.stop();
          await server.exited;
          const db = await openDatabase(undefined, { dataDir: env.CAL_DATA_DIR });
          try {
            expect(await schemaFingerprint(db), outcome).toEqual(reference);
          } finally {
            await db.close();
          }
        }
      }
      console.log(
        `creation ${Math.round(creationLength!)} ms, migrations ${Math.round(migrationLength!)} ms in the measured start; kills: ${outcomes.join(', ')}`,
      );
      expect(inPhase(outcomes), outcomes.join('\n')).toBeGreaterThanOrEqual(inPhaseMin(outcomes.length));
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }, budget(2 * PGLITE_KILLS_PER_PHASE));
});
