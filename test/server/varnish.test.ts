import { mkdtempSync, rmSync } from 'node:fs';
import { createServer as createHttpServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../helpers/database.ts';
import { freePort, startServerProcess, stopServerProcesses, type ServerProcess } from '../helpers/process.ts';
import { subscribeSse } from '../helpers/sse.ts';
import { subscribeWs, wsClient } from '../helpers/ws.ts';
import { startVarnish, varnishMissing, type Varnish } from '../helpers/varnish.ts';

// The shared cache in front: Debian's Varnish with the xkey vmod and the shipped VCL
// (deploy/varnish/cal-events.vcl) before a real server process whose CAL_PURGE_URL points at it.
// Reads are hits the second time; after a REST write or a GraphQL mutation — through this process
// or, on PostgreSQL, through a second one — the next read through Varnish (calendar views included) shows the change;
// signed-in requests, and pages a post-password cookie opened, are never shared. Then the purges themselves: sent by the process that
// committed the change (not by every process that hears of it), and a proxy refusing them never
// fails a write. Needs /usr/sbin/varnishd and varnish-modules (.ci/run installs them); skips,
// saying so, without them. The two-process parts need PostgreSQL (the postgres project).

const NS = '/wp-json/cal/events/v1';
const ADMIN = { login: 'admin', password: 'varnish-pass' };
const auth = `Basic ${Buffer.from(`${ADMIN.login}:${ADMIN.password}`).toString('base64')}`;
const onPostgres = process.env.TEST_BACKEND === 'postgres';
const WINDOW = 'start_date=2026-01-01&end_date=2035-12-31';

const missing = varnishMissing();
if (missing) console.warn(`test/server/varnish: skipped: ${missing}`);

interface Answer {
  status: number;
  body: any;
  headers: Headers;
  hit: boolean;
}

async function get(base: string, url: string, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(`${base}${url}`, { headers });
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // pages and feeds
  }
  return { status: res.status, body, headers: res.headers, hit: res.headers.get('x-cache') === 'HIT' };
}

async function write(base: string, url: string, body: unknown, method = 'POST'): Promise<any> {
  const res = await fetch(`${base}${url}`, { method, headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = await res.json();
  expect(res.status, JSON.stringify(json)).toBeLessThan(300);
  return json;
}

async function mutate(base: string, query: string, variables: Record<string, unknown>): Promise<any> {
  const json = await write(`${base}`, '/graphql', { query, variables });
  expect(json.errors).toBeUndefined();
  return json.data;
}

const eventBody = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: '2031-05-01 19:00:00',
  end_date: '2031-05-01 21:00:00',
  status: 'publish',
  ...extra,
});

/**
 * A read through Varnish until it is a hit: the second read, unless the repeated purge of an earlier
 * write (src/server/purge.ts, 2 s after it) fell between the two.
 */
async function warm(base: string, url: string): Promise<Answer> {
  await get(base, url);
  for (let i = 0; ; i++) {
    const again = await get(base, url);
    expect(again.status).toBe(200);
    if (again.hit) return again;
    expect(i, `${url} is a hit the second time (or the third, after a repeated purge)`).toBeLessThan(2);
  }
}

describe.skipIf(missing !== null)('Varnish in front (deploy/varnish/cal-events.vcl)', { timeout: 300_000 }, () => {
  let varnish: Varnish;
  let a: ServerProcess;
  let env: Record<string, string>;
  let dataDir: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;

  beforeAll(async () => {
    const port = await freePort();
    env = { CAL_ADMIN_LOGIN: ADMIN.login, CAL_ADMIN_PASSWORD: ADMIN.password, CAL_PURGE_URL: `http://127.0.0.1:${port}/` };
    if (onPostgres) {
      const db = await createPostgresDatabase();
      env.DATABASE_URL = db.url;
      dropDatabase = db.drop;
    } else {
      dataDir = mkdtempSync(path.join(tmpdir(), 'cal-varnish-data-'));
      env.CAL_DATA_DIR = dataDir;
    }
    a = await startServerProcess(env);
    varnish = await startVarnish(port, a.base);
  });
  afterAll(async () => {
    await varnish?.stop();
    stopServerProcesses();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase?.().catch(() => {});
  });

  it('a read is a hit the second time, REST, GraphQL GET, pages and feeds, each naming what it holds', async () => {
    const venue = await write(a.base, `${NS}/venues`, { venue: 'Harbour Hall' });
    const category = await write(a.base, `${NS}/categories`, { name: 'Harbour' });
    const event = await write(a.base, `${NS}/events`, eventBody('Harbour Night', { venue: venue.id, categories: [category.id] }));

    const first = await get(varnish.base, `${NS}/events/${event.id}`);
    expect(first.status).toBe(200);
    expect(first.hit).toBe(false);
    expect(first.headers.get('cache-control')).toBe('public, max-age=0, s-maxage=3600');
    const keys = first.headers.get('surrogate-key')!.split(' ');
    expect(keys).toEqual(expect.arrayContaining([`event-${event.id}`, `venue-${venue.id}`, `category-${category.id}`]));
    expect(first.headers.get('xkey')).toBeNull(); // the cache's own business
    const second = await get(varnish.base, `${NS}/events/${event.id}`);
    expect(second.hit).toBe(true);
    expect(second.body).toEqual(first.body);

    const list = await warm(varnish.base, `${NS}/events?${WINDOW}`);
    expect(list.headers.get('surrogate-key')!.split(' ')).toEqual(expect.arrayContaining(['events-list', `event-${event.id}`, `venue-${venue.id}`]));
    const query = encodeURIComponent(`{ venue(id: ${venue.id}) { name } events(perPage: 5) { nodes { title } } }`);
    const graphql = await warm(varnish.base, `/graphql?query=${query}`);
    expect(graphql.headers.get('surrogate-key')!.split(' ')).toEqual(expect.arrayContaining([`venue-${venue.id}`, 'events-list']));
    await warm(varnish.base, `/event/${first.body.slug}/`);
    await warm(varnish.base, `/events.ics?${WINDOW}`);
    // A language variant of the REST API is its own cached answer, tagged the same way.
    const fr = await warm(varnish.base, `/fr${NS}/events/${event.id}`);
    expect(fr.headers.get('surrogate-key')).toContain(`event-${event.id}`);
  });

  it('after a REST write the next read through Varnish shows it: the record, lists, pages, feeds', async () => {
    const event = await write(a.base, `${NS}/events`, eventBody('Before REST'));
    const one = `${NS}/events/${event.id}`;
    await warm(varnish.base, one);
    await warm(varnish.base, `${NS}/events?${WINDOW}`);
    await warm(varnish.base, `/event/${event.slug}/`);
    await warm(varnish.base, `/events.ics?${WINDOW}`);

    await write(a.base, one, { title: 'After REST' });
    expect((await get(varnish.base, one)).body.title).toBe('After REST');
    expect((await get(varnish.base, `${NS}/events?${WINDOW}`)).body.events.map((e: { title: string }) => e.title)).toContain('After REST');
    expect((await get(varnish.base, `/event/${event.slug}/`)).body).toContain('After REST');
    expect((await get(varnish.base, `/events.ics?${WINDOW}`)).body).toContain('After REST');

    // A new event joins every cached list (the list family is purged).
    await write(a.base, `${NS}/events`, eventBody('Newcomer'));
    expect((await get(varnish.base, `${NS}/events?${WINDOW}`)).body.events.map((e: { title: string }) => e.title)).toContain('Newcomer');
  });

  it('a calendar view (month, day) is a hit the second time and shows a REST write at once: a changed title, a new event', async () => {
    // A day of its own (the other tests' events share 2031-05-01: a month cell shows three).
    const june = { start_date: '2031-06-10 19:00:00', end_date: '2031-06-10 21:00:00' };
    const event = await write(a.base, `${NS}/events`, eventBody('Month before', june));
    const views = ['/events/2031-06/', '/events/2031-06-10/'];
    for (const view of views) {
      const cached = await warm(varnish.base, view);
      expect(cached.body).toContain('Month before');
      expect(cached.headers.get('surrogate-key')!.split(' ')).toEqual(expect.arrayContaining(['events-list', `event-${event.id}`]));
    }
    await write(a.base, `${NS}/events/${event.id}`, { title: 'Month after' });
    for (const view of views) {
      const read = await get(varnish.base, view);
      expect(read.body, view).toContain('Month after');
      expect(read.body, view).not.toContain('Month before');
    }
    // A new event on a day the views show joins them (the list family is purged).
    for (const view of views) await warm(varnish.base, view);
    await write(a.base, `${NS}/events`, eventBody('Month newcomer', june));
    for (const view of views) expect((await get(varnish.base, view)).body, view).toContain('Month newcomer');
  });

  it('after a GraphQL mutation of a venue, events at that venue show it through Varnish', async () => {
    const venue = await write(a.base, `${NS}/venues`, { venue: 'Old Hall' });
    const event = await write(a.base, `${NS}/events`, eventBody('At the hall', { venue: venue.id }));
    const one = `${NS}/events/${event.id}`;
    expect((await warm(varnish.base, one)).body.venue.venue).toBe('Old Hall');
    const query = `/graphql?query=${encodeURIComponent(`{ event(id: ${event.id}) { title venues { name } } }`)}`;
    expect((await warm(varnish.base, query)).body.data.event.venues[0].name).toBe('Old Hall');

    await mutate(a.base, 'mutation($id: ID) { updateVenue(id: $id, input: { name: "New Hall" }) { __typename } }', { id: venue.id });
    expect((await get(varnish.base, one)).body.venue.venue).toBe('New Hall');
    expect((await get(varnish.base, query)).body.data.event.venues[0].name).toBe('New Hall');
  });

  it('signed-in requests are never shared, and never see or leave their answers in the cache', async () => {
    const draft = await write(a.base, `${NS}/events`, eventBody('Secret draft', { status: 'draft' }));
    const list = `${NS}/events?${WINDOW}&status=draft`;
    const anonymous = await warm(varnish.base, `${NS}/events?${WINDOW}`);
    expect(anonymous.body.events.map((e: { id: number }) => e.id)).not.toContain(draft.id);
    for (let i = 0; i < 2; i++) {
      const admin = await get(varnish.base, list, { authorization: auth });
      expect(admin.hit).toBe(false);
      expect(admin.headers.get('cache-control')).not.toMatch(/public|s-maxage/);
      expect(admin.body.events.map((e: { id: number }) => e.id)).toContain(draft.id);
      const own = await get(varnish.base, `${NS}/events/${draft.id}`, { authorization: auth });
      expect(own.hit).toBe(false);
      expect(own.body.title).toBe('Secret draft');
    }
    expect((await get(varnish.base, `${NS}/events/${draft.id}`)).status).not.toBe(200);
    const after = await get(varnish.base, `${NS}/events?${WINDOW}`);
    expect(after.body.events.map((e: { id: number }) => e.id)).not.toContain(draft.id);
    // Wrong credentials are passed too (a 401, never a cached answer).
    expect((await get(varnish.base, `${NS}/events?${WINDOW}`, { authorization: 'Basic eDp5' })).status).toBe(401);
  });

  // The post password is set in the database, as the WordPress import writes it: PostgreSQL only
  // (the embedded database is the server process's own).
  it.skipIf(!onPostgres)('a protected event: its password form is shared, the page its cookie opens never is', async () => {
    const event = await write(a.base, `${NS}/events`, eventBody('Closed Night', { start_date: '2031-07-01 19:00:00', end_date: '2031-07-01 21:00:00', description: 'Backstage only.' }));
    const client = new pg.Client({ connectionString: env.DATABASE_URL });
    await client.connect();
    await client.query('UPDATE "Event" SET password = $1 WHERE id = $2', ['sesame', event.id]);
    await client.end();
    const page = `/event/${event.slug}/`;
    const shut = await warm(varnish.base, page);
    expect(shut.body).toContain('post-password-form');
    expect(shut.headers.get('vary')).toMatch(/Cookie/);

    const posted = await fetch(`${varnish.base}${page}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: varnish.base },
      body: 'post_password=sesame',
      redirect: 'manual',
    });
    expect(posted.status).toBe(303);
    const cookie = posted.headers.get('set-cookie')!.split(';')[0]!;
    expect(cookie).toMatch(/^wp-postpass_[0-9a-f]{32}=%24P%24B/);
    for (let i = 0; i < 2; i++) {
      const opened = await get(varnish.base, page, { cookie });
      expect(opened.hit).toBe(false);
      expect(opened.headers.get('cache-control')).toBe('private, no-store');
      expect(opened.body).toContain('Backstage only.');
    }
    // What the cache hands everyone else is still the form.
    const again = await warm(varnish.base, page);
    expect(again.body).toContain('post-password-form');
    expect(again.body).not.toContain('Backstage only.');
  });

  it('GraphQL over WebSocket passes through (piped upgrade) and delivers changes', async () => {
    const client = wsClient(varnish.base);
    try {
      const sub = subscribeWs(client, 'subscription { eventChanged { action event { title } } }');
      // The subscription is set up once the socket is open and acknowledged; writes before that are not seen.
      // Without the upgrade headers passed on, the socket never opens: fail in time, not at the file's timeout.
      await new Promise<void>((resolve, reject) => {
        client.on('connected', () => resolve());
        setTimeout(() => reject(new Error('no WebSocket connection through Varnish within 30 s')), 30_000);
      });
      let delivered: any;
      for (let i = 0; i < 5 && !delivered; i++) {
        await write(a.base, `${NS}/events`, eventBody(`Through the pipe ${i}`));
        delivered = await sub.next(3_000).catch(() => undefined);
      }
      expect(delivered?.data.eventChanged).toMatchObject({ action: 'CREATED', event: { title: expect.stringMatching(/^Through the pipe/) } });
      sub.close();
    } finally {
      await client.dispose();
    }
  });

  it.skipIf(!onPostgres)('a write through a second process purges too: REST and GraphQL', async () => {
    const b = await startServerProcess(env);
    const event = await write(a.base, `${NS}/events`, eventBody('Across processes'));
    const one = `${NS}/events/${event.id}`;
    await warm(varnish.base, one);
    await warm(varnish.base, `${NS}/events?${WINDOW}`);

    await write(b.base, one, { title: 'Renamed on B (REST)' });
    expect((await get(varnish.base, one)).body.title).toBe('Renamed on B (REST)');
    await warm(varnish.base, one);
    await mutate(b.base, 'mutation($id: ID) { updateEvent(id: $id, input: { title: "Renamed on B (GraphQL)" }) { __typename } }', { id: event.id });
    expect((await get(varnish.base, one)).body.title).toBe('Renamed on B (GraphQL)');
    expect((await get(varnish.base, `${NS}/events?${WINDOW}`)).body.events.map((e: { title: string }) => e.title)).toContain('Renamed on B (GraphQL)');
    b.stop();
  });
});

// The director over several instances (deploy/varnish/backends.vcl): each is probed on /readyz.
// Two instances, each on a database of its own so that one can lose it alone.
describe.skipIf(missing !== null || !onPostgres)('the director: instances leave and rejoin the rotation', { timeout: 600_000 }, () => {
  it('an instance without its database or draining leaves it, a killed one costs reads nothing', async () => {
    const dbs = [await createPostgresDatabase(), await createPostgresDatabase()];
    const ports = [await freePort(), await freePort()];
    const varnishPort = await freePort();
    const envOf = (i: number): Record<string, string> => ({
      CAL_ADMIN_LOGIN: ADMIN.login,
      CAL_ADMIN_PASSWORD: ADMIN.password,
      CAL_PURGE_URL: `http://127.0.0.1:${varnishPort}/`,
      DATABASE_URL: dbs[i]!.url,
      PORT: String(ports[i]),
      CAL_DRAIN_DELAY_MS: '15000',
    });
    let varnish: Varnish | undefined;
    const admin = async (sql: string) => {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(sql).finally(() => client.end());
    };
    const second = new URL(dbs[1]!.url).pathname.slice(1);
    const until = async (what: string, check: () => boolean, ms = 20_000) => {
      for (const end = Date.now() + ms; !check(); await new Promise((r) => setTimeout(r, 200))) {
        if (Date.now() > end) throw new Error(`not within ${ms} ms: ${what} (rotation ${JSON.stringify(varnish?.healthy())})`);
      }
    };
    try {
      await startServerProcess(envOf(0));
      let b = await startServerProcess(envOf(1));
      varnish = await startVarnish(varnishPort, ports.map((p) => `http://127.0.0.1:${p}`));
      await until('both in the rotation', () => varnish!.healthy().every(Boolean));

      // B loses its database: its /readyz answers 503 and it leaves; back when the database is.
      await admin(`ALTER DATABASE "${second}" ALLOW_CONNECTIONS false`);
      await admin(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '${second}'`);
      try {
        await until('B out', () => !varnish!.healthy()[1]);
        expect(varnish.healthy()[0]).toBe(true);
        // Every request now goes to A: signed-in reads (never cached) all answer.
        for (let i = 0; i < 6; i++) expect((await get(varnish.base, `${NS}/events`, { authorization: auth })).status).toBe(200);
      } finally {
        await admin(`ALTER DATABASE "${second}" ALLOW_CONNECTIONS true`);
      }
      await until('B back', () => varnish!.healthy()[1]);

      // B killed: until its probe fails, reads sent to it go to A instead (the VCL retries them).
      b.child.kill('SIGKILL');
      await b.exited;
      for (let i = 0; i < 10; i++) expect((await get(varnish.base, `${NS}/events`, { authorization: auth })).status, `read ${i}`).toBe(200);
      await until('B out after its kill', () => !varnish!.healthy()[1]);

      // B again, then drained (SIGTERM): out of the rotation while it still listens and serves.
      b = await startServerProcess(envOf(1));
      await until('B back after its restart', () => varnish!.healthy()[1]);
      b.child.kill('SIGTERM');
      await until('B out while draining', () => !varnish!.healthy()[1]);
      expect(b.child.exitCode).toBeNull();
      expect((await get(b.base, '/healthz')).status).toBe(200);
      for (let i = 0; i < 6; i++) expect((await get(varnish.base, `${NS}/events`, { authorization: auth })).status).toBe(200);
      expect(await b.exited).toBe(0);
    } finally {
      await varnish?.stop();
      stopServerProcesses();
      for (const db of dbs) await db.drop().catch(() => {});
    }
  });
});

/** An HTTP server that records PURGE requests by path (each process gets its own path). */
async function purgeRecorder(status = 200) {
  const received: { path: string; keys: string[] }[] = [];
  const waiting: (() => void)[] = [];
  const server: Server = createHttpServer((req: IncomingMessage, res) => {
    received.push({ path: req.url ?? '', keys: String(req.headers.xkey ?? '').split(' ') });
    for (const wake of waiting.splice(0)) wake();
    res.statusCode = req.method === 'PURGE' ? status : 405;
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    received,
    /** Resolves once a purge on `path` has named `key`. */
    async purged(pathname: string, key: string) {
      while (!received.some((r) => r.path === pathname && r.keys.includes(key))) await new Promise<void>((resolve) => waiting.push(resolve));
    },
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

describe('purges (src/server/purge.ts)', { timeout: 300_000 }, () => {
  it.skipIf(!onPostgres)('come from the process that committed the change, not from every process that hears of it', async () => {
    const recorder = await purgeRecorder();
    const db = await createPostgresDatabase();
    try {
      const common = { CAL_ADMIN_LOGIN: ADMIN.login, CAL_ADMIN_PASSWORD: ADMIN.password, DATABASE_URL: db.url };
      const a = await startServerProcess({ ...common, CAL_PURGE_URL: `${recorder.base}/a` });
      const b = await startServerProcess({ ...common, CAL_PURGE_URL: `${recorder.base}/b` });
      const onA = await subscribeSse(a.base, 'subscription { eventChanged { eventId } }');
      try {
        const event = await write(b.base, `${NS}/events`, eventBody('Written on B'));
        // B answered once its purge was sent: the event's key and the list family.
        expect(recorder.received.filter((r) => r.path === '/b').flatMap((r) => r.keys)).toEqual(expect.arrayContaining([`event-${event.id}`, 'events-list']));
        // A heard of the change (the bus), then committed one of its own: its only purge names its own event.
        expect((await onA.next(5_000)).data.eventChanged.eventId).toBe(Buffer.from(`Event:${event.id}`).toString('base64'));
        const own = await write(a.base, `${NS}/events`, eventBody('Written on A'));
        await recorder.purged('/a', `event-${own.id}`);
        const fromA = recorder.received.filter((r) => r.path === '/a').flatMap((r) => r.keys);
        expect(fromA).not.toContain(`event-${event.id}`);
        // A venue change purges the venue's key (events at it carry it) and the venue list.
        const venue = await write(b.base, `${NS}/venues`, { venue: 'Purged Hall' });
        await write(b.base, `${NS}/venues/${venue.id}`, { venue: 'Purged Hall 2' });
        await recorder.purged('/b', `venue-${venue.id}`);
        expect(recorder.received.filter((r) => r.path === '/b').flatMap((r) => r.keys)).toContain('venues-list');
      } finally {
        onA.close();
        stopServerProcesses();
      }
    } finally {
      await recorder.close();
      await db.drop().catch(() => {});
    }
  });

  it('go to every cache in front when CAL_PURGE_URL lists several', async () => {
    const recorder = await purgeRecorder();
    try {
      await withPurgingServer(`${recorder.base}/edge-1, ${recorder.base}/edge-2`, async (server) => {
        const event = await write(server.base, `${NS}/events`, eventBody('Purged twice'));
        // Answered once both caches acknowledged.
        for (const edge of ['/edge-1', '/edge-2']) {
          expect(recorder.received.filter((r) => r.path === edge).flatMap((r) => r.keys), edge).toEqual(expect.arrayContaining([`event-${event.id}`, 'events-list']));
        }
      });
    } finally {
      await recorder.close();
    }
  });

  it('a proxy refusing purges never fails a write, and the failure is logged once', async () => {
    const recorder = await purgeRecorder(503);
    try {
      await withPurgingServer(`${recorder.base}/`, async (server) => {
        const first = await write(server.base, `${NS}/events`, eventBody('Despite the proxy'));
        await write(server.base, `${NS}/events/${first.id}`, { title: 'Still despite the proxy' });
        await recorder.purged('/', `event-${first.id}`);
        // Retried, then reported once for the outage.
        await expect.poll(() => server.stdout().match(/purge: the reverse proxy refused/g)?.length ?? 0).toBe(1);
        expect(recorder.received.length).toBeGreaterThan(1);
      });
    } finally {
      await recorder.close();
    }
  });
});

/** A server process purging `purgeUrl`, on a database of its own (PostgreSQL on that project, else embedded), stopped and its database removed after `use`. */
async function withPurgingServer(purgeUrl: string, use: (server: ServerProcess) => Promise<void>): Promise<void> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'cal-purge-data-'));
  let dropDatabase: (() => Promise<void>) | undefined;
  const env: Record<string, string> = { CAL_ADMIN_LOGIN: ADMIN.login, CAL_ADMIN_PASSWORD: ADMIN.password, CAL_PURGE_URL: purgeUrl };
  if (onPostgres) {
    const db = await createPostgresDatabase();
    env.DATABASE_URL = db.url;
    dropDatabase = db.drop;
  } else env.CAL_DATA_DIR = dataDir;
  try {
    await use(await startServerProcess(env));
  } finally {
    stopServerProcesses();
    rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase?.().catch(() => {});
  }
}
