import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/services/context.ts';
import { openDatabase } from '../../src/db/database.ts';
import { defaultSiteSettings } from '../../src/server/config.ts';
import { importFromSource } from '../../src/transfer/import.ts';
import { createProgress } from '../../src/transfer/progress.ts';
import { pgliteTemplateImage, testBackend } from '../helpers/database.ts';
import { ADMIN_LOGIN, passwordOf, startTestServer, type TestServer } from '../helpers/server.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const EVENTS = 120;
let source: TestServer;
let proxy: http.Server;
let proxyBase: string;
/** Decides, per proxied request, an answer of its own (status, headers) instead of forwarding; may act on the request. */
let intercept: (url: string) => { status: number; headers?: Record<string, string> } | void = () => {};
const seen: string[] = [];

beforeAll(async () => {
  source = await startTestServer({ now: null });
  const venue = (await source.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'Hall' } })).body.id;
  for (let i = 1; i <= EVENTS; i++) {
    const day = String((i % 28) + 1).padStart(2, '0');
    const r = await source.api('/events', {
      method: 'POST',
      as: 'admin',
      body: { title: `Event ${i}`, start_date: `2026-02-${day} 10:00`, end_date: `2026-02-${day} 12:00`, venue, categories: [`Cat ${i % 3}`] },
    });
    expect(r.status).toBe(201);
  }
  // A proxy in front of the source that can fail requests.
  proxy = http.createServer(async (req, res) => {
    seen.push(req.url!);
    const own = intercept(req.url!);
    if (own) {
      res.writeHead(own.status, { 'Content-Type': 'application/json', ...own.headers });
      return res.end(JSON.stringify({ code: 'fail', message: 'injected', data: { status: own.status } }));
    }
    const upstream = await fetch(source.base + req.url, { headers: { authorization: req.headers.authorization ?? '' } });
    res.writeHead(upstream.status, Object.fromEntries([...upstream.headers].filter(([k]) => !['content-encoding', 'content-length', 'transfer-encoding'].includes(k))));
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  proxyBase = `http://127.0.0.1:${(proxy.address() as AddressInfo).port}/wp-json/cal/events/v1`;
}, 300_000);
afterAll(async () => {
  proxy?.closeAllConnections();
  await new Promise<void>((resolve) => (proxy ? proxy.close(() => resolve()) : resolve()));
  await source?.close();
});

describe('import through an unreliable source', { timeout: 300_000 }, () => {
  it('completes when one page answers 500 and another 429 with Retry-After', async () => {
    const target = await startTestServer({ now: null });
    try {
      const failed = new Set<string>();
      intercept = (url) => {
        const once = (key: string) => url.includes(key) && !failed.has(key) && failed.add(key);
        if (once('/events?') && url.includes('page=2')) return { status: 500 };
        if (once('/venues?')) return { status: 429, headers: { 'Retry-After': '1' } };
      };
      const started = Date.now();
      const ctx = createContext({ prisma: target.db.prisma, settings: defaultSiteSettings });
      const summary = await importFromSource(ctx, { from: proxyBase, login: ADMIN_LOGIN, password: passwordOf(ADMIN_LOGIN), source: { backoffMs: 20 } }, createProgress({ write: () => true }, true));
      expect(failed.size).toBe(2);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1000); // Retry-After: 1 honoured
      expect(summary.failures).toEqual([]);
      expect(summary.kinds.events.created).toBe(EVENTS);
      expect(summary.kinds.venues.created).toBe(1);
      expect(await target.db.prisma.event.count()).toBe(EVENTS);
    } finally {
      intercept = () => {};
      await target.close();
    }
  });

  // The CLI imports into an embedded database in a temporary directory (DATABASE_URL unset) on
  // either project: on PostgreSQL this would repeat the very same work (~60 s), as in cli.test.ts.
  it.skipIf(testBackend === 'postgres')('resumes after being killed mid-import: no duplicates, nothing missing', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'cal-resume-'));
    const run = (onChild?: (c: ChildProcess) => void) =>
      new Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }>((resolve, reject) => {
        const env: NodeJS.ProcessEnv = { ...process.env, CAL_DATA_DIR: dataDir };
        delete env.DATABASE_URL;
        const child = spawn(
          process.execPath,
          ['--import', 'tsx', path.join(root, 'src/cli/main.ts'), 'import', '--from', proxyBase, '--login', ADMIN_LOGIN, '--password', passwordOf(ADMIN_LOGIN), '--json', '--concurrency', '1'],
          { cwd: root, env },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', (d) => (stdout += d));
        child.stderr.on('data', (d) => (stderr += d));
        child.on('error', reject);
        child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
        onChild?.(child);
      });
    try {
      // First run: an administrator, then killed once the third page of events is asked for: with
      // --concurrency 1 the importer fetches page N+1 while it writes page N, so by then page 1
      // (50 events) is written.
      // From the migrated empty database, as the built CLI does (not initdb and every migration).
      const db = await openDatabase(undefined, { dataDir, loadDataDir: await pgliteTemplateImage() });
      const { applyMigrations } = await import('../../src/db/migrate.ts');
      await applyMigrations(db);
      const { ensureAdmin } = await import('../../src/services/users.ts');
      await ensureAdmin(db.prisma, 'owner', 'owner password');
      await db.close();

      let child: ChildProcess | undefined;
      intercept = (url) => {
        if (url.includes('/events?') && url.includes('page=3')) child?.kill('SIGKILL');
      };
      const killed = await run((c) => (child = c));
      expect(killed.signal).toBe('SIGKILL');
      intercept = () => {};

      const resumed = await run();
      expect(resumed.code, resumed.stderr).toBe(0);
      const summary = JSON.parse(resumed.stdout);
      expect(summary.kinds.events.failed).toBe(0);
      expect(summary.kinds.events.unchanged).toBeGreaterThanOrEqual(1);
      expect(summary.kinds.events.created + summary.kinds.events.unchanged).toBe(EVENTS);

      const again = JSON.parse((await run()).stdout);
      expect(again.kinds.events).toEqual({ created: 0, updated: 0, unchanged: EVENTS, skipped: 0, failed: 0 });

      const check = await openDatabase(undefined, { dataDir });
      try {
        const events = await check.prisma.event.findMany({ select: { id: true, title: true } });
        expect(events.length).toBe(EVENTS);
        expect(new Set(events.map((e) => e.title)).size).toBe(EVENTS);
        const sourceIds = (await source.db.prisma.event.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((e) => e.id);
        expect(events.map((e) => e.id).sort((a, b) => a - b)).toEqual(sourceIds);
      } finally {
        await check.close();
      }
    } finally {
      intercept = () => {};
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
