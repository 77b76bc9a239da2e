/**
 * Sign-in throttling across processes: three server processes on
 * one PostgreSQL share their failure counts through Redis (REDIS_URL), with a key prefix of
 * their own per run; CAL_AUTH_FAILURE_LIMIT sets the budget.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';

const url = process.env.TEST_DATABASE_URL;
const procs: ServerProcess[] = [];
afterAll(() => procs.forEach((p) => p.stop()));

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

describe.skipIf(!url || process.env.TEST_BACKEND !== 'postgres')('shared sign-in throttle', () => {
  it('counts failures across three processes through Redis', async () => {
    const env = {
      DATABASE_URL: url!,
      CAL_ADMIN_LOGIN: 'admin',
      CAL_ADMIN_PASSWORD: 'secret-pass',
      REDIS_URL: 'redis://127.0.0.1:6379',
      CAL_REDIS_PREFIX: `cal-test-${randomUUID()}`,
      CAL_AUTH_FAILURE_LIMIT: '4',
      CAL_AUTH_FAILURE_WINDOW_S: '60',
    };
    // The first one migrates; the others start on the migrated database.
    procs.push(await startServerProcess(env));
    procs.push(...(await Promise.all([startServerProcess(env), startServerProcess(env)])));
    const signIn = (p: ServerProcess, password: string) =>
      fetch(`${p.base}/wp-json/cal/events/v1/events`, { headers: { Authorization: basic('admin', password) } });
    // Four wrong passwords, spread over the three processes, use up the shared budget of the address.
    for (let i = 0; i < 4; i++) expect((await signIn(procs[i % 3], 'wrong')).status).toBe(401);
    for (const p of procs) {
      const r = await signIn(p, 'wrong');
      expect(r.status).toBe(429);
      expect(Number(r.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    // Even the right password waits (the address is throttled), on every process.
    expect((await signIn(procs[2], 'secret-pass')).status).toBe(429);
  }, 120_000);
});
