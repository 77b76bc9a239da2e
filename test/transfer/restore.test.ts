/**
 * An export carries everything (series with overrides and cancelled
 * occurrences, trashed and protected events, image files, users with their password and
 * application-password hashes) and restores it exactly into a fresh database, on both databases:
 * export → restore → export is byte-identical and the restored service answers as the original.
 */
import { createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/services/context.ts';
import { buildApp } from '../../src/server/app.ts';
import { defaultSiteSettings, loadConfig } from '../../src/server/config.ts';
import { clearCredentialCache } from '../../src/services/users.ts';
import { exportAll } from '../../src/transfer/export.ts';
import { importFromFile } from '../../src/transfer/import.ts';
import { createProgress } from '../../src/transfer/progress.ts';
import { createPostgresDatabase, createTestDatabase, testBackend, type TestDatabase } from '../helpers/database.ts';
import { runCli } from '../helpers/process.ts';
import { SAMPLE_TIMEZONE, passwordOf, startTestServer, type TestServer } from '../helpers/server.ts';

const PNG = readFileSync(new URL('../fixtures/orange-4x4.png', import.meta.url));
const IMAGE_PATH = '/wp-content/uploads/2026/11/orange-4x4.png';
const STATUSES = 'publish,future,draft,pending,private,trash';
const quiet = createProgress({ write: () => true }, true);
const cliCtx = (db: TestDatabase) => createContext({ prisma: db.prisma, settings: defaultSiteSettings, viewer: { id: 0, login: 'cli', role: 'ADMINISTRATOR' } });

let images: http.Server;
let source: TestServer;
let dir: string;
const ids: Record<string, number> = {};
let appPassword = '';

async function dump(db: TestDatabase, file: string) {
  const out = createWriteStream(file);
  await exportAll(cliCtx(db), out, { withUsers: true });
  await new Promise<void>((resolve) => out.end(resolve));
  return readFile(file, 'utf8');
}

/** A server on an existing database (nothing seeded), as `npm start` on a restored data directory. */
async function serve(db: TestDatabase) {
  const config = loadConfig({ CAL_TIMEZONE: SAMPLE_TIMEZONE, CAL_LOG_LEVEL: 'silent' });
  const { app } = buildApp({ config, db, logger: pino({ level: 'silent' }) });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    base,
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const basic = (login: string, password: string) => 'Basic ' + Buffer.from(`${login}:${password}`).toString('base64');

/** The same reads on any service, host stripped: REST (admin and anonymous) and GraphQL. */
async function reads(base: string) {
  const admin = basic('admin', passwordOf('admin'));
  // REST escapes slashes (`http:\/\/…`): compare the parsed values.
  const strip = (text: string) => JSON.parse(JSON.stringify(JSON.parse(text)).split(base).join('HOST'));
  const get = async (p: string, auth?: string) => {
    const r = await fetch(base + p, { headers: auth ? { Authorization: auth } : {} });
    return { status: r.status, body: strip(await r.text()) };
  };
  const gql = async (query: string, auth = admin) => {
    const r = await fetch(`${base}/graphql`, { method: 'POST', headers: { Authorization: auth, 'Content-Type': 'application/json' }, body: JSON.stringify({ query }) });
    return strip(await r.text());
  };
  const rest = '/wp-json/cal/events/v1';
  const out: Record<string, unknown> = {};
  out.events = await get(`${rest}/events?per_page=50&status=${STATUSES}&start_date=1900-01-01&end_date=2999-01-01`, admin);
  out.anonymous = await get(`${rest}/events?per_page=50&start_date=1900-01-01&end_date=2999-01-01`);
  for (const [name, id] of Object.entries(ids)) {
    out[`event ${name}`] = await get(`${rest}/events/${id}`, admin);
    out[`event ${name} anonymous`] = await get(`${rest}/events/${id}`);
  }
  out.protectedWithPassword = await get(`${rest}/events/${ids.protected}?password=open-sesame`);
  out.venues = await get(`${rest}/venues?per_page=50&status=${STATUSES}`, admin);
  out.organizers = await get(`${rest}/organizers?per_page=50&status=${STATUSES}`, admin);
  out.categories = await get(`${rest}/categories?per_page=50&hide_empty=false`);
  out.tags = await get(`${rest}/tags?per_page=50&hide_empty=false`);
  out.series = await gql(`{ events(filter: { occurrences: SERIES, statuses: [PUBLISH, TRASH, DRAFT], defaultWindow: false }, perPage: 50) { ... on EventConnection { edges { node {
    databaseId title recurrence { rule text start exdates rdates } occurrences(after: "2000-01-01", first: 50) { databaseId startDate title occurrenceOverridden recurrenceId }
    overrides { databaseId } image { url width mimeType } } } } } }`);
  out.users = await gql('{ users(perPage: 50) { ... on UserConnection { edges { node { databaseId login role email displayName } } } } }');
  // The accounts sign in with their passwords and application passwords.
  out.editorSignsIn = (await fetch(`${base}${rest}/events`, { headers: { Authorization: basic('editor', passwordOf('editor')) } })).status;
  out.appPasswordSignsIn = (await fetch(`${base}${rest}/events?status=draft`, { headers: { Authorization: basic('editor', appPassword) } })).status;
  out.wrongPassword = (await fetch(`${base}${rest}/events`, { headers: { Authorization: basic('editor', 'not it at all') } })).status;
  const image = await fetch(base + IMAGE_PATH);
  out.image = { status: image.status, type: image.headers.get('content-type'), same: Buffer.from(await image.arrayBuffer()).equals(PNG) };
  return out;
}

beforeAll(async () => {
  images = http.createServer((req, res) => {
    if (req.url === IMAGE_PATH) res.writeHead(200, { 'Content-Type': 'image/png' }).end(PNG);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => images.listen(0, '127.0.0.1', resolve));
  const imageUrl = `http://127.0.0.1:${(images.address() as AddressInfo).port}${IMAGE_PATH}`;
  source = await startTestServer({ now: null, env: { CAL_ALLOW_PRIVATE_IMAGE_URLS: 'true' } });
  dir = await mkdtemp(path.join(os.tmpdir(), 'cal-restore-'));

  const music = (await source.create('/categories', { name: 'Music' })).id;
  const tag = (await source.create('/tags', { name: 'Été' })).id;
  const venue = (await source.create('/venues', { venue: 'Grand Hall', city: 'Paris' })).id;
  const organizer = (await source.create('/organizers', { organizer: 'Ørjan' })).id;
  // docs/recurring-events.md's weekly series, with an image downloaded from the (soon gone) old site.
  const series = await source.graphql(`mutation($image: String) { createEvent(input: {
    title: "Tuesday Jazz", startDate: "2027-03-02 19:00", endDate: "2027-03-02 21:00", timezone: "America/New_York",
    venues: [{ id: ${venue} }], organizers: [{ id: ${organizer} }], categories: ["${music}"], tags: ["${tag}"], image: $image,
    recurrence: { rule: "FREQ=WEEKLY;BYDAY=TU;COUNT=10", exdates: ["2027-03-16"], rdates: ["2027-03-20 15:00:00"] }
  }) { ... on CreateEventSuccess { event { databaseId occurrences(after: "2027-03-01", first: 20) { databaseId startDate } } } } }`, { image: imageUrl });
  expect(series.errors).toBeUndefined();
  const created = series.data.createEvent.event;
  ids.series = created.databaseId;
  const occurrences = created.occurrences.map((o: { databaseId: number }) => o.databaseId).filter((id: number) => id !== ids.series);
  expect(occurrences.length).toBeGreaterThan(5);
  [ids.override, ids.cancelled] = occurrences;
  // An override (a REST write to one occurrence) and a cancelled occurrence.
  expect((await source.api(`/events/${ids.override}`, { method: 'POST', as: 'admin', body: { title: 'Tuesday Jazz (guest night)' } })).status).toBe(200);
  const cancel = await source.graphql(`mutation { cancelOccurrence(id: ${ids.cancelled}) { ... on CancelOccurrenceSuccess { event { databaseId } } } }`);
  expect(cancel.errors).toBeUndefined();
  delete ids.cancelled;
  ids.plain = (await source.create('/events', { title: 'Plain night', start_date: '2026-12-05 19:00', end_date: '2026-12-05 22:30', venue, cost: '10 - 20' })).id;
  ids.trashed = (await source.create('/events', { title: 'Trashed', start_date: '2026-04-01 10:00', end_date: '2026-04-01 11:00' })).id;
  expect((await source.api(`/events/${ids.trashed}`, { method: 'DELETE', as: 'admin' })).status).toBe(200);
  ids.draft = (await source.create('/events', { title: 'Draft plan', start_date: '2027-01-10 09:00', end_date: '2027-01-10 10:00', status: 'draft' })).id;
  ids.protected = (await source.create('/events', { title: 'Members only', start_date: '2026-06-01 20:00', end_date: '2026-06-01 23:00', description: '<p>Secret</p>' })).id;
  // No API sets a post password (WordPress's REST API v1 shows none): set as WordPress stores it.
  await source.db.prisma.event.update({ where: { id: ids.protected }, data: { password: 'open-sesame' } });
  // An event whose author was deleted keeps no author.
  ids.orphan = (await source.create('/events', { title: 'By a former author', start_date: '2026-07-01 20:00', end_date: '2026-07-01 21:00' }, 'author')).id;
  expect((await source.graphql(`mutation { deleteUser(id: ${source.users.author}) { __typename } }`)).errors).toBeUndefined();
  const app = await source.graphql(`mutation { createApplicationPassword(name: "phone", userId: ${source.users.editor}) { ... on CreateApplicationPasswordSuccess { applicationPassword { password } } } }`);
  expect(app.errors).toBeUndefined();
  appPassword = app.data.createApplicationPassword.applicationPassword.password;
  expect(appPassword).toBeTruthy();
  // The old site goes away: the image is served from here from now on.
  images.closeAllConnections();
  await new Promise<void>((resolve) => images.close(() => resolve()));
}, 300_000);

afterAll(async () => {
  await source?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('export → restore into a fresh database → export', { timeout: 300_000 }, () => {
  it('serves the downloaded image itself, at its WordPress path, cached for a year', async () => {
    const res = await fetch(source.base + IMAGE_PATH);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(Buffer.from(await res.arrayBuffer()).equals(PNG)).toBe(true);
    expect((await fetch(source.base + IMAGE_PATH, { headers: { 'If-None-Match': etag! } })).status).toBe(304);
    expect((await fetch(source.base + IMAGE_PATH.replace('orange', 'apple'))).status).toBe(404);
    expect((await fetch(source.base + '/wp-content/uploads/../../etc/passwd')).status).toBe(404);
    const event = (await source.api(`/events/${ids.series}`)).body;
    expect(event.image).toMatchObject({ url: source.base + IMAGE_PATH, width: 4, height: 4, extension: 'png' });
  });

  it('is byte-identical and the restored service answers as the original (REST, GraphQL, sign-ins, image)', async () => {
    const first = await dump(source.db, path.join(dir, 'a.jsonl'));
    expect(first).toContain('"recurrenceRules":["FREQ=WEEKLY;BYDAY=TU;COUNT=10"]');
    expect(first).toContain('"kind":"upload"');
    expect(first).toContain('"applicationPasswords":[{');
    const fresh = await createTestDatabase();
    let restored: Awaited<ReturnType<typeof serve>> | undefined;
    try {
      expect(await fresh.prisma.user.count()).toBe(0);
      const summary = await importFromFile(cliCtx(fresh), { file: path.join(dir, 'a.jsonl') }, quiet);
      expect(summary.failures).toEqual([]);
      expect(await dump(fresh, path.join(dir, 'b.jsonl'))).toBe(first);
      restored = await serve(fresh);
      clearCredentialCache();
      const original = await reads(source.base);
      expect(original.appPasswordSignsIn).toBe(200);
      expect(original.image).toEqual({ status: 200, type: 'image/png', same: true });
      expect(JSON.stringify(original.series)).toContain('guest night');
      expect(await reads(restored.base)).toEqual(original);
    } finally {
      await restored?.close();
      await fresh.close();
    }
  });

  it('restores beside records that hold its slugs: the next free one, a trashed record as `…__trashed-2`', async () => {
    const lines = (await readFile(path.join(dir, 'a.jsonl'), 'utf8')).split('\n').filter(Boolean);
    const target = await createTestDatabase();
    try {
      expect((await importFromFile(cliCtx(target), { file: path.join(dir, 'a.jsonl') }, quiet)).failures).toEqual([]);
      // Two of its events again under other IDs, as another export naming the same things would
      // bring them: both slugs are taken here by then (one of them a trashed record's).
      const again = lines.flatMap((line) => {
        const row = JSON.parse(line) as { kind: string; id?: number };
        if (row.kind === 'meta' || row.kind === 'user') return [line];
        if (row.kind === 'event' && (row.id === ids.trashed || row.id === ids.plain)) return [JSON.stringify({ ...row, id: row.id + 100_000 })];
        return [];
      });
      expect(again.filter((l) => l.includes('"kind":"event"'))).toHaveLength(2);
      await writeFile(path.join(dir, 'again.jsonl'), again.join('\n') + '\n');
      expect((await importFromFile(cliCtx(target), { file: path.join(dir, 'again.jsonl') }, quiet)).failures).toEqual([]);
      const rows = await target.prisma.event.findMany({ where: { title: { in: ['Trashed', 'Plain night'] } }, select: { slug: true } });
      expect(rows.map((r) => r.slug).sort()).toEqual(['plain-night', 'plain-night-2', 'trashed__trashed', 'trashed__trashed-2']);
    } finally {
      await target.close();
    }
  });

  it('restores a fresh data directory with one command; --owner must name an account here or in the file', async () => {
    const file = path.join(dir, 'a.jsonl');
    const target = testBackend === 'postgres' ? await createPostgresDatabase() : null;
    const env: NodeJS.ProcessEnv = { ...process.env, CAL_LOG_LEVEL: 'silent' };
    delete env.DATABASE_URL;
    if (target) env.DATABASE_URL = target.url;
    else env.CAL_DATA_DIR = path.join(dir, 'fresh-data');
    try {
      const bad = await runCli(['import', '--file', file, '--owner', 'nobody'], env);
      expect(bad.code).toBe(1);
      expect(bad.stderr).toContain('no user has the login "nobody" here or in the export');
      const r = await runCli(['import', '--file', file, '--owner', 'editor', '--json'], env);
      expect(r.stderr).not.toContain('create one first');
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout).failures).toEqual([]);
      const again = await runCli(['export', '--with-users', '--out', path.join(dir, 'c.jsonl')], env);
      expect(again.code, again.stderr).toBe(0);
      expect(await readFile(path.join(dir, 'c.jsonl'), 'utf8')).toBe(await readFile(file, 'utf8'));
      const help = await runCli(['--help'], env);
      expect(help.stdout).toContain('--owner LOGIN');
    } finally {
      await target?.drop();
    }
  });

  it('refuses a file whose image bytes do not match their digest, and reports it', async () => {
    const text = await readFile(path.join(dir, 'a.jsonl'), 'utf8');
    const broken = text.replace(/("kind":"upload".*?"data":")([A-Za-z0-9+/]{4})/, (_m, head: string) => `${head}AAAA`);
    expect(broken).not.toBe(text);
    await writeFile(path.join(dir, 'broken.jsonl'), broken);
    const fresh = await createTestDatabase();
    try {
      const summary = await importFromFile(cliCtx(fresh), { file: path.join(dir, 'broken.jsonl') }, quiet);
      expect(summary.failures).toEqual([{ kind: 'upload', id: null, reason: expect.stringContaining('do not match their sha256') }]);
    } finally {
      await fresh.close();
    }
  });
});
