import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// The origin cache (src/server/cache/) on the real app: every kind of write through
// REST and through GraphQL, read before and after through both APIs, never answers stale.
let s: TestServer;
beforeAll(async () => {
  s = await startTestServer();
});
afterAll(() => s?.close());

const LIST = `query List { events(perPage: 50) { nodes { databaseId title status venues { name } categories { name count } } } }`;

async function gqlAnon<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const r = await s.request('/graphql', { method: 'POST', body: { query, variables } });
  expect(r.status).toBe(200);
  expect(r.body.errors).toBeUndefined();
  return r.body.data as T;
}
async function gqlAdmin<T = any>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const r = await s.graphql<T>(query, variables);
  expect(r.errors).toBeUndefined();
  return r.data as T;
}
/** Both APIs' anonymous views of the default event list, twice each (the second is a cache hit). */
async function views() {
  const read = async () => {
    const rest = await s.api('/events?per_page=50');
    expect(rest.status).toBe(200);
    const gql = (await gqlAnon(LIST)).events.nodes as { databaseId: number; title: string; venues: { name: string }[]; categories: { name: string; count: number }[] }[];
    return {
      rest: (rest.body.events as { id: number; title: string; venue?: { venue: string }; categories: { name: string; count?: number }[] }[]).map((e) => ({
        id: e.id,
        title: e.title,
        venue: e.venue && 'venue' in e.venue ? e.venue.venue : null,
        categories: e.categories.map((c) => c.name),
      })),
      gql: gql.map((e) => ({ id: e.databaseId, title: e.title, venue: e.venues[0]?.name ?? null, categories: e.categories.map((c) => c.name) })),
    };
  };
  const first = await read();
  const hits = s.cache.hits;
  const second = await read();
  expect(s.cache.hits).toBeGreaterThan(hits); // the cache is in play
  expect(second).toEqual(first);
  expect(first.gql).toEqual(first.rest);
  return first.rest;
}
const titles = async () => (await views()).map((e) => e.title);
const event = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: '2026-12-20 10:00:00',
  end_date: '2026-12-20 11:00:00',
  status: 'publish',
  ...extra,
});

describe('response cache: writes are seen at once by both APIs', { timeout: 60_000 }, () => {
  it('REST writes: create, update, trash, restore, delete', async () => {
    expect(await titles()).toEqual([]);
    const created = await s.api('/events', { method: 'POST', as: 'admin', body: event('Rest One') });
    expect(created.status).toBe(201);
    const id = created.body.id as number;
    expect(await titles()).toEqual(['Rest One']);
    expect((await s.api(`/events/${id}`)).body.title).toBe('Rest One');
    expect((await s.api(`/events/${id}`, { method: 'POST', as: 'admin', body: { title: 'Rest Renamed' } })).status).toBe(200);
    expect(await titles()).toEqual(['Rest Renamed']);
    expect((await s.api(`/events/${id}`)).body.title).toBe('Rest Renamed');
    expect((await s.api(`/events/${id}`, { method: 'DELETE', as: 'admin' })).status).toBe(200); // to the trash
    expect(await titles()).toEqual([]);
    expect((await s.api(`/events/${id}`)).status).not.toBe(200);
    expect((await gqlAdmin(`mutation($id: ID) { restoreEvent(id: $id) { ... on RestoreEventSuccess { event { status } } } }`, { id })).restoreEvent.event.status).not.toBe('TRASH');
    // Restored to draft or publish, as the core decides; republish to be sure it is listed.
    await s.api(`/events/${id}`, { method: 'POST', as: 'admin', body: { status: 'publish' } });
    expect(await titles()).toEqual(['Rest Renamed']);
    expect((await s.api(`/events/${id}?force=true`, { method: 'DELETE', as: 'admin' })).status).toBe(200);
    expect(await titles()).toEqual([]);
    expect((await s.api(`/events/${id}`)).status).not.toBe(200);
    // REST DELETE trashes (there is no force for events); an administrator reads the trashed event
    // as the plugin answers it, with its new status, never a cached published copy.
    expect((await s.api(`/events/${id}`, { as: 'admin' })).body.status).toBe('trash');
  });

  it('GraphQL writes: create, update, delete, restore, purge', async () => {
    const made = await gqlAdmin(`mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId } } } }`, {
      input: { title: 'Gql One', startDate: '2026-12-21 10:00:00', endDate: '2026-12-21 11:00:00', status: 'PUBLISH' },
    });
    const id = made.createEvent.event.databaseId as number;
    expect(await titles()).toEqual(['Gql One']);
    await gqlAdmin(`mutation($id: ID) { updateEvent(id: $id, input: { title: "Gql Renamed" }) { ... on UpdateEventSuccess { event { title } } } }`, { id });
    expect(await titles()).toEqual(['Gql Renamed']);
    expect((await gqlAnon(`query One($id: ID) { event(id: $id) { title } }`, { id })).event.title).toBe('Gql Renamed');
    await gqlAdmin(`mutation($id: ID) { deleteEvent(id: $id) { ... on DeleteEventSuccess { event { status } } } }`, { id });
    expect(await titles()).toEqual([]);
    expect((await gqlAnon(`query One($id: ID) { event(id: $id) { title } }`, { id })).event).toBeNull();
    await gqlAdmin(`mutation($id: ID) { restoreEvent(id: $id) { ... on RestoreEventSuccess { event { status } } } }`, { id });
    await gqlAdmin(`mutation($id: ID) { updateEvent(id: $id, input: { status: PUBLISH }) { ... on UpdateEventSuccess { event { title } } } }`, { id });
    expect(await titles()).toEqual(['Gql Renamed']);
    await gqlAdmin(`mutation($id: ID) { deleteEvent(id: $id) { __typename } }`, { id });
    expect(await titles()).toEqual([]);
    await gqlAdmin(`mutation($id: ID) { restoreEvent(id: $id) { __typename } }`, { id });
    await gqlAdmin(`mutation($id: ID) { updateEvent(id: $id, input: { status: PUBLISH }) { __typename } }`, { id });
    expect(await titles()).toEqual(['Gql Renamed']);
    expect((await s.api(`/events/${id}?force=true`, { method: 'DELETE', as: 'admin' })).status).toBe(200);
    expect(await titles()).toEqual([]);
  });

  it('a venue rename shows in the event that embeds it; a term rename and count move', async () => {
    const venue = await s.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'Old Hall' } });
    const cat = await s.api('/categories', { method: 'POST', as: 'admin', body: { name: 'Jazz' } });
    expect([venue.status, cat.status]).toEqual([201, 201]);
    const created = await s.api('/events', { method: 'POST', as: 'admin', body: event('With Venue', { venue: venue.body.id, categories: [cat.body.id] }) });
    expect(created.status).toBe(201);
    expect(await views()).toEqual([{ id: created.body.id, title: 'With Venue', venue: 'Old Hall', categories: ['Jazz'] }]);
    const countOf = async () => (await s.api(`/categories/${cat.body.id}`)).body.count;
    expect(await countOf()).toBe(1);
    expect(await countOf()).toBe(1);

    expect((await s.api(`/venues/${venue.body.id}`, { method: 'POST', as: 'admin', body: { venue: 'New Hall' } })).status).toBe(200);
    expect((await views())[0]!.venue).toBe('New Hall');
    await gqlAdmin(`mutation($id: ID!) { updateEventCategory(id: $id, input: { name: "Blues" }) { __typename } }`, { id: cat.body.id });
    expect((await views())[0]!.categories).toEqual(['Blues']);

    // A second event in the category: the term's count moves in both APIs.
    const second = await s.api('/events', { method: 'POST', as: 'admin', body: event('Second', { categories: [cat.body.id] }) });
    expect(second.status).toBe(201);
    expect(await countOf()).toBe(2);
    expect((await gqlAnon(`query C($id: ID) { eventCategory(id: $id) { count } }`, { id: cat.body.id })).eventCategory.count).toBe(2);
    await s.api(`/events/${second.body.id}?force=true`, { method: 'DELETE', as: 'admin' });
    expect(await countOf()).toBe(1);
    expect((await gqlAnon(`query C($id: ID) { eventCategory(id: $id) { count } }`, { id: cat.body.id })).eventCategory.count).toBe(1);
    await s.api(`/events/${created.body.id}?force=true`, { method: 'DELETE', as: 'admin' });
  });

  it("visibility: an admin's cached draft never reaches anonymous; a password read is not cached", async () => {
    const draft = await s.api('/events', { method: 'POST', as: 'admin', body: event('Secret Draft', { status: 'draft' }) });
    expect(draft.status).toBe(201);
    const asAdmin = await s.api('/events?status=draft', { as: 'admin' });
    expect(asAdmin.body.events.map((e: { title: string }) => e.title)).toEqual(['Secret Draft']);
    const adminGql = await gqlAdmin(`query One($id: ID) { event(id: $id) { title } }`, { id: draft.body.id });
    expect(adminGql.event.title).toBe('Secret Draft');
    expect((await gqlAnon(`query One($id: ID) { event(id: $id) { title } }`, { id: draft.body.id })).event).toBeNull();
    expect((await s.api(`/events/${draft.body.id}`)).status).not.toBe(200);
    expect((await s.api(`/events/${draft.body.id}`, { as: 'admin' })).status).toBe(200);
    expect((await s.api(`/events/${draft.body.id}`)).status).not.toBe(200);

    const locked = await s.api('/events', { method: 'POST', as: 'admin', body: event('Locked') });
    expect(locked.status).toBe(201);
    // No API sets a post password: the database is written behind the services' back, so the
    // cache is told by hand (as test/helpers/server.ts `reset` does).
    await s.db.prisma.event.update({ where: { id: locked.body.id }, data: { password: 'pw1' } });
    s.cache.clear();
    const misses = s.cache.misses;
    const hits = s.cache.hits;
    expect((await s.api(`/events/${locked.body.id}?password=pw1`)).status).toBe(200);
    expect((await s.api(`/events/${locked.body.id}?password=pw1`)).status).toBe(200);
    expect([s.cache.hits, s.cache.misses]).toEqual([hits, misses]); // neither stored nor served
    expect((await s.api(`/events/${locked.body.id}`)).status).toBe(403);
    for (const id of [draft.body.id, locked.body.id]) await s.api(`/events/${id}?force=true`, { method: 'DELETE', as: 'admin' });
  });
});

describe('HTTP validators and cache policy', { timeout: 60_000 }, () => {
  it('REST GET: weak ETag, 304 on If-None-Match, public for anonymous; a write changes the ETag', async () => {
    const created = await s.api('/events', { method: 'POST', as: 'admin', body: event('Tagged') });
    const first = await s.api('/events');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=0');
    const again = await s.api('/events', { headers: { 'If-None-Match': etag } });
    expect([again.status, again.text]).toEqual([304, '']);
    const admin = await s.api('/events', { as: 'admin' });
    expect(admin.headers.get('cache-control')).toBe('no-cache, must-revalidate, max-age=0'); // WordPress's, unchanged
    await s.api(`/events/${created.body.id}`, { method: 'POST', as: 'admin', body: { title: 'Retagged' } });
    const after = await s.api('/events', { headers: { 'If-None-Match': etag } });
    expect(after.status).toBe(200);
    expect(after.body.events.find((e: { id: number }) => e.id === created.body.id).title).toBe('Retagged');
    expect(after.headers.get('etag')).not.toBe(etag);
    await s.api(`/events/${created.body.id}?force=true`, { method: 'DELETE', as: 'admin' });
  });

  it('GraphQL GET: ETag and 304; private for signed-in callers; POST and errors carry no ETag', async () => {
    const url = `/graphql?query=${encodeURIComponent('{ events { nodes { title } } }')}`;
    const headers = { 'x-graphql-yoga-csrf': '1' };
    const first = await s.request(url, { headers });
    expect(first.status).toBe(200);
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^W\/"/);
    expect(first.headers.get('cache-control')).toBe('public, max-age=0');
    expect((await s.request(url, { headers: { ...headers, 'If-None-Match': etag } })).status).toBe(304);
    const signedIn = await s.request(url, { headers, as: 'admin' });
    expect(signedIn.headers.get('cache-control')).toBe('private, no-cache');
    const post = await s.request('/graphql', { method: 'POST', body: { query: '{ events { nodes { title } } }' } });
    expect(post.headers.get('etag')).toBeNull();
    const bad = await s.request(`/graphql?query=${encodeURIComponent('{ nope }')}`, { headers });
    expect(bad.headers.get('etag')).toBeNull();
  });
});
