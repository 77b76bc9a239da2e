import { describe, expect, it } from 'vitest';
import { useGraphQLHarness, type GraphQLHarness } from '../helpers/graphql.ts';
import { JAZZ_NIGHT_FIELDS } from '../helpers/samples.ts';

// A fixed clock: the default list window is computed from it (contract §5.5).
const NOW = new Date('2026-11-21T11:55:56Z');
let h: GraphQLHarness;
useGraphQLHarness((harness) => (h = harness), { now: () => NOW });

const EVENT_SELECTION = `
    databaseId status slug title description excerpt startDate endDate startDateUtc endDateUtc timezone timezoneAbbr allDay
    cost costValues website showMap showMapLink featured
    categories { databaseId name slug parentId count }
    tags { databaseId name slug count }
    venues { databaseId name slug city }
    organizers { databaseId name }
`;
/** A write's answer: its payload's event, or the typed error. */
const EVENT_FIELDS = (payload: string) => `
  ... on ${payload} { event { ${EVENT_SELECTION} } }
  ... on Error { __typename code message }
  ... on ValidationError { field }
`;
const written = (r: { event?: any }): any => r.event ?? r;

const CREATE = `mutation($input: CreateEventInput!) { createEvent(input: $input) { ${EVENT_FIELDS('CreateEventSuccess')} } }`;
const UPDATE = `mutation($id: ID, $slug: String, $input: UpdateEventInput!) { updateEvent(id: $id, slug: $slug, input: $input) { ${EVENT_FIELDS('UpdateEventSuccess')} } }`;
const GET = `query($id: ID, $slug: String) { event(id: $id, slug: $slug) { __typename ${EVENT_SELECTION} } }`;
const LIST = `query($filter: EventFilter, $page: Int, $perPage: Int) {
  events(filter: $filter, page: $page, perPage: $perPage) {
    totalCount totalPages page perPage window { startDate endDate startsAfter } edges { node { databaseId title startDate } }
  }
}`;

const create = async (input: Record<string, unknown>, as: NonNullable<Parameters<typeof h.gql>[2]>['as'] = 'ADMINISTRATOR') =>
  written((await h.ok(CREATE, { input }, { as, now: NOW })).createEvent);
const update = async (variables: { id?: number | string; slug?: string; input: Record<string, unknown> }) => written((await h.ok(UPDATE, variables)).updateEvent);

describe('Mutation.createEvent', () => {
  it('stores local wall time, time zone and UTC exactly, and renders text', async () => {
    const e = await create({
      title: 'Summer Jazz Night',
      description: 'Live jazz on the lawn.',
      startDate: '2026-12-05 19:00:00',
      endDate: '2026-12-05 22:30:00',
      cost: ['$15'],
      website: 'https://example.com/jazz',
    });
    expect(e).toMatchObject({
      status: 'PUBLISH',
      slug: 'summer-jazz-night',
      title: 'Summer Jazz Night',
      description: '<p>Live jazz on the lawn.</p>',
      ...JAZZ_NIGHT_FIELDS,
      showMap: false,
      showMapLink: false,
    });
  });

  it('clamps an end before the start, in local and UTC time', async () => {
    const e = await create({ title: 'Backwards', startDate: '2026-12-10 20:00:00', endDate: '2026-12-10 18:00:00' });
    expect(e.endDate).toBe('2026-12-10 20:00:00');
    expect(e.endDateUtc).toBe(e.startDateUtc);
  });

  it('makes all-day events span whole days in their own time zone', async () => {
    const e = await create({ title: 'Paris fair', startDate: '2026-12-12', endDate: '2026-12-13', allDay: true, timezone: 'Europe/Paris' });
    expect(e).toMatchObject({
      allDay: true,
      startDate: '2026-12-12 00:00:00',
      endDate: '2026-12-13 23:59:59',
      startDateUtc: '2026-12-11 23:00:00',
      endDateUtc: '2026-12-13 22:59:59',
      timezone: 'Europe/Paris',
    });
  });

  it('links venues and organizers by ID or creates them inline, and terms by ID, slug or name', async () => {
    const venue = (await h.ok(`mutation { createVenue(input: { name: "Grand Hall", city: "Springfield" }) { ... on CreateVenueSuccess { venue { databaseId } } } }`)).createVenue.venue;
    const e = await create({
      title: 'Gala',
      startDate: '2026-12-20 19:00',
      endDate: '2026-12-20 23:00',
      venues: [{ id: venue.databaseId }],
      organizers: [{ create: { name: 'Jane Org', email: 'jane@example.com' } }, { create: { name: 'Bob Org' } }],
      categories: ['Music', 'Theatre'],
      tags: ['outdoor'],
    });
    expect(e.venues).toEqual([{ databaseId: venue.databaseId, name: 'Grand Hall', slug: 'grand-hall', city: 'Springfield' }]);
    expect(e.organizers.map((o: { name: string }) => o.name)).toEqual(['Jane Org', 'Bob Org']);
    expect(e.categories.map((c: { slug: string }) => c.slug)).toEqual(['music', 'theatre']);
    expect(e.categories[0].count).toBe(1);
    expect(e.tags.map((c: { name: string }) => c.name)).toEqual(['outdoor']);

    // The same names again reuse the records: no duplicate organizer, no duplicate term.
    const again = await create({ title: 'Gala 2', startDate: '2026-12-21 19:00', endDate: '2026-12-21 23:00', organizers: [{ create: { name: 'jane org' } }], categories: ['music', String(e.categories[1].databaseId), '999999'] });
    expect(again.organizers[0].databaseId).toBe(e.organizers[0].databaseId);
    expect(again.categories.map((c: { databaseId: number }) => c.databaseId).sort()).toEqual(e.categories.map((c: { databaseId: number }) => c.databaseId).sort());
  });

  it('gives events, venues and organizers IDs from one space', async () => {
    const e = await create({ title: 'A', startDate: '2026-12-20 19:00', endDate: '2026-12-20 20:00', venues: [{ create: { name: 'V' } }], organizers: [{ create: { name: 'O' } }] });
    const ids = [e.databaseId, e.venues[0].databaseId, e.organizers[0].databaseId];
    expect(new Set(ids).size).toBe(3);
    expect(await h.refused(GET, { id: e.venues[0].databaseId })).toMatchObject({ type: 'ValidationError', code: 'WRONG_KIND', field: 'id' });
  });

  it('gives concurrent creates of the same title distinct slugs', async () => {
    const input = { title: 'Jazz Night', startDate: '2026-12-20 19:00', endDate: '2026-12-20 20:00' };
    const results = await Promise.all(Array.from({ length: 5 }, () => h.gql(CREATE, { input }, { now: NOW })));
    const slugs = results.map((r) => r.data.createEvent.event.slug);
    expect(new Set(slugs).size).toBe(5);
    expect(slugs).toContain('jazz-night');
    expect(slugs).toContain('jazz-night-2');
  });

  it.each([
    [{ title: '', startDate: '2026-12-20', endDate: '2026-12-20' }, 'title'],
    [{ title: 'X', startDate: 'garbage', endDate: '2026-12-20' }, 'startDate'],
    [{ title: 'X', startDate: '2026-12-20', endDate: '2026-12-20', timezone: 'Mars/Olympus' }, 'timezone'],
    [{ title: 'X', startDate: '2026-12-20', endDate: '2026-12-20', website: 'not a url' }, 'website'],
    [{ title: 'X', startDate: '2026-12-20', endDate: '2026-12-20', venues: [{ id: 999999 }] }, 'venue'],
    [{ title: 'X', startDate: '2026-12-20', endDate: '2026-12-20', venues: [{ create: { name: ' ' } }] }, 'venue'],
    [{ title: 'X', startDate: '2026-12-20', endDate: '2026-12-20', image: '424242' }, 'image'],
    [{ title: 'X', startDate: '2026-12-20', endDate: '2026-12-20', status: 'bogus' }, 'status'],
  ])('refuses bad input %j with a ValidationError on %s', async (input, field) => {
    const result = await h.gql(CREATE, { input });
    if (result.errors) {
      // GraphQL-level coercion (an enum) is also a typed, non-500 refusal
      expect(result.errors[0].message).toMatch(/status|PostStatus/);
      return;
    }
    expect(result.data.createEvent).toMatchObject({ __typename: 'ValidationError', field });
  });

  it('needs a signed-in user who may create posts', async () => {
    const anon = await h.gql(CREATE, { input: { title: 'X', startDate: '2026-12-20', endDate: '2026-12-20' } }, { as: null });
    expect(anon.data.createEvent).toMatchObject({ __typename: 'UnauthenticatedError' });
    const sub = await h.gql(CREATE, { input: { title: 'X', startDate: '2026-12-20', endDate: '2026-12-20' } }, { as: 'SUBSCRIBER' });
    expect(sub.data.createEvent).toMatchObject({ __typename: 'ForbiddenError' });
  });

  it("forces a contributor's publish to pending", async () => {
    const e = await create({ title: 'Contributed', startDate: '2026-12-20', endDate: '2026-12-20', status: 'PUBLISH' }, 'CONTRIBUTOR');
    expect(e.status).toBe('PENDING');
  });
});

describe('Mutation.updateEvent', () => {
  it('changes only what is given (REC partial update)', async () => {
    const original = {
      title: 'Orig',
      startDate: '2026-12-05 19:00',
      endDate: '2026-12-05 22:00',
      featured: true,
      cost: ['20'],
      organizers: [{ create: { name: 'Keep Me' } }],
      categories: ['keep'],
    };
    const u = await update({ id: (await create(original)).databaseId, input: { title: 'Renamed' } });
    expect(u).toMatchObject({ title: 'Renamed', slug: 'orig', featured: true, costValues: ['20'], startDate: '2026-12-05 19:00:00' });
    expect(u.organizers).toHaveLength(1);
    expect(u.categories).toHaveLength(1);
  });

  it('accepts one date alone and clamps', async () => {
    const e = await create({ title: 'D', startDate: '2026-12-05 19:00', endDate: '2026-12-05 22:00' });
    const u = await update({ id: e.databaseId, input: { endDate: '2026-12-06 01:00' } });
    expect([u.startDate, u.endDate]).toEqual(['2026-12-05 19:00:00', '2026-12-06 01:00:00']);
    const v = await update({ id: e.databaseId, input: { startDate: '2026-12-07 10:00' } });
    expect([v.startDate, v.endDate]).toEqual(['2026-12-07 10:00:00', '2026-12-07 10:00:00']);
  });

  it('renames through the slug address; the body slug is the new slug', async () => {
    await create({ title: 'Old Name', startDate: '2026-12-05', endDate: '2026-12-05' });
    const u = await update({ slug: 'old-name', input: { slug: 'new-name' } });
    expect(u.slug).toBe('new-name');
    expect((await h.ok(GET, { slug: 'old-name' })).event).toBeNull();
  });

  it('answers NotFoundError for an unknown ID and refuses others’ events to an author', async () => {
    expect((await h.gql(UPDATE, { id: 999999, input: { title: 'x' } })).data.updateEvent.__typename).toBe('NotFoundError');
    const e = await create({ title: 'Admin event', startDate: '2026-12-05', endDate: '2026-12-05' });
    const r = await h.gql(UPDATE, { id: e.databaseId, input: { title: 'mine now' } }, { as: 'AUTHOR' });
    expect(r.data.updateEvent.__typename).toBe('ForbiddenError');
  });
});

describe('Mutation.deleteEvent / restoreEvent / purgeEvent', () => {
  it('trashes, refuses a second trash, restores, then deletes permanently', async () => {
    const e = await create({ title: 'Trash me', startDate: '2026-12-05', endDate: '2026-12-05' });
    const del = `mutation($id: ID) { deleteEvent(id: $id) { ... on DeleteEventSuccess { deletedId } ${EVENT_FIELDS('DeleteEventSuccess')} } }`;
    const trashed = (await h.ok(del, { id: e.databaseId })).deleteEvent;
    expect(trashed.event).toMatchObject({ status: 'TRASH', slug: 'trash-me__trashed' });
    expect(trashed.deletedId).toBe(Buffer.from(`Event:${e.databaseId}`).toString('base64'));
    expect((await h.ok(del, { id: e.databaseId })).deleteEvent).toMatchObject({ __typename: 'GoneError' });
    const restored = (await h.ok(`mutation($id: ID) { restoreEvent(id: $id) { ${EVENT_FIELDS('RestoreEventSuccess')} } }`, { id: e.databaseId })).restoreEvent;
    expect(restored.event).toMatchObject({ status: 'PUBLISH', slug: 'trash-me' });
    const purgeEarly = await h.ok(`mutation($id: ID) { purgeEvent(id: $id) { ... on Error { code } } }`, { id: e.databaseId });
    expect(purgeEarly.purgeEvent.code).toBe('NOT_TRASHED');
    await h.ok(del, { id: e.databaseId });
    const purged = await h.ok(`mutation($id: ID) { purgeEvent(id: $id) { ... on PurgeEventSuccess { deletedId } } }`, { id: trashed.deletedId });
    expect(purged.purgeEvent.deletedId).toBe(trashed.deletedId);
    expect((await h.ok(GET, { id: e.databaseId })).event).toBeNull();
    expect(await h.refused(`query($id: ID) { event(id: $id, strict: true) { title } }`, { id: e.databaseId })).toMatchObject({ type: 'NotFoundError', code: 'NOT_FOUND', field: 'id' });
  });
});

describe('Query.events', () => {
  async function seed() {
    const music = (await h.ok(`mutation { createEventCategory(input: { name: "Music" }) { ... on CreateEventCategorySuccess { eventCategory { databaseId } } } }`)).createEventCategory.eventCategory;
    await h.ok(`mutation($p: ID) { createEventCategory(input: { name: "Jazz", parentId: $p }) { ... on CreateEventCategorySuccess { eventCategory { databaseId } } } }`, { p: music.databaseId });
    await create({ title: 'Yesterday gig', startDate: '2026-11-20 10:00', endDate: '2026-11-20 11:00' });
    await create({ title: 'Jazz brunch', startDate: '2026-12-11 11:00', endDate: '2026-12-11 13:00', categories: ['jazz'], featured: true });
    await create({ title: 'Rock night', startDate: '2026-12-12 20:00', endDate: '2026-12-12 23:00', categories: ['music'], tags: ['loud'] });
    await create({ title: 'Hidden', startDate: '2026-12-12 20:00', endDate: '2026-12-12 23:00', hideFromListings: true });
    await create({ title: 'Draft thing', startDate: '2026-12-13 20:00', endDate: '2026-12-13 23:00', status: 'DRAFT' });
    await create({ title: 'Long ago', startDate: '2020-01-01 10:00', endDate: '2020-01-01 11:00' });
  }
  const titles = (r: any) => r.events.edges.map((e: any) => e.node.title);

  it('applies the default window and start order; hides hidden and, for anonymous, drafts', async () => {
    await seed();
    const r = await h.ok(LIST, {}, { as: null, now: NOW });
    expect(titles(r)).toEqual(['Yesterday gig', 'Jazz brunch', 'Rock night']);
    expect(r.events.window).toMatchObject({ startDate: '2026-11-20 00:00:00', endDate: '2028-11-21 23:59:59' });
    expect(r.events.totalCount).toBe(3);
    const admin = await h.ok(LIST, {}, { now: NOW });
    expect(titles(admin)).toContain('Draft thing');
  });

  it('filters by category including descendants, tag, featured, search, and whole-day starts_after', async () => {
    await seed();
    expect(titles(await h.ok(LIST, { filter: { categories: ['music'] } }, { now: NOW }))).toEqual(['Jazz brunch', 'Rock night']);
    expect(titles(await h.ok(LIST, { filter: { tags: ['loud'] } }, { now: NOW }))).toEqual(['Rock night']);
    expect(titles(await h.ok(LIST, { filter: { featured: true } }, { now: NOW }))).toEqual(['Jazz brunch']);
    expect(titles(await h.ok(LIST, { filter: { search: 'jazz' } }, { now: NOW }))).toEqual(['Jazz brunch']);
    expect(titles(await h.ok(LIST, { filter: { search: 'night -rock' } }, { now: NOW }))).toEqual([]);
    const after = await h.ok(LIST, { filter: { startsAfter: '2026-12-11 00:00:00' } }, { now: NOW });
    expect(titles(after)).toEqual(['Rock night', 'Draft thing']);
    expect(after.events.window.startsAfter).toBe('2026-12-11 23:59:59');
    expect(titles(await h.ok(LIST, { filter: { startDate: '2019-01-01', endDate: '2020-12-31' } }, { now: NOW }))).toEqual(['Long ago']);
  });

  it('refuses unknown terms, a status anonymous may not list, and ticketed=true', async () => {
    await seed();
    expect(await h.refused(LIST, { filter: { categories: ['nope'] } }, { now: NOW })).toMatchObject({ type: 'ValidationError', code: 'UNKNOWN_TERM', field: 'categories' });
    expect(await h.refused(LIST, { filter: { statuses: ['DRAFT'] } }, { as: null, now: NOW })).toMatchObject({ type: 'ValidationError', code: 'STATUS_NOT_ALLOWED', field: 'status' });
    expect(await h.refused(LIST, { filter: { ticketed: true } }, { now: NOW })).toMatchObject({ field: 'ticketed' });
    expect(await h.refused(LIST, { filter: { startDate: 'garbage' } }, { now: NOW })).toMatchObject({ code: 'INVALID_DATE', field: 'startDate' });
    // The connection is the field's own type: the first query anyone writes works.
    expect((await h.ok(`{ events(first: 3) { totalCount nodes { title } } }`, {}, { as: null, now: NOW })).events).toEqual({
      totalCount: 3,
      nodes: [{ title: 'Yesterday gig' }, { title: 'Jazz brunch' }, { title: 'Rock night' }],
    });
  });

  it('pages with page/perPage and caps perPage at the site maximum', async () => {
    for (let i = 1; i <= 7; i++) await create({ title: `E${i}`, startDate: `2026-12-${10 + i} 10:00`, endDate: `2026-12-${10 + i} 11:00` });
    const p2 = await h.ok(LIST, { page: 2, perPage: 3 }, { now: NOW });
    expect(titles(p2)).toEqual(['E4', 'E5', 'E6']);
    expect(p2.events).toMatchObject({ totalCount: 7, totalPages: 3, page: 2, perPage: 3 });
    expect((await h.ok(LIST, { perPage: 500 }, { now: NOW })).events.perPage).toBe(50);
    expect(await h.refused(LIST, { perPage: 0 }, { now: NOW })).toMatchObject({ type: 'ValidationError', code: 'INVALID_PER_PAGE', field: 'perPage' });
  });
});

describe('Query.node', () => {
  it('never returns a record the caller could not read by ID', async () => {
    const draft = await create({ title: 'Secret draft', startDate: '2026-12-05', endDate: '2026-12-05', status: 'DRAFT' });
    const pub = await create({ title: 'Public', startDate: '2026-12-05', endDate: '2026-12-05' });
    const id = (n: number) => Buffer.from(`Event:${n}`).toString('base64');
    const q = `query($id: ID!) { node(id: $id) { ... on Event { databaseId title } } }`;
    expect((await h.ok(q, { id: id(draft.databaseId) }, { as: null })).node).toBeNull();
    expect((await h.ok(q, { id: id(pub.databaseId) }, { as: null })).node).toEqual({ databaseId: pub.databaseId, title: 'Public' });
    expect((await h.ok(q, { id: id(draft.databaseId) })).node.title).toBe('Secret draft');
  });
});
