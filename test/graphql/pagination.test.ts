import { describe, expect, it } from 'vitest';
import { useGraphQLHarness, type GraphQLHarness } from '../helpers/graphql.ts';

// Keyset cursors (schema/keyset.ts, schema/pagination.ts): every connection pages by the keys of
// the order in effect and the ID, so writes between two page loads neither skip nor repeat a record.
const NOW = new Date('2026-11-21T11:55:56Z');
let h: GraphQLHarness;
useGraphQLHarness((harness) => (h = harness), { now: () => NOW });

interface Page {
  totalCount: number;
  page: number;
  perPage: number;
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
  edges: { cursor: string; node: { title: string } }[];
}

const PAGE_FIELDS = 'totalCount page perPage pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { cursor node { title } }';
const EVENTS = `query($first: Int, $after: String, $last: Int, $before: String, $order: ListOrder, $filter: EventFilter) {
  list: events(first: $first, after: $after, last: $last, before: $before, order: $order, filter: $filter) { ${PAGE_FIELDS} }
}`;
const titles = (p: Page) => p.edges.map((e) => e.node.title);

async function events(variables: Record<string, unknown>): Promise<Page> {
  return (await h.ok(EVENTS, variables, { as: null, now: NOW })).list;
}

/** Creates published events; `start` is the day in December 2026 (several on one day tie on their start). */
async function seed(days: Record<string, string>): Promise<Record<string, number>> {
  const ids: Record<string, number> = {};
  for (const [title, start] of Object.entries(days)) ids[title] = await createEvent(title, start);
  return ids;
}

async function createEvent(title: string, start: string): Promise<number> {
  const r = await h.ok(
    `mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId } } ... on Error { code message } } }`,
    { input: { title, startDate: `2026-12-${start}`, endDate: `2026-12-${start}`, status: 'PUBLISH' } },
    { now: NOW },
  );
  return r.createEvent.event.databaseId;
}

const trash = (id: number) => h.ok(`mutation($id: ID) { deleteEvent(id: $id) { __typename } }`, { id });

describe('Query.events(first/after, last/before)', () => {
  it('pages forward with a trash and an insertion between loads: nothing skipped, nothing repeated', async () => {
    // B1 and B2 tie on their start: the ID breaks the tie.
    const ids = await seed({ A: '01 10:00', B1: '02 10:00', B2: '02 10:00', C: '03 10:00', D: '04 10:00', E: '05 10:00', F: '06 10:00' });
    const first = await events({ first: 2 });
    expect(titles(first)).toEqual(['A', 'B1']);
    expect(first.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect(first.totalCount).toBe(7);

    // A record of the loaded page leaves the list: an offset would now skip B2.
    await trash(ids.A!);
    const second = await events({ first: 2, after: first.pageInfo.endCursor });
    expect(titles(second)).toEqual(['B2', 'C']);
    expect(second.pageInfo).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    expect(second.totalCount).toBe(6);

    // A record joins before the cursor: an offset would now repeat C.
    await createEvent('Early', '01 09:00');
    const third = await events({ first: 2, after: second.pageInfo.endCursor });
    expect(titles(third)).toEqual(['D', 'E']);
    const last = await events({ first: 2, after: third.pageInfo.endCursor });
    expect(titles(last)).toEqual(['F']);
    expect(last.pageInfo).toMatchObject({ hasNextPage: false, hasPreviousPage: true });

    // Back from the second page: the page before its first record, as the list is now.
    const back = await events({ last: 2, before: second.pageInfo.startCursor });
    expect(titles(back)).toEqual(['Early', 'B1']);
    expect(back.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    // The cursor of a record gone since (A was trashed) still marks its place.
    expect(titles(await events({ first: 2, after: first.edges[0]!.cursor }))).toEqual(['B1', 'B2']);
  });

  it('reads the end of the list with `last` alone, then pages backward across changes', async () => {
    const ids = await seed({ A: '01 10:00', B: '02 10:00', C: '03 10:00', D: '04 10:00', E: '05 10:00', F: '06 10:00' });
    const end = await events({ last: 2 });
    expect(titles(end)).toEqual(['E', 'F']);
    expect(end.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    expect(end.pageInfo.startCursor).toBe(end.edges[0]!.cursor);

    await trash(ids.F!);
    await createEvent('Late', '07 10:00');
    const before = await events({ last: 2, before: end.pageInfo.startCursor });
    expect(titles(before)).toEqual(['C', 'D']);
    expect(before.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: true });
    const start = await events({ last: 2, before: before.pageInfo.startCursor });
    expect(titles(start)).toEqual(['A', 'B']);
    expect(start.pageInfo).toMatchObject({ hasPreviousPage: false, hasNextPage: true });
    // `before` alone: the default page size, read backward from it.
    expect(titles(await events({ before: end.pageInfo.startCursor }))).toEqual(['A', 'B', 'C', 'D']);
  });

  it('follows the order in effect: DESC, and publication date with `include`', async () => {
    const ids = await seed({ A: '01 10:00', B: '02 10:00', C: '03 10:00', D: '04 10:00' });
    const desc = await events({ first: 3, order: 'DESC' });
    expect(titles(desc)).toEqual(['D', 'C', 'B']);
    expect(titles(await events({ first: 3, order: 'DESC', after: desc.pageInfo.endCursor }))).toEqual(['A']);
    expect(titles(await events({ last: 1, order: 'DESC', before: desc.pageInfo.endCursor }))).toEqual(['C']);

    // `include` lists by publication date: created A, B, C, D in that order, one second apart at most.
    const include = { include: [ids.D, ids.B, ids.A].map(String) };
    const byDate = await events({ first: 2, filter: include });
    expect(titles(byDate)).toEqual(['A', 'B']);
    expect(titles(await events({ first: 2, filter: include, after: byDate.pageInfo.endCursor }))).toEqual(['D']);
    // A cursor of one order is not a cursor of another.
    expect(await h.refused(EVENTS, { first: 2, after: byDate.pageInfo.endCursor }, { as: null, now: NOW })).toMatchObject({
      code: 'INVALID_CURSOR',
      field: 'after',
    });
  });

  it('gives keyset cursors to page-number pages too, and counts the page of a cursor page when asked', async () => {
    await seed({ A: '01 10:00', B: '02 10:00', C: '03 10:00', D: '04 10:00', E: '05 10:00' });
    const byNumber = (await h.ok(`{ list: events(page: 1, perPage: 2) { ${PAGE_FIELDS} } }`, {}, { as: null, now: NOW })).list as Page;
    expect(titles(byNumber)).toEqual(['A', 'B']);
    const next = await events({ first: 2, after: byNumber.pageInfo.endCursor });
    expect(titles(next)).toEqual(['C', 'D']);
    expect([next.page, next.perPage]).toEqual([2, 2]);
    expect((await events({ first: 2, after: next.pageInfo.endCursor })).page).toBe(3);
  });

  it('refuses bad cursors and mixed page kinds with typed errors', async () => {
    await seed({ A: '01 10:00' });
    const bad = ['nope', Buffer.from('["startLocal,id","2026",1]').toString('base64url'), Buffer.from('[1,2,3]').toString('base64url'), Buffer.from('arrayconnection:3').toString('base64')];
    for (const after of bad) {
      expect(await h.refused(EVENTS, { first: 1, after }, { as: null, now: NOW }), after).toMatchObject({ code: 'INVALID_CURSOR', field: 'after', type: 'ValidationError' });
    }
    expect(await h.refused(EVENTS, { last: 1, before: 'x' }, { as: null, now: NOW })).toMatchObject({ code: 'INVALID_CURSOR', field: 'before' });
    expect(await h.refused(`{ events(page: 2, first: 2) { totalCount } }`, {}, { as: null, now: NOW })).toMatchObject({ code: 'INVALID_PAGE', field: 'page' });
    expect(await h.refused(`{ events(last: -1) { totalCount } }`, {}, { as: null, now: NOW })).toMatchObject({ code: 'INVALID_PAGE', field: 'last' });
    // first: 0 reads nothing, and says whether there is more.
    expect((await events({ first: 0 })).pageInfo).toMatchObject({ hasNextPage: true, startCursor: null, endCursor: null });
  });
});

/** Walks a connection forward, then backward, by `size`: both walks must list exactly `all`. */
async function walk(query: string, size: number, all: string[], as: 'ADMINISTRATOR' | null = null) {
  const read = async (variables: Record<string, unknown>): Promise<Page> => (await h.ok(query, variables, { as, now: NOW })).list;
  const forward: string[] = [];
  for (let after: string | null = null, pages = 0; pages < 20; pages++) {
    const page = await read({ first: size, after });
    forward.push(...titles(page));
    if (!page.pageInfo.hasNextPage) break;
    after = page.pageInfo.endCursor;
  }
  const backward: string[] = [];
  for (let before: string | null = null, pages = 0; pages < 20; pages++) {
    const page = await read({ last: size, before });
    backward.unshift(...titles(page));
    if (!page.pageInfo.hasPreviousPage) break;
    before = page.pageInfo.startCursor;
  }
  expect(forward).toEqual(all);
  expect(backward).toEqual(all);
}

const node = (field: string) => `edges { cursor node { title: ${field} } }`;
const listQuery = (field: string, args: string, title: string) =>
  `query($first: Int, $after: String, $last: Int, $before: String) {
    list: ${field}(first: $first, after: $after, last: $last, before: $before${args}) {
      totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } ${node(title)}
    }
  }`;

describe('every connection pages by keyset both ways', () => {
  it('venues and organizers (newest first; drafts never published last)', async () => {
    for (const [i, name] of ['V1', 'V2', 'V3', 'V4', 'V5'].entries()) {
      await h.ok(`mutation($n: String!) { createVenue(input: { name: $n }) { __typename } }`, { n: name }, { now: new Date(NOW.getTime() + (i % 3) * 1000) });
    }
    await h.ok(`mutation { createVenue(input: { name: "Draft hall", status: DRAFT }) { __typename } }`, {}, { now: NOW });
    const query = listQuery('venues', '', 'name');
    const all = (await h.ok(`{ venues(perPage: 50) { nodes { name } } }`)).venues.nodes.map((n: { name: string }) => n.name);
    expect(all).toHaveLength(6);
    expect(all.at(-1)).toBe('Draft hall');
    await walk(query, 2, all, 'ADMINISTRATOR');
    await h.ok(`mutation { createOrganizer(input: { name: "O1" }) { __typename } }`);
    await h.ok(`mutation { createOrganizer(input: { name: "O2" }) { __typename } }`);
    const organizers = (await h.ok(`{ organizers { nodes { name } } }`)).organizers.nodes.map((n: { name: string }) => n.name);
    await walk(listQuery('organizers', '', 'name'), 1, organizers);
  });

  it('categories and tags, by name (case-insensitive, ties by ID) and by a column', async () => {
    const create = async (name: string, parentId?: number) =>
      (await h.ok(`mutation($n: String!, $p: ID) { createEventCategory(input: { name: $n, parentId: $p }) { ... on CreateEventCategorySuccess { eventCategory { databaseId } } } }`, { n: name, p: parentId }))
        .createEventCategory.eventCategory.databaseId;
    const beta = await create('beta');
    await create('Alpha');
    // Names are unique per parent: the same name (but for case) under another parent ties on the name.
    await create('alpha', beta);
    await create('Gamma');
    await create('delta');
    const byName = listQuery('eventCategories', ', filter: { hideEmpty: false }', 'name');
    await walk(byName, 2, ['Alpha', 'alpha', 'beta', 'delta', 'Gamma']);
    const desc = listQuery('eventCategories', ', filter: { hideEmpty: false, order: "desc" }', 'name');
    // Descending by name, ties still by ID ascending (as WordPress orders them).
    await walk(desc, 2, ['Gamma', 'delta', 'beta', 'Alpha', 'alpha']);
    const bySlug = listQuery('eventCategories', ', filter: { hideEmpty: false, orderby: "slug" }', 'slug');
    await walk(bySlug, 3, ['alpha', 'alpha-2', 'beta', 'delta', 'gamma']);
    for (const name of ['t1', 't2', 't3']) await h.ok(`mutation($n: String!) { createEventTag(input: { name: $n }) { __typename } }`, { n: name });
    await walk(listQuery('eventTags', ', filter: { hideEmpty: false, orderby: "id", order: "desc" }', 'name'), 2, ['t3', 't2', 't1']);
  });

  it('users (administrators only, by login)', async () => {
    for (const login of ['carol', 'alice', 'bob']) {
      await h.ok(`mutation($l: String!) { createUser(input: { login: $l, password: "long enough", role: SUBSCRIBER }) { __typename } }`, { l: login });
    }
    await h.userFor('ADMINISTRATOR');
    const query = `query($first: Int, $after: String, $last: Int, $before: String) {
      list: users(first: $first, after: $after, last: $last, before: $before) {
        ... on UserConnection { totalCount pageInfo { hasNextPage hasPreviousPage startCursor endCursor } ${node('login')} }
      }
    }`;
    await walk(query, 2, ['administrator', 'alice', 'bob', 'carol'], 'ADMINISTRATOR');
  });
});

describe('mutation payloads', () => {
  it("a create answers the record and its edge; the edge's cursor continues the default list", async () => {
    await seed({ A: '01 10:00', C: '03 10:00' });
    const created = await h.ok(
      `mutation { createEvent(input: { title: "B", startDate: "2026-12-02 10:00", endDate: "2026-12-02 11:00" }) {
        ... on CreateEventSuccess { event { id title } eventEdge { cursor node { id title } } }
      } }`,
      {},
      { now: NOW },
    );
    const { event, eventEdge } = created.createEvent;
    expect(eventEdge.node).toEqual(event);
    expect(titles(await events({ first: 5, after: eventEdge.cursor }))).toEqual(['C']);
    expect(titles(await events({ last: 5, before: eventEdge.cursor }))).toEqual(['A']);
  });

  it('a delete answers the global ID it removed; a failed write answers a typed error, never a record', async () => {
    const id = await createEvent('Gone', '05 10:00');
    const q = `mutation($id: ID) { deleteEvent(id: $id) { __typename ... on DeleteEventSuccess { deletedId event { id status } } ... on Error { code } } }`;
    const deleted = (await h.ok(q, { id })).deleteEvent;
    expect(deleted).toMatchObject({ __typename: 'DeleteEventSuccess', deletedId: deleted.event.id, event: { status: 'TRASH' } });
    expect((await h.ok(q, { id: deleted.deletedId })).deleteEvent).toEqual({ __typename: 'GoneError', code: 'ALREADY_TRASHED' });
    const failed = await h.ok(`mutation { createEvent(input: { title: "", startDate: "x", endDate: "y" }) { __typename ... on CreateEventSuccess { eventEdge { cursor } } } }`);
    expect(failed.createEvent).toEqual({ __typename: 'ValidationError' });
  });
});

describe('ID arguments: the global ID, or the database ID', () => {
  it('reads, writes and filters by either form; another type or a malformed ID is a typed error', async () => {
    const venue = (await h.ok(`mutation { createVenue(input: { name: "Hall" }) { ... on CreateVenueSuccess { venue { id databaseId } } } }`)).createVenue.venue;
    const made = await h.ok(
      `mutation($v: ID!) { createEvent(input: { title: "Here", startDate: "2026-12-01 10:00", endDate: "2026-12-01 11:00", venues: [{ id: $v }] }) {
        ... on CreateEventSuccess { event { id databaseId } }
      } }`,
      { v: venue.id },
      { now: NOW },
    );
    const event = made.createEvent.event;
    const read = `query($id: ID) { event(id: $id) { title } }`;
    for (const id of [event.id, event.databaseId, String(event.databaseId)]) expect((await h.ok(read, { id })).event).toEqual({ title: 'Here' });
    for (const v of [venue.id, venue.databaseId]) {
      expect(titles(await events({ first: 5, filter: { venues: [v] } }))).toEqual(['Here']);
    }
    expect(await h.refused(read, { id: venue.id })).toMatchObject({ code: 'WRONG_KIND', field: 'id', type: 'ValidationError' });
    expect(await h.refused(read, { id: 'not an id' })).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
    expect(await h.refused(read, { id: '99999999999' })).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id' });
    const renamed = await h.ok(`mutation($id: ID) { updateEvent(id: $id, input: { title: "There" }) { ... on UpdateEventSuccess { event { id title } } ... on Error { code } } }`, {
      id: event.id,
    });
    expect(renamed.updateEvent).toEqual({ event: { id: event.id, title: 'There' } });
    const wrong = await h.ok(`mutation($id: ID) { updateEvent(id: $id, input: { title: "X" }) { __typename ... on ValidationError { code field } } }`, { id: venue.id });
    expect(wrong.updateEvent).toEqual({ __typename: 'ValidationError', code: 'WRONG_KIND', field: 'id' });
    // Category references take a global ID beside IDs, slugs and names.
    const cat = (await h.ok(`mutation { createEventCategory(input: { name: "Jazz" }) { ... on CreateEventCategorySuccess { eventCategory { id } } } }`)).createEventCategory.eventCategory;
    await h.ok(`mutation($id: ID, $c: [String!]) { updateEvent(id: $id, input: { categories: $c }) { __typename } }`, { id: event.id, c: [cat.id] });
    expect(titles(await events({ first: 5, filter: { categories: [cat.id] } }))).toEqual(['There']);
  });
});
