import fc from 'fast-check';
import pg from 'pg';
import pino from 'pino';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import { loadConfig } from '../../src/server/config.ts';
import { createPostgresDatabase, testBackend } from '../helpers/database.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { ADMIN_LOGIN, SAMPLE_CLOCK, SAMPLE_TIMEZONE, startTestServer, type TestServer } from '../helpers/server.ts';

// The origin cache (src/server/cache/) across processes: a read on one process right
// after a write acknowledged by another is fresh, whatever the change bus does (process B below
// listens on another channel: A's changes never reach it, and its entries live for an hour). Then a
// randomized interleaving of writes and reads, the cached answers checked against an uncached server.

const NS = '/wp-json/cal/events/v1';

interface Target {
  base: string;
  auth: string;
}
interface Reply {
  status: number;
  body: any;
  text: string;
}

async function call(t: Target, path: string, opts: { method?: string; body?: unknown; admin?: boolean } = {}): Promise<Reply> {
  const headers: Record<string, string> = {};
  if (opts.admin) headers.authorization = t.auth;
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${t.base}${path}`, { method: opts.method ?? 'GET', headers, body: opts.body === undefined ? undefined : JSON.stringify(opts.body) });
  // Bodies are compared across servers: their addresses (also as JSON escapes them, `http:\/\/…`) go.
  const text = (await res.text()).replaceAll(t.base.replaceAll('/', '\\/'), 'BASE').replaceAll(t.base, 'BASE');
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: res.status, body, text };
}
const rest = (t: Target, path: string, opts: { method?: string; body?: unknown; admin?: boolean } = {}) => call(t, `${NS}${path}`, opts);
async function gql(t: Target, query: string, variables: Record<string, unknown> = {}, admin = false): Promise<any> {
  const r = await call(t, '/graphql', { method: 'POST', body: { query, variables }, admin });
  expect(r.status).toBe(200);
  expect(r.body.errors).toBeUndefined();
  return r.body.data;
}

const LIST = `query List { events(perPage: 50) { nodes { databaseId title status venues { name } categories { name count } } } }`;
const USERS = `query Users { users(perPage: 50) { ... on UserConnection { nodes { login } } } }`;
const eventBody = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: '2027-06-01 10:00:00',
  end_date: '2027-06-01 11:00:00',
  status: 'publish',
  ...extra,
});

// Explicit windows: the default one moves with the clock and shows in `rest_url`, so two servers
// asked a second apart would differ for that reason alone.
const WINDOW = 'start_date=2026-01-01&end_date=2029-12-31';

/** What the reads below compare: REST and GraphQL lists, single records, term counts, users. */
async function readAll(t: Target, ids: { events: number[]; categories: number[] }) {
  const out: Record<string, unknown> = {};
  for (const path of [`/events?per_page=50&${WINDOW}`, '/venues?per_page=50', '/categories?per_page=50', ...ids.events.map((id) => `/events/${id}`)]) {
    const r = await rest(t, path);
    out[`REST ${path}`] = [r.status, r.body];
  }
  for (const id of ids.categories) out[`REST /categories/${id}`] = (await rest(t, `/categories/${id}`)).body;
  out['GraphQL List'] = await gql(t, LIST);
  out['GraphQL Users (admin)'] = await gql(t, USERS, {}, true);
  out['REST /events?status=draft (admin)'] = (await rest(t, `/events?status=draft&per_page=50&${WINDOW}`, { admin: true })).body;
  return out;
}

/**
 * Random writes through `writer`; after each step every read of `cached` must equal the same read of
 * `reference` (an uncached server on the same database).
 */
async function randomInterleaving(writer: Target, cached: Target[], reference: Target) {
  const ids = { events: [] as number[], venues: [] as number[], categories: [] as number[] };
  let serial = 0;
  const pick = (list: number[], n: number) => list[n % list.length];
  type Op = { kind: string; n: number; api: 'rest' | 'graphql' };
  /** A POST that must create a record; its ID joins `list`. */
  const restCreate = async (path: string, body: unknown, list: number[]) => {
    const r = await rest(writer, path, { method: 'POST', admin: true, body });
    expect(r.status).toBe(201);
    list.push(r.body.id);
  };
  /** A write to one of the records of `list`, picked by `n` (no record yet: no write). */
  const onPicked = async (list: number[], n: number, write: (id: number) => Promise<unknown>) => {
    if (list.length) await write(pick(list, n));
  };
  const restPost = (path: string, body: unknown) => rest(writer, path, { method: 'POST', admin: true, body });
  const mutate = (mutation: string, variables: Record<string, unknown>) => gql(writer, mutation, variables, true);
  const write = async ({ kind, n, api }: Op) => {
    const name = `${kind} ${++serial}`;
    switch (kind) {
      case 'createEvent': {
        const venue = ids.venues.length && n % 2 ? pick(ids.venues, n) : undefined;
        const categories = ids.categories.length && n % 3 ? [pick(ids.categories, n)] : [];
        if (api === 'rest') {
          await restCreate('/events', eventBody(name, { ...(venue ? { venue } : {}), categories, status: n % 5 ? 'publish' : 'draft' }), ids.events);
        } else {
          const d = await mutate(`mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId } } } }`, {
            input: { title: name, startDate: '2027-06-02 10:00:00', endDate: '2027-06-02 11:00:00', status: n % 5 ? 'PUBLISH' : 'DRAFT', venues: venue ? [{ id: venue }] : [], categories: categories.map(String) },
          });
          ids.events.push(d.createEvent.event.databaseId);
        }
        return;
      }
      case 'renameEvent':
        return onPicked(ids.events, n, (id) =>
          api === 'rest' ? restPost(`/events/${id}`, { title: name }) : mutate(`mutation($id: ID) { updateEvent(id: $id, input: { title: "${name}" }) { __typename } }`, { id }),
        );
      case 'createVenue':
        return restCreate('/venues', { venue: name }, ids.venues);
      case 'renameVenue':
        return onPicked(ids.venues, n, (id) =>
          api === 'rest' ? restPost(`/venues/${id}`, { venue: name }) : mutate(`mutation($id: ID) { updateVenue(id: $id, input: { name: "${name}" }) { __typename } }`, { id }),
        );
      case 'createCategory':
        return restCreate('/categories', { name }, ids.categories);
      case 'linkCategory':
        if (!ids.events.length || !ids.categories.length) return;
        await restPost(`/events/${pick(ids.events, n)}`, { categories: [pick(ids.categories, n + 1)] });
        return;
      case 'renameCategory':
        return onPicked(ids.categories, n, (id) => mutate(`mutation($id: ID!) { updateEventCategory(id: $id, input: { name: "${name}" }) { __typename } }`, { id }));
      case 'trashEvent':
        return onPicked(ids.events, n, (id) =>
          api === 'rest' ? rest(writer, `/events/${id}`, { method: 'DELETE', admin: true }) : mutate(`mutation($id: ID) { deleteEvent(id: $id) { __typename } }`, { id }),
        );
      case 'restoreEvent':
        return onPicked(ids.events, n, (id) => mutate(`mutation($id: ID) { restoreEvent(id: $id) { __typename } }`, { id }));
      case 'purgeEvent':
        // The ID stays in the list: reads of a deleted event must agree too.
        return onPicked(ids.events, n, (id) => rest(writer, `/events/${id}?force=true`, { method: 'DELETE', admin: true }));
      case 'createUser':
        await mutate(`mutation($input: CreateUserInput!) { createUser(input: $input) { __typename } }`, { input: { login: `user${serial}_${n}`, password: 'long-enough-pass', role: 'SUBSCRIBER' } });
        return;
    }
  };
  const kinds = ['createEvent', 'renameEvent', 'createVenue', 'renameVenue', 'createCategory', 'linkCategory', 'renameCategory', 'trashEvent', 'restoreEvent', 'purgeEvent', 'createUser'];
  const op = fc.record({ kind: fc.constantFrom(...kinds), n: fc.nat(1000), api: fc.constantFrom('rest' as const, 'graphql' as const) });
  let steps = 0;
  await fc.assert(
    fc.asyncProperty(fc.array(op, { minLength: 4, maxLength: 10 }), async (ops) => {
      for (const o of ops) {
        await write(o);
        steps++;
        const sample = { events: ids.events.slice(-3), categories: ids.categories.slice(-2) };
        // Cached servers read first (warming or hitting their caches), then the reference; twice, so
        // that the second round is answered from the cache where it can be.
        for (let round = 0; round < 2; round++) {
          const seen = await Promise.all(cached.map((t) => readAll(t, sample)));
          const truth = await readAll(reference, sample);
          for (const s of seen) expect(s).toEqual(truth);
        }
      }
    }),
    { seed: 20261123, numRuns: 4, endOnFailure: true },
  );
  return steps;
}

describe('response cache, one process: random writes and reads agree with an uncached server', { timeout: 600_000 }, () => {
  let s: TestServer;
  let uncached: Server;
  let reference: Target;
  beforeAll(async () => {
    // A fixed request clock (cache keys hold its second): hits do not depend on the machine's speed.
    s = await startTestServer();
    // A second app on the same database and clock with the cache off.
    const config = loadConfig({ CAL_TIMEZONE: SAMPLE_TIMEZONE, CAL_LOG_LEVEL: 'silent', CAL_CACHE_TTL_S: '0' });
    const { app } = buildApp({ config, db: s.db, logger: pino({ level: 'silent' }), now: () => new Date(SAMPLE_CLOCK) });
    uncached = app.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => uncached.once('listening', resolve));
    reference = { base: `http://127.0.0.1:${(uncached.address() as AddressInfo).port}`, auth: s.authHeader('admin') };
  });
  afterAll(async () => {
    uncached?.close();
    await s?.close();
  });

  it('fixed seed', async () => {
    const cached = { base: s.base, auth: s.authHeader('admin') };
    const hits = s.cache.hits;
    const steps = await randomInterleaving(cached, [cached], reference);
    expect(steps).toBeGreaterThan(10);
    expect(s.cache.hits - hits).toBeGreaterThan(steps); // the cache answered a share of the reads
  });
});

describe.runIf(testBackend === 'postgres')('response cache across server processes on one PostgreSQL', { timeout: 600_000 }, () => {
  const password = 'cache-processes-pass';
  let db: { url: string; drop(): Promise<void> };
  let procs: ServerProcess[] = [];
  let a: Target, b: Target, c: Target;
  beforeAll(async () => {
    db = await createPostgresDatabase();
    const env = { DATABASE_URL: db.url, CAL_ADMIN_LOGIN: ADMIN_LOGIN, CAL_ADMIN_PASSWORD: password, CAL_CACHE_TTL_S: '3600' };
    const auth = `Basic ${Buffer.from(`${ADMIN_LOGIN}:${password}`).toString('base64')}`;
    const pa = await startServerProcess({ ...env, CAL_CHANGES_CHANNEL: `cal_test_a_${process.pid}` }); // migrates
    procs.push(pa);
    // B never hears A's changes (another channel): only the shared generation keeps it exact.
    const [pb, pc] = await Promise.all([
      startServerProcess({ ...env, CAL_CHANGES_CHANNEL: `cal_test_b_${process.pid}` }),
      startServerProcess({ ...env, CAL_CHANGES_CHANNEL: `cal_test_a_${process.pid}`, CAL_CACHE_TTL_S: '0' }),
    ]);
    procs.push(pb, pc);
    [a, b, c] = [pa, pb, pc].map((p) => ({ base: p.base, auth }));
  }, 240_000); // three server processes on a loaded machine
  afterAll(async () => {
    for (const p of procs) p.stop();
    await Promise.all(procs.map((p) => p.exited));
    procs = [];
    await db?.drop();
  });

  it('a read on B right after a write acknowledged by A is fresh: REST and GraphQL, linked records, counts, trash/restore, users', async () => {
    const venue = await rest(a, '/venues', { method: 'POST', admin: true, body: { venue: 'Old Hall' } });
    const cat = await rest(a, '/categories', { method: 'POST', admin: true, body: { name: 'Jazz' } });
    const first = await rest(a, '/events', { method: 'POST', admin: true, body: eventBody('First', { venue: venue.body.id, categories: [cat.body.id] }) });
    expect([venue.status, cat.status, first.status]).toEqual([201, 201, 201]);
    const id = first.body.id as number;

    const restList = async () => (await rest(b, '/events?per_page=50')).body.events.map((e: any) => ({ title: e.title, venue: e.venue?.venue ?? null, categories: e.categories.map((t: any) => t.name) }));
    const gqlList = async () => (await gql(b, LIST)).events.nodes.map((e: any) => ({ title: e.title, venue: e.venues[0]?.name ?? null, categories: e.categories.map((t: any) => t.name) }));
    const restCount = async () => (await rest(b, `/categories/${cat.body.id}`)).body.count;
    const gqlCount = async () => (await gql(b, `query C($id: ID) { eventCategory(id: $id) { count } }`, { id: cat.body.id })).eventCategory.count;
    const single = async () => (await rest(b, `/events/${id}`)).body.title;
    const warm = async () => {
      for (let i = 0; i < 2; i++) await Promise.all([restList(), gqlList(), restCount(), gqlCount(), single()]);
    };
    await warm();
    expect(await restList()).toEqual([{ title: 'First', venue: 'Old Hall', categories: ['Jazz'] }]);

    // The cache is in play on B: a change behind the application's back (no write through it, so no
    // new generation) is not seen there while B's entry lives. Entries are keyed by the second of the
    // request clock: on a loaded machine the read after the change may fall into the next second and
    // miss, so this tries until one read lands in the same second (nearly always the first).
    const sql = new pg.Client({ connectionString: db.url });
    await sql.connect();
    let servedFromCache = false;
    try {
      for (let attempt = 0; attempt < 20 && !servedFromCache; attempt++) {
        expect(await single()).toBe('First');
        await sql.query(`UPDATE "Event" SET title = 'Behind the back' WHERE id = $1`, [id]);
        servedFromCache = (await single()) === 'First';
        expect((await rest(c, `/events/${id}`)).body.title).toBe('Behind the back');
        await sql.query(`UPDATE "Event" SET title = 'First' WHERE id = $1`, [id]);
        await sql.query(`SELECT nextval('cache_generation')`); // what a write does before it answers
      }
    } finally {
      await sql.end();
    }
    expect(servedFromCache).toBe(true);

    expect((await rest(a, `/events/${id}`, { method: 'POST', admin: true, body: { title: 'Renamed' } })).status).toBe(200);
    expect(await single()).toBe('Renamed');
    expect((await restList())[0].title).toBe('Renamed');
    await warm();

    expect((await rest(a, `/venues/${venue.body.id}`, { method: 'POST', admin: true, body: { venue: 'New Hall' } })).status).toBe(200);
    expect((await restList())[0].venue).toBe('New Hall');
    expect((await gqlList())[0].venue).toBe('New Hall');
    await warm();

    await gql(a, `mutation($id: ID!) { updateEventCategory(id: $id, input: { name: "Blues" }) { __typename } }`, { id: cat.body.id }, true);
    expect((await restList())[0].categories).toEqual(['Blues']);
    expect((await gqlList())[0].categories).toEqual(['Blues']);
    await warm();

    const second = await gql(
      a,
      `mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId } } } }`,
      { input: { title: 'Second', startDate: '2027-06-03 10:00:00', endDate: '2027-06-03 11:00:00', status: 'PUBLISH', categories: [String(cat.body.id)] } },
      true,
    );
    expect([await restCount(), await gqlCount()]).toEqual([2, 2]);
    expect((await gqlList()).map((e: any) => e.title)).toEqual(['Renamed', 'Second']);
    await warm();

    expect((await rest(a, `/events/${id}`, { method: 'DELETE', admin: true })).status).toBe(200); // trash
    expect((await rest(b, `/events/${id}`)).status).not.toBe(200);
    expect((await restList()).map((e: any) => e.title)).toEqual(['Second']);
    expect([await restCount(), await gqlCount()]).toEqual([1, 1]);
    await warm();

    await gql(a, `mutation($id: ID) { restoreEvent(id: $id) { __typename } }`, { id }, true);
    await gql(a, `mutation($id: ID) { updateEvent(id: $id, input: { status: PUBLISH }) { __typename } }`, { id }, true);
    expect(await single()).toBe('Renamed');
    expect((await gqlList()).map((e: any) => e.title)).toEqual(['Renamed', 'Second']);
    expect([await restCount(), await gqlCount()]).toEqual([2, 2]);

    await rest(a, `/events/${second.createEvent.event.databaseId}?force=true`, { method: 'DELETE', admin: true });
    expect((await gqlList()).map((e: any) => e.title)).toEqual(['Renamed']);

    // Accounts publish their changes too.
    const users = async () => (await gql(b, USERS, {}, true)).users.nodes.map((u: any) => u.login);
    expect(await users()).toEqual([ADMIN_LOGIN]);
    await gql(a, `mutation { createUser(input: { login: "across", password: "long-enough-pass", role: SUBSCRIBER }) { __typename } }`, {}, true);
    expect(await users()).toEqual(['across', ADMIN_LOGIN]); // by login
  });

  it('random writes on A and reads on A and B agree with an uncached process C (fixed seed)', async () => {
    expect(await randomInterleaving(a, [a, b], c)).toBeGreaterThan(10);
  });
});
