/**
 * Abusive requests against the real server process: a big `nodes` list, a cyclic deep
 * query, 1,000 aliases and a huge body, sent concurrently with normal traffic. The normal traffic
 * keeps being served and the process survives. (Latency figures: test/bench/abuse.ts.)
 */
import { afterAll, describe, expect, it } from 'vitest';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { abusiveRequests } from '../bench/abuse-requests.ts';

let proc: ServerProcess | undefined;
afterAll(() => proc?.stop());

describe.skipIf(process.env.TEST_BACKEND === 'postgres')('abuse', () => {
  it('keeps serving normal traffic while abusive requests arrive, and survives', async () => {
    proc = await startServerProcess({ DATABASE_URL: 'memory:', CAL_ADMIN_LOGIN: 'admin', CAL_ADMIN_PASSWORD: 'secret-pass' });
    const base = proc.base;
    const abuse = abusiveRequests(base);
    let stop = false;
    const normal: number[] = [];
    const traffic = (async () => {
      while (!stop) {
        const [health, list] = await Promise.all([fetch(`${base}/healthz`), fetch(`${base}/wp-json/cal/events/v1/events`)]);
        normal.push(health.status, list.status);
        await list.arrayBuffer();
      }
    })();
    const statuses = await Promise.all(
      Array.from({ length: 3 }, () => abuse.map(async (a) => (await a.send()).status)).flat(),
    );
    stop = true;
    await traffic;
    expect(statuses.every((s) => s >= 200 && s < 500)).toBe(true);
    expect(statuses.filter((s) => s >= 400).length).toBeGreaterThanOrEqual(statuses.length - 3); // nodes answers 200 with an error
    expect(normal.length).toBeGreaterThan(0);
    expect(normal.every((s) => s === 200)).toBe(true);
    expect(proc.child.exitCode).toBeNull();
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
  }, 120_000);
});
