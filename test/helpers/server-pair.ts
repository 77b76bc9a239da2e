import { afterAll, beforeAll } from 'vitest';
import { createPostgresDatabase } from './database.ts';
import { startServerProcess, type ServerProcess } from './process.ts';

/**
 * Two server processes on one fresh PostgreSQL database for the file's tests (started before them,
 * stopped and the database dropped after them). B listens on another change-bus channel than A, so
 * it never hears A's changes: only the shared generation can keep its reads exact. `a` and `b` are
 * set once both listen.
 */
export function useDeafServerPair(name: string, env: Record<string, string>): { a: ServerProcess; b: ServerProcess } {
  const pair = {} as { a: ServerProcess; b: ServerProcess };
  let db: { url: string; drop(): Promise<void> } | undefined;
  beforeAll(async () => {
    db = await createPostgresDatabase();
    pair.a = await startServerProcess({ ...env, DATABASE_URL: db.url, CAL_CHANGES_CHANNEL: `cal_${name}_a_${process.pid}` }); // migrates
    pair.b = await startServerProcess({ ...env, DATABASE_URL: db.url, CAL_CHANGES_CHANNEL: `cal_${name}_b_${process.pid}` });
  }, 300_000);
  afterAll(async () => {
    const procs = [pair.a, pair.b].filter(Boolean);
    for (const p of procs) p.stop();
    await Promise.all(procs.map((p) => p.exited));
    await db?.drop();
  });
  return pair;
}
