import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createWriteStream } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/services/context.ts';
import { defaultSiteSettings } from '../../src/server/config.ts';
import { exportAll } from '../../src/transfer/export.ts';
import { importFromFile, importFromSource, type Summary } from '../../src/transfer/import.ts';
import { createProgress } from '../../src/transfer/progress.ts';
import { ADMIN_LOGIN, passwordOf, startTestServer, type TestServer } from '../helpers/server.ts';

let source: TestServer;
let target: TestServer;
let dir: string;
const quiet = createProgress({ write: () => true }, true);
const STATUSES = 'publish,future,draft,pending,private,trash';

const ctxOf = (s: TestServer) => createContext({ prisma: s.db.prisma, settings: defaultSiteSettings, viewer: { id: 0, login: 'cli', role: 'ADMINISTRATOR' } });
const importHttp = (extra: object = {}) =>
  importFromSource(ctxOf(target), { from: `${source.base}/wp-json/cal/events/v1`, login: ADMIN_LOGIN, password: passwordOf(ADMIN_LOGIN), ...extra }, quiet);

async function seed() {
  const cat = async (body: object) => (await source.api('/categories', { method: 'POST', as: 'admin', body })).body.id as number;
  const music = await cat({ name: 'Music' });
  const jazz = await cat({ name: 'Jazz & Blues', parent: music, description: 'Late <em>nights</em>' });
  await cat({ name: 'Empty one' });
  const tag = (await source.api('/tags', { method: 'POST', as: 'admin', body: { name: 'Été' } })).body.id as number;
  const created = await source.api('/venues', {
    method: 'POST', as: 'admin',
    body: { venue: 'Théâtre du Châtelet', address: '1 Place du Châtelet', city: 'Paris', country: 'France', zip: '75001', phone: '+33 1 40 28 28 40', website: 'https://example.com/?a=1&b=2' },
  });
  expect(created.status, created.text).toBe(201);
  const venue = created.body.id as number;
  const geo = await source.graphql(`mutation($id: ID) { updateVenue(id: $id, input: { latitude: 48.858, longitude: 2.347, showMap: false }) { __typename } }`, { id: venue });
  expect(geo.errors).toBeUndefined();
  const organizer = (await source.api('/organizers', { method: 'POST', as: 'admin', body: { organizer: 'Ørjan Ölander', email: 'o@example.com', phone: '555' } })).body.id as number;
  await source.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'Draft hall', status: 'draft' } });
  const events = [
    { title: 'Summer Jazz Night', start_date: '2026-12-05 19:00', end_date: '2026-12-05 22:30', venue, organizer: [organizer], categories: [jazz], tags: [tag], cost: '15', featured: true, description: '<p>Live <strong>jazz</strong> — café &amp; crêpes</p>', excerpt: 'Jazz on the lawn' },
    { title: 'Festival (all days)', start_date: '2026-07-01', end_date: '2026-07-03', all_day: true, timezone: 'Europe/Paris', categories: [music], cost: '10 - 20', sticky: true },
    { title: 'Draft plan', start_date: '2027-01-10 09:00', end_date: '2027-01-10 10:00', status: 'draft', hide_from_listings: true },
    { title: '東京 meetup', start_date: '2026-03-01 18:00', end_date: '2026-03-02 02:00', timezone: 'Asia/Tokyo', status: 'private', website: 'https://example.jp/' },
    { title: 'Pending talk', start_date: '2026-05-01 10:00', end_date: '2026-05-01 11:00', status: 'pending', cost: 'Free' },
    { title: 'Future post', start_date: '2027-05-01 10:00', end_date: '2027-05-01 11:00', date: '2030-01-01 10:00:00' },
    { title: 'Trashed', start_date: '2026-04-01 10:00', end_date: '2026-04-01 11:00' },
  ];
  const ids: number[] = [];
  for (const e of events) {
    const r = await source.api('/events', { method: 'POST', as: 'admin', body: e });
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    ids.push(r.body.id);
  }
  const byEditor = await source.api('/events', { method: 'POST', as: 'editor', body: { title: 'Editor’s “pick”', start_date: '2026-06-01 20:00', end_date: '2026-06-01 23:00' } });
  expect(byEditor.body.author).toBe(String(source.users.editor));
  expect((await source.api(`/events/${ids[6]}`, { method: 'DELETE', as: 'admin' })).status).toBe(200);
}

/** Everything both REST APIs say, host stripped. */
async function snapshot(s: TestServer) {
  const strip = (r: { text: string }) => JSON.parse(r.text.split(s.base).join('HOST').split(s.base.replace(/^http:\/\//, '')).join('HOST'));
  const out: Record<string, unknown> = {};
  out.events = strip(await s.api(`/events?per_page=50&status=${STATUSES}&start_date=1900-01-01&end_date=2999-01-01`, { as: 'admin' }));
  const hidden = (await s.db.prisma.event.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((e) => e.id);
  out.single = await Promise.all(hidden.map(async (id) => strip(await s.api(`/events/${id}`, { as: 'admin' }))));
  out.venues = strip(await s.api(`/venues?per_page=50&status=${STATUSES}`, { as: 'admin' }));
  out.organizers = strip(await s.api(`/organizers?per_page=50&status=${STATUSES}`, { as: 'admin' }));
  out.categories = strip(await s.api('/categories?per_page=50&hide_empty=false', { as: 'admin' }));
  out.tags = strip(await s.api('/tags?per_page=50&hide_empty=false', { as: 'admin' }));
  return out;
}

const total = (s: Summary, c: 'created' | 'updated' | 'unchanged' | 'failed') => Object.values(s.kinds).reduce((n, k) => n + k[c], 0);

beforeAll(async () => {
  source = await startTestServer({ now: null });
  target = await startTestServer({ now: null });
  dir = await mkdtemp(path.join(os.tmpdir(), 'cal-transfer-'));
  await seed();
}, 120_000);
afterAll(async () => {
  await source?.close();
  await target?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('import from another cal-events over HTTP', { timeout: 120_000 }, () => {
  it('reproduces the source record by record, IDs and slugs included', async () => {
    const summary = await importHttp();
    expect(summary.failures).toEqual([]);
    expect(summary.kinds.events.created).toBe(8);
    expect(summary.authors).toMatchObject({ [String(source.users.editor)]: 'editor' });
    expect(summary.kinds.categories.created).toBe(3);
    expect(summary.kinds.venues.created).toBe(2);
    expect(await snapshot(target)).toEqual(await snapshot(source));
  });

  it('a second run changes nothing', async () => {
    const before = await snapshot(target);
    const summary = await importHttp();
    expect(total(summary, 'created') + total(summary, 'updated') + total(summary, 'failed')).toBe(0);
    expect(total(summary, 'unchanged')).toBe(3 + 1 + 2 + 1 + 8);
    expect(await snapshot(target)).toEqual(before);
  });

  it('updates records changed at the source; --prune trashes what vanished', async () => {
    const list = await source.api(`/events?per_page=50&status=${STATUSES}&start_date=1900-01-01&end_date=2999-01-01`, { as: 'admin' });
    const jazz = list.body.events.find((e: { title: string }) => e.title === 'Summer Jazz Night');
    await source.api(`/events/${jazz.id}`, { method: 'POST', as: 'admin', body: { title: 'Summer Jazz Night (moved)' } });
    const summary = await importHttp({ prune: true });
    expect(summary.kinds.events.updated).toBe(1);
    expect(await snapshot(target)).toEqual(await snapshot(source));
  });

  it('export → import into an empty database → export is byte-identical', async () => {
    const first = path.join(dir, 'a.jsonl');
    const second = path.join(dir, 'b.jsonl');
    const dump = async (s: TestServer, file: string) => {
      const out = createWriteStream(file);
      await exportAll(ctxOf(s), out);
      await new Promise<void>((resolve) => out.end(resolve));
    };
    await dump(target, first);
    const text = await readFile(first, 'utf8');
    expect(text).not.toContain('passwordHash');
    const restored = await startTestServer({ now: null });
    try {
      const summary = await importFromFile(ctxOf(restored), { file: first }, quiet);
      expect(summary.failures).toEqual([]);
      await dump(restored, second);
      expect(await readFile(second, 'utf8')).toBe(text);
      expect(await snapshot(restored)).toEqual(await snapshot(target));
    } finally {
      await restored.close();
    }
  });
});
