import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { launchServerProcess, stopServerProcesses } from '../helpers/process.ts';
import { subscribeSse } from '../helpers/sse.ts';

afterEach(stopServerProcesses);

// Budgets from measured starts, not an idle machine's: a server process through tsx's loader
// takes 3–5 s alone and 30–70 s on the shared 2-core machine under load; at a load average of ~30
// the former 30 s and 60 s budgets timed out.
const START_BUDGET_MS = 180_000;
const FAILED_START_BUDGET_MS = 120_000;

// Backend-independent (it starts its own embedded database): runs in the PGlite project only.
describe.skipIf(process.env.TEST_BACKEND === 'postgres')('server process', () => {
  it('serves /healthz, /readyz and /graphql on the embedded database, and stops cleanly on SIGTERM', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'cal-proc-'));
    try {
      // A variable earlier versions read (the presented records' life) is named in a warning, not ignored silently.
      const s = launchServerProcess({ CAL_DATA_DIR: dataDir, CAL_ADMIN_LOGIN: 'admin', CAL_ADMIN_PASSWORD: 'secret-pass', CAL_PRESENTED_TTL_S: '0' });
      const base = await s.listening;
      expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
      expect(s.stdout()).toContain('CAL_PRESENTED_TTL_S is no longer read');
      expect(await (await fetch(`${base}/readyz`)).json()).toMatchObject({ status: 'ok', database: 'pglite-dir' });
      const gql = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Basic ${Buffer.from('admin:secret-pass').toString('base64')}` },
        body: JSON.stringify({ query: '{ me { login role } }' }),
      });
      expect(await gql.json()).toEqual({ data: { me: { login: 'admin', role: 'ADMINISTRATOR' } } });
      // Logs are structured JSON lines.
      const firstLine = s.stdout().split('\n').find((l) => l.startsWith('{'))!;
      expect(JSON.parse(firstLine)).toHaveProperty('level');
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      expect(s.stdout()).toContain('"msg":"stopped"');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  }, START_BUDGET_MS);

  it('drains on SIGTERM with CAL_DRAIN_DELAY_MS: /readyz answers 503 while requests are still served, then it stops', async () => {
    const s = launchServerProcess({ DATABASE_URL: 'memory:', CAL_DRAIN_DELAY_MS: '4000' });
    const base = await s.listening;
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    const signalled = performance.now();
    s.child.kill('SIGTERM');
    // The signal is handled asynchronously: readiness turns within a moment.
    let ready: Response;
    do ready = await fetch(`${base}/readyz`);
    while (ready.status === 200 && performance.now() - signalled < 3_000);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'draining', database: 'pglite-memory' });
    // A load balancer still sending requests meanwhile gets answers, not refused connections.
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/wp-json/cal/events/v1/events`)).status).toBe(200);
    expect(await s.exited).toBe(0);
    expect(performance.now() - signalled).toBeGreaterThanOrEqual(4_000);
    expect(s.stdout()).toContain('draining: /readyz answers 503');
  }, START_BUDGET_MS);

  it('ends subscriptions over SSE on SIGTERM instead of waiting the shutdown timeout for them', async () => {
    const s = launchServerProcess({ DATABASE_URL: 'memory:', CAL_SHUTDOWN_TIMEOUT_MS: '120000' });
    const base = await s.listening;
    const sub = await subscribeSse(base, 'subscription { eventChanged { action } }');
    try {
      const signalled = performance.now();
      s.child.kill('SIGTERM');
      expect(await s.exited).toBe(0);
      // Before, the open stream held the process for the whole timeout (here 120 s).
      expect(performance.now() - signalled).toBeLessThan(60_000);
      expect(s.stdout()).toContain('subscriptions over SSE ended');
    } finally {
      sub.close();
    }
  }, START_BUDGET_MS);

  it('npm start runs the compiled server as its direct child, and SIGTERM to npm stops it gracefully', async () => {
    const npm = launchServerProcess({ DATABASE_URL: 'memory:' }, ['npm', 'start', '--silent']);
    const { child, exited } = npm;
    const base = await npm.listening;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    // The compiled server finds every file it reads at run time (templates, styles, operations).
    for (const page of ['/', '/docs', '/events.ics', '/wp-json/cal/events/v1/events']) {
      expect((await fetch(`${base}${page}`)).status, page).toBe(200);
    }
    // No shell or TypeScript loader in between: npm's child is node running src/start.mjs, which
    // imports dist/ in the same process.
    const server = execFileSync('ps', ['-o', 'pid=,args=', '--ppid', String(child.pid)], { encoding: 'utf8' }).trim();
    expect(server).toMatch(/^\d+ node (--\S+ )*src\/start\.mjs$/);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(npm.stdout()).toContain('"msg":"stopped"');
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();
    expect(() => process.kill(Number(server.split(' ')[0]), 0)).toThrow();
  }, 240_000);

  it.each([
    [{ DATABASE_URL: 'mysql://localhost/x' }, /^cal-events: DATABASE_URL: unsupported scheme "mysql:"/],
    [{ DATABASE_URL: 'postgres://postgres@127.0.0.1:1/x' }, /^cal-events: cannot connect to PostgreSQL at 127\.0\.0\.1:1/],
    [{ PORT: 'eighty' }, /^cal-events: invalid configuration: PORT: /],
    [{ CAL_TIMEZONE: 'Mars/Olympus' }, /^cal-events: invalid configuration: CAL_TIMEZONE: /],
  ])('ends startup with one line and a non-zero exit for %j', async (env, message) => {
    const s = launchServerProcess({ DATABASE_URL: 'memory:', ...env });
    expect(await s.exited).toBe(1);
    const stderr = s.stderr();
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(message);
  }, FAILED_START_BUDGET_MS);
});
