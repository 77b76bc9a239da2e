/** `/events` routes over the real app (contract §5, §6, §7). The server clock is 2026-11-21 12:12:40 UTC. */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer, type TestRole, type TestServer } from '../helpers/server.ts';

let s: TestServer;
useTestServer((server) => (s = server));
const create = (path: string, body: Record<string, unknown>, as?: TestRole) => s.create(path, body, as);
const event = (title: string, start: string, end: string, extra: Record<string, unknown> = {}) =>
  create('/events', { title, start_date: start, end_date: end, ...extra });
const ids = (body: { events: { id: number }[] }) => body.events.map((e) => e.id);

describe('single event: create, read, update, trash', () => {
  it('creates (201, no json_ld), reads (json_ld), updates by POST/PUT/PATCH and trashes', async () => {
    const created = await event('Crud Night', '2026-12-05 19:00:00', '2026-12-05 22:00:00', { description: 'An event content', cost: '15' });
    expect(created.status).toBe('publish');
    expect(created.description).toBe('<p>An event content</p>');
    expect(created).not.toHaveProperty('json_ld');
    expect(created.utc_start_date).toBe('2026-12-06 00:00:00');

    const read = await s.api(`/events/${created.id}`);
    expect(read.status).toBe(200);
    expect(read.body.json_ld['@type']).toBe('Event');
    expect(read.headers.get('allow')).toBe('GET');

    for (const method of ['POST', 'PUT', 'PATCH']) {
      const r = await s.api(`/events/${created.id}`, { method, as: 'admin', body: { title: `Crud ${method}` } });
      expect(r.status, r.text).toBe(200);
      expect(r.body.title).toBe(`Crud ${method}`);
      expect(r.body).not.toHaveProperty('json_ld');
      expect(r.headers.get('allow')).toBe('GET, DELETE, POST, PUT, PATCH');
    }

    const trashed = await s.api(`/events/${created.id}`, { method: 'DELETE', as: 'admin' });
    expect(trashed.status).toBe(200);
    expect(trashed.body).toMatchObject({ status: 'trash', slug: 'crud-night__trashed' });
    expect(trashed.body.url).toMatch(/\/\?post_type=cal_events&p=\d+$/);

    const again = await s.api(`/events/${created.id}`, { method: 'DELETE', as: 'admin' });
    expect(again.status).toBe(410);
    expect(again.body.code).toBe('event-is-in-trash');

    const anon = await s.api(`/events/${created.id}`);
    expect([anon.status, anon.body.code]).toEqual([403, 'event-no-longer-available']);
    expect(anon.body.message).toBe('This event is no longer available');
    // An administrator reads it, as TEC 6.2.6 answers (sample GET_events_id_trashed_authenticated).
    const admin = await s.api(`/events/${created.id}`, { as: 'admin' });
    expect([admin.status, admin.body.status, admin.body.slug]).toEqual([200, 'trash', `${created.slug}__trashed`]);
    expect(admin.body.json_ld.url).toBe(`${admin.body.url}%2F/`);
    const subscriber = await s.api(`/events/${created.id}`, { as: 'subscriber' });
    expect([subscriber.status, subscriber.body.code]).toEqual([403, 'event-no-longer-available']);
  });

  it('answers 403 event-not-accessible for a draft the caller may not read', async () => {
    const draft = await event('Draft Read', '2026-12-05 19:00:00', '2026-12-05 20:00:00', { status: 'draft' });
    for (const as of [undefined, 'subscriber', 'author'] as const) {
      const r = await s.api(`/events/${draft.id}`, { as });
      expect([r.status, r.body.code, r.body.message], as ?? 'anonymous').toEqual([403, 'event-not-accessible', 'The requested event is not accessible']);
    }
    expect((await s.api(`/events/${draft.id}`, { as: 'editor' })).status).toBe(200);
  });

  it('answers 404 rest-event-not-found for an unknown ID on GET, update and DELETE', async () => {
    for (const [method, as] of [['GET', undefined], ['POST', 'admin'], ['DELETE', 'admin']] as const) {
      const r = await s.api('/events/999999', { method, as, body: method === 'POST' ? { title: 'x' } : undefined });
      expect([r.status, r.body.code], method).toEqual([404, 'rest-event-not-found']);
      expect(r.body.message).toBe('Event with ID 999999 does not exist.');
    }
  });

  it('answers 400 rest-invalid-event-id for a venue ID and 404 rest_no_route for a non-digit ID', async () => {
    const venue = await create('/venues', { venue: 'Not An Event Hall' });
    const r = await s.api(`/events/${venue.id}`);
    expect([r.status, r.body.code]).toEqual([400, 'rest-invalid-event-id']);
    const del = await s.api(`/events/${venue.id}`, { method: 'DELETE', as: 'admin' });
    expect([del.status, del.body.code]).toEqual([400, 'rest-invalid-event-id']);
    for (const path of ['/events/abc', '/events/12abc', '/events/-3', '/events/1.5']) {
      const n = await s.api(path);
      expect([n.status, n.body.code], path).toEqual([404, 'rest_no_route']);
      expect(n.headers.get('allow')).toBeNull();
    }
  });

  it('validates before authorizing: anonymous DELETE of an unknown event is 404, of a known one 401', async () => {
    expect((await s.api('/events/999999', { method: 'DELETE' })).status).toBe(404);
    const e = await event('Auth Order', '2026-12-06 10:00:00', '2026-12-06 11:00:00');
    const r = await s.api(`/events/${e.id}`, { method: 'DELETE' });
    expect([r.status, r.body.code]).toEqual([401, 'rest_forbidden']);
    expect(r.headers.get('allow')).toBe('GET');
  });

  it('refuses writes: 401 anonymous, 403 subscriber; contributors create pending events', async () => {
    const body = { title: 'Nope', start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 11:00:00' };
    const anon = await s.api('/events', { method: 'POST', body });
    expect([anon.status, anon.body.code]).toEqual([401, 'rest_forbidden']);
    const sub = await s.api('/events', { method: 'POST', as: 'subscriber', body });
    expect([sub.status, sub.body.code]).toEqual([403, 'rest_forbidden']);
    expect(sub.body.message).toBe('Sorry, you are not allowed to do that.');
    const contributor = await s.api('/events', { method: 'POST', as: 'contributor', body: { ...body, title: 'Contributed', status: 'publish' } });
    expect(contributor.status).toBe(201);
    expect(contributor.body.status).toBe('pending');
  });

  it('checks the record on update: an author may not edit an administrator’s event (403)', async () => {
    const e = await event('Admin Owned', '2026-12-06 10:00:00', '2026-12-06 11:00:00');
    const r = await s.api(`/events/${e.id}`, { method: 'POST', as: 'author', body: { title: 'Hijack' } });
    expect([r.status, r.body.code]).toEqual([403, 'rest_forbidden']);
    const d = await s.api(`/events/${e.id}`, { method: 'DELETE', as: 'subscriber' });
    expect([d.status, d.body.code]).toEqual([403, 'rest_forbidden']);
  });

  it('reports missing required parameters, all of them, and malformed JSON', async () => {
    const r = await s.api('/events', { method: 'POST', as: 'admin', body: { description: 'x' } });
    expect(r.status).toBe(400);
    expect(r.body).toMatchObject({ code: 'rest_missing_callback_param', message: 'Missing parameter(s): title, start_date, end_date', data: { status: 400, params: ['title', 'start_date', 'end_date'] } });
    const bad = await s.api('/events', { method: 'POST', as: 'admin', headers: { 'Content-Type': 'application/json' }, body: '{"title": ' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'rest_invalid_json', data: { status: 400, json_error_code: 4, json_error_message: 'Syntax error' } });
  });

  it('names the invalid parameter: bad date, unknown venue, bad boolean, bad website, bad status', async () => {
    const base = { title: 'Bad', start_date: '2026-12-01 10:00:00', end_date: '2026-12-01 11:00:00' };
    const cases: [Record<string, unknown>, string][] = [
      [{ start_date: 'garbage' }, 'start_date'],
      [{ end_date: '"before my birthday"' }, 'end_date'],
      [{ venue: 999999 }, 'venue'],
      [{ organizer: [999999] }, 'organizer'],
      [{ featured: 'yes' }, 'featured'],
      [{ website: 'not a url' }, 'website'],
      [{ status: 'bogus' }, 'status'],
      [{ description: '' }, 'description'],
      [{ author: 999999 }, 'author'],
      [{ timezone: 'Mars/Olympus' }, 'timezone'],
    ];
    for (const [extra, param] of cases) {
      const r = await s.api('/events', { method: 'POST', as: 'admin', body: { ...base, ...extra } });
      expect([r.status, r.body.code], JSON.stringify(extra)).toEqual([400, 'rest_invalid_param']);
      expect(Object.keys(r.body.data.params), JSON.stringify(extra)).toEqual([param]);
      expect(r.body.message).toBe(`Invalid parameter(s): ${param}`);
    }
    const typed = await s.api('/events', { method: 'POST', as: 'admin', body: { ...base, featured: 'yes' } });
    expect(typed.body.data).toMatchObject({ params: { featured: 'featured is not of type boolean.' }, details: { featured: { code: 'rest_invalid_type' } } });
  });
});

describe('by-slug routes', () => {
  it('reads, renames (path selects, body renames) and trashes by slug', async () => {
    const e = await event('Old Name', '2026-12-07 10:00:00', '2026-12-07 11:00:00');
    expect(e.slug).toBe('old-name');
    const read = await s.api('/events/by-slug/old-name');
    expect([read.status, read.body.id]).toEqual([200, e.id]);
    expect(read.body.json_ld).toBeDefined();

    const renamed = await s.api('/events/by-slug/old-name', { method: 'POST', as: 'admin', body: { slug: 'new-name' } });
    expect(renamed.status, renamed.text).toBe(200);
    expect([renamed.body.id, renamed.body.slug, renamed.body.title]).toEqual([e.id, 'new-name', 'Old Name']);
    expect((await s.api('/events/by-slug/old-name')).status).toBe(400);
    expect((await s.api('/events/by-slug/new-name')).body.id).toBe(e.id);

    const patched = await s.api('/events/by-slug/new-name', { method: 'PATCH', as: 'admin', body: { title: 'Patched By Slug' } });
    expect([patched.status, patched.body.slug, patched.body.title]).toEqual([200, 'new-name', 'Patched By Slug']);

    const del = await s.api('/events/by-slug/new-name', { method: 'DELETE', as: 'admin' });
    expect([del.status, del.body.status, del.body.id]).toEqual([200, 'trash', e.id]);
    const gone = await s.api('/events/by-slug/new-name');
    expect([gone.status, gone.body.code, Object.keys(gone.body.data.params)]).toEqual([400, 'rest_invalid_param', ['slug']]);
  });

  it('renaming onto another event’s slug does not touch that event', async () => {
    const a = await event('Slug Owner', '2026-12-07 10:00:00', '2026-12-07 11:00:00');
    const b = await event('Slug Taker', '2026-12-07 12:00:00', '2026-12-07 13:00:00');
    const r = await s.api('/events/by-slug/slug-taker', { method: 'POST', as: 'admin', body: { slug: 'slug-owner', title: 'Taker Renamed' } });
    expect(r.status).toBe(200);
    expect(r.body.id).toBe(b.id);
    expect(r.body.slug).toBe('slug-owner-2');
    const owner = await s.api(`/events/${a.id}`);
    expect([owner.body.title, owner.body.slug]).toEqual(['Slug Owner', 'slug-owner']);
  });

  it('matches normalized slugs; a slug normalizing to nothing matches nothing', async () => {
    await event('Case Test', '2026-12-07 10:00:00', '2026-12-07 11:00:00');
    expect((await s.api('/events/by-slug/Case-Test')).status).toBe(200);
    for (const slug of ['%21%21%21', '%20', '---', '%E2%9C%93']) {
      const r = await s.api(`/events/by-slug/${slug}`);
      expect([r.status, r.body.code], slug).toEqual([400, 'rest_invalid_param']);
    }
  });
});

describe('the path addresses the record', () => {
  it('a query or body `id` never redirects a write to another record', async () => {
    const a = await event('Target A', '2026-12-08 10:00:00', '2026-12-08 11:00:00');
    const b = await event('Target B', '2026-12-08 12:00:00', '2026-12-08 13:00:00');
    const q = await s.api(`/events/${b.id}?id=${a.id}`, { method: 'POST', as: 'admin', body: { title: 'B via query' } });
    expect([q.status, q.body.id, q.body.title]).toEqual([200, b.id, 'B via query']);
    const body = await s.api(`/events/${b.id}`, { method: 'POST', as: 'admin', body: { id: a.id, title: 'B via body' } });
    expect([body.status, body.body.id, body.body.title]).toEqual([200, b.id, 'B via body']);
    const del = await s.api(`/events/${b.id}?id=${a.id}`, { method: 'DELETE', as: 'admin' });
    expect(del.body.id).toBe(b.id);
    expect((await s.api(`/events/${a.id}`)).body.title).toBe('Target A');
  });
});

describe('partial updates (REC §7.10)', () => {
  it('keeps every field that is not sent', async () => {
    const org = await create('/organizers', { organizer: 'Partial Org' });
    const venue = await create('/venues', { venue: 'Partial Hall' });
    const cat = await create('/categories', { name: 'Partial Cat' });
    const e = await event('Partial', '2026-12-09 19:00:00', '2026-12-09 21:00:00', {
      timezone: 'Europe/Paris',
      cost: '$20',
      website: 'https://example.com/p',
      featured: true,
      sticky: true,
      show_map: true,
      show_map_link: true,
      organizer: [org.id],
      venue: venue.id,
      categories: [cat.id],
      tags: ['partial-tag'],
      status: 'draft',
      excerpt: 'Short',
    });
    const r = await s.api(`/events/${e.id}`, { method: 'POST', as: 'admin', body: { title: 'Partial 2' } });
    expect(r.status).toBe(200);
    const { title, modified, modified_utc, ...rest } = r.body;
    const { title: _t, modified: _m, modified_utc: _mu, ...before } = e;
    expect(title).toBe('Partial 2');
    expect(rest).toEqual(before);
    expect(rest).toMatchObject({ status: 'draft', timezone: 'Europe/Paris', cost: '$20', website: 'https://example.com/p', featured: true });

    const end = await s.api(`/events/${e.id}`, { method: 'POST', as: 'admin', body: { end_date: '2026-12-09 23:00:00' } });
    expect([end.body.start_date, end.body.end_date]).toEqual(['2026-12-09 19:00:00', '2026-12-09 23:00:00']);
    const unlink = await s.api(`/events/${e.id}`, { method: 'POST', as: 'admin', body: { venue: 0, organizer: [], categories: [], tags: '' } });
    expect([unlink.body.venue, unlink.body.organizer, unlink.body.categories, unlink.body.tags]).toEqual([[], [], [], []]);
  });
});

describe('GET /events', () => {
  const created: Record<string, number> = {};
  beforeAll(async () => {
    await s.reset();
    const music = await create('/categories', { name: 'Music' });
    const jazz = await create('/categories', { name: 'Jazz', parent: music.id });
    const talks = await create('/categories', { name: 'Talks' });
    const near = await s.graphql('mutation($i: CreateVenueInput!) { createVenue(input: $i) { ... on CreateVenueSuccess { venue { databaseId } } ... on Error { message } } }', {
      i: { name: 'Near Hall', latitude: 40.7128, longitude: -74.006 },
    });
    const far = await s.graphql('mutation($i: CreateVenueInput!) { createVenue(input: $i) { ... on CreateVenueSuccess { venue { databaseId } } ... on Error { message } } }', {
      i: { name: 'Far Hall', latitude: 34.0522, longitude: -118.2437 },
    });
    const plain = await create('/venues', { venue: 'No Coordinates Hall' });
    const org = await create('/organizers', { organizer: 'List Org' });
    created.music = music.id;
    created.jazz = jazz.id;
    created.talks = talks.id;
    created.near = near.data.createVenue.venue.databaseId;
    created.far = far.data.createVenue.venue.databaseId;
    created.plain = plain.id;
    created.org = org.id;
    created.jazzNight = (await event('Jazz Night', '2026-12-05 19:00:00', '2026-12-05 22:00:00', { categories: [jazz.id], tags: ['outdoor'], venue: created.near, featured: true })).id;
    created.talk = (await event('Science Talk', '2026-12-10 09:00:00', '2026-12-10 10:00:00', { categories: [talks.id], venue: created.far, organizer: [org.id], description: 'A talk about stars' })).id;
    created.rock = (await event('Rock Show', '2026-12-12 20:00:00', '2026-12-12 23:00:00', { categories: [music.id], tags: ['outdoor', 'loud'], venue: created.plain })).id;
    created.hidden = (await event('Hidden Event', '2026-12-11 10:00:00', '2026-12-11 11:00:00', { hide_from_listings: true, categories: [music.id] })).id;
    created.past = (await event('Past Event', '2026-10-01 10:00:00', '2026-10-01 11:00:00')).id;
    created.draft = (await event('Draft Event', '2026-12-13 10:00:00', '2026-12-13 11:00:00', { status: 'draft' })).id;
    created.far2027 = (await event('Next Year', '2027-06-01 10:00:00', '2027-06-01 11:00:00')).id;
  });

  it('lists upcoming published, listable events by start (default window), with X-TEC headers', async () => {
    const r = await s.api('/events');
    expect(r.status).toBe(200);
    expect(ids(r.body)).toEqual([created.jazzNight, created.talk, created.rock, created.far2027]);
    expect([r.body.total, r.body.total_pages]).toEqual([4, 1]);
    expect(r.headers.get('x-tec-total')).toBe('4');
    expect(r.headers.get('x-tec-totalpages')).toBe('1');
    expect(r.headers.get('vary')).toBe('Origin, Accept-Encoding'); // compressible: negotiated
    expect(r.body.rest_url).toBe(`${s.base}/wp-json/cal/events/v1/events/?page=1&per_page=10&start_date=2026-11-20 00:00:00&end_date=2028-11-21 23:59:59&status=publish`);
  });

  it('never lists hide_from_listings events (also with include), but they stay readable singly', async () => {
    const all = await s.api('/events?per_page=50&start_date=2020-01-01', { as: 'admin' });
    expect(ids(all.body)).not.toContain(created.hidden);
    expect(ids((await s.api(`/events?include=${created.hidden},${created.rock}`)).body)).toEqual([created.rock]);
    expect((await s.api(`/events/${created.hidden}`)).status).toBe(200);
  });

  it('pages: per_page, page, capped per_page, past-the-end 404, invalid values 400', async () => {
    const p1 = await s.api('/events?per_page=2');
    expect(ids(p1.body)).toEqual([created.jazzNight, created.talk]);
    expect([p1.body.total, p1.body.total_pages]).toEqual([4, 2]);
    expect(p1.body.next_rest_url).toMatch(/per_page=2&start_date=2026-11-20\+00%3A00%3A00&.*&page=2$/);
    expect(p1.body).not.toHaveProperty('previous_rest_url');
    const p2 = await s.api('/events?per_page=2&page=2');
    expect(ids(p2.body)).toEqual([created.rock, created.far2027]);
    expect(p2.body).not.toHaveProperty('next_rest_url');
    expect(p2.body.previous_rest_url).not.toMatch(/page=1/);

    const capped = await s.api('/events?per_page=100');
    expect(capped.status).toBe(200);
    expect(capped.body.rest_url).toContain('per_page=50');

    const past = await s.api('/events?page=3&per_page=2');
    expect([past.status, past.body.code]).toEqual([404, 'event-archive-page-not-found']);
    for (const q of ['per_page=0', 'per_page=abc', 'per_page=-1', 'page=0', 'page=abc', 'page=1.5', 'page=99999999999', 'per_page=99999999999999999999']) {
      const r = await s.api(`/events?${q}`);
      expect([r.status, r.body.code], q).toEqual([400, 'rest_invalid_param']);
      expect(Object.keys(r.body.data.params), q).toEqual([q.split('=')[0]]);
    }
    expect((await s.api('/events?page=2147483647')).status).toBe(404);
  });

  it('date bounds: start_date/end_date whole days, starts_after, strict_dates, garbage → 400', async () => {
    const range = await s.api('/events?start_date=2026-12-05&end_date=2026-12-10');
    expect(ids(range.body)).toEqual([created.jazzNight, created.talk]);
    expect(range.body.rest_url).toContain('start_date=2026-12-05 00:00:00&end_date=2026-12-10 23:59:59');

    const after = await s.api('/events?starts_after=2026-12-10+00:00:00');
    expect(ids(after.body)).toEqual([created.rock, created.far2027]);
    expect(after.body.rest_url).toContain('starts_after=2026-12-10 23:59:59');
    expect(after.body.rest_url).not.toContain('start_date');

    const past = await s.api('/events?start_date=2026-01-01&end_date=2026-10-31');
    expect(ids(past.body)).toEqual([created.past]);

    // 02:30 UTC on Dec 6 is 21:30 in New York: Jazz Night (ends 22:00) ends after it; as a whole day it does not.
    const strict = await s.api('/events?start_date=2026-12-01&end_date=2026-12-06T02:30:00Z&strict_dates=true');
    expect(ids(strict.body)).toEqual([]);
    expect(strict.body.rest_url).toContain('end_date=2026-12-05+21%3A30%3A00');
    expect(ids((await s.api('/events?start_date=2026-12-01&end_date=2026-12-06T03:30:00Z&strict_dates=1')).body)).toEqual([created.jazzNight]);
    expect(ids((await s.api('/events?start_date=2026-12-01&end_date=2026-12-06T02:30:00Z')).body)).toEqual([created.jazzNight]);
    expect((await s.api('/events?strict_dates=')).status).toBe(400);

    for (const q of ['start_date=garbage', 'end_date=not%20a%20date', 'starts_before=%22before%20my%20birthday%22', 'ends_after=']) {
      const r = await s.api(`/events?${q}`);
      expect([r.status, Object.keys(r.body.data?.params ?? {})], q).toEqual([400, [q.split('=')[0]]]);
    }
  });

  it('categories (ID or slug, with descendants) and tags; unknown → 400', async () => {
    expect(ids((await s.api(`/events?categories=${created.music}`)).body)).toEqual([created.jazzNight, created.rock]);
    expect(ids((await s.api('/events?categories=music')).body)).toEqual([created.jazzNight, created.rock]);
    expect(ids((await s.api('/events?categories=jazz,talks')).body)).toEqual([created.jazzNight, created.talk]);
    expect(ids((await s.api(`/events?categories[]=${created.talks}`)).body)).toEqual([created.talk]);
    expect(ids((await s.api('/events?tags=loud')).body)).toEqual([created.rock]);
    expect(ids((await s.api('/events?tags=outdoor')).body)).toEqual([created.jazzNight, created.rock]);
    for (const q of ['categories=999999', 'categories=no-such-cat', `categories=${created.music},nope`, 'tags=999999', 'tags=nope']) {
      const r = await s.api(`/events?${q}`);
      expect([r.status, Object.keys(r.body.data?.params ?? {})], q).toEqual([400, [q.split('=')[0]]]);
    }
  });

  it('venue, organizer, featured, search, include', async () => {
    expect(ids((await s.api(`/events?venue=${created.near}`)).body)).toEqual([created.jazzNight]);
    expect(ids((await s.api(`/events?venue=${created.near},${created.far}`)).body)).toEqual([created.jazzNight, created.talk]);
    expect(ids((await s.api(`/events?organizer=${created.org}`)).body)).toEqual([created.talk]);
    expect((await s.api(`/events?venue=${created.org}`)).status).toBe(400);
    expect((await s.api('/events?venue=abc')).status).toBe(400);
    expect(ids((await s.api('/events?featured=true')).body)).toEqual([created.jazzNight]);
    expect(ids((await s.api('/events?featured=0')).body)).toEqual([created.talk, created.rock, created.far2027]);
    expect((await s.api('/events?featured=maybe')).status).toBe(400);
    expect(ids((await s.api('/events?search=jazz')).body)).toEqual([created.jazzNight]);
    expect(ids((await s.api('/events?search=STARS')).body)).toEqual([created.talk]);
    expect(ids((await s.api('/events?search=nothing-matches')).body)).toEqual([]);
    expect((await s.api('/events?search=')).status).toBe(400);
    const inc = await s.api(`/events?include=${created.rock},${created.past}`);
    expect(ids(inc.body)).toEqual([created.rock, created.past]);
    expect((await s.api('/events?include=1,abc')).status).toBe(400);
  });

  it('status: anonymous may ask only for publish; editors see drafts and trash', async () => {
    const anon = await s.api('/events?status=draft');
    expect([anon.status, anon.body.code, Object.keys(anon.body.data.params)]).toEqual([400, 'rest_invalid_param', ['status']]);
    expect((await s.api('/events?status=publish')).status).toBe(200);
    expect((await s.api('/events?status=draft', { as: 'subscriber' })).status).toBe(400);
    const drafts = await s.api('/events?status=draft', { as: 'editor' });
    expect(ids(drafts.body)).toEqual([created.draft]);
    expect(drafts.body.rest_url).toContain('status=draft');
    const admin = await s.api('/events', { as: 'admin' });
    expect(ids(admin.body)).toContain(created.draft);
    expect(admin.body.rest_url).toContain('status=any');
    expect((await s.api('/events?status=bogus', { as: 'admin' })).status).toBe(400);
    expect((await s.api('/events?status=any', { as: 'admin' })).status).toBe(400);
  });

  it('geoloc: the ±25 mile box around a point; ticketed=true → 400 event-tickets-not-active', async () => {
    const near = await s.api('/events?geoloc=true&geoloc_lat=40.75&geoloc_lng=-73.99');
    expect(ids(near.body)).toEqual([created.jazzNight]);
    const la = await s.api('/events?geoloc=1&geoloc_lat=34.05&geoloc_lng=-118.24');
    expect(ids(la.body)).toEqual([created.talk]);
    const any = await s.api('/events?geoloc=true&geoloc_lat=40.75');
    expect(ids(any.body)).toEqual([created.jazzNight, created.talk]);
    expect(ids((await s.api('/events?geoloc=true')).body)).toHaveLength(4);
    expect((await s.api('/events?geoloc=perhaps')).status).toBe(400);

    const t = await s.api('/events?ticketed=true');
    expect(t.status).toBe(400);
    expect(t.body.data.params).toEqual({ ticketed: 'Event Tickets plugin is not activated.' });
    expect(t.body.data.details.ticketed.code).toBe('event-tickets-not-active');
    expect((await s.api('/events?ticketed=false')).status).toBe(200);
    expect((await s.api('/events?ticketed=maybe')).status).toBe(400);
  });
});

describe('password-protected events (§3.2)', () => {
  it('403 without the password, 200 with it; lists redact', async () => {
    const e = await event('Secret Gala', '2026-12-20 19:00:00', '2026-12-20 23:00:00', { description: 'Secret body', cost: '99', website: 'https://example.com/secret' });
    await s.db.prisma.event.update({ where: { id: e.id }, data: { password: 'opensesame' } });

    const locked = await s.api(`/events/${e.id}`);
    expect([locked.status, locked.body.code]).toEqual([403, 'event-password-protected']);
    expect(locked.body.message).toBe('The requested event is not accessible without a password');
    expect((await s.api(`/events/${e.id}?password=wrong`)).status).toBe(403);
    expect((await s.api('/events/by-slug/secret-gala')).status).toBe(403);

    const open = await s.api(`/events/${e.id}?password=opensesame`);
    expect(open.status).toBe(200);
    expect(open.body.description).toBe('<p>Secret body</p>');
    expect(open.body.json_ld).toBeDefined();
    expect((await s.api(`/events/${e.id}?context=edit`, { as: 'admin' })).status).toBe(200);

    const list = await s.api('/events?search=secret');
    const item = list.body.events.find((x: { id: number }) => x.id === e.id);
    expect(item).toMatchObject({ title: 'Secret Gala', description: '', cost: '', website: '', featured: null, categories: [], venue: [] });
    expect(item.cost_details).toEqual({ currency_symbol: '', currency_position: '', currency_code: '', values: [] });
    const unlocked = await s.api('/events?search=secret&password=opensesame');
    expect(unlocked.body.events[0].description).toBe('<p>Secret body</p>');
  });
});
