import { readdirSync, readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSiteSettings } from '../../src/server/config.ts';
import { createContext } from '../../src/services/context.ts';
import { loadReadablePost, withAccessFields } from '../../src/services/posts.ts';
import { createGraphQLHarness, type Role } from '../helpers/graphql.ts';

const NOW = new Date('2026-11-21T11:55:56Z');
const statements: string[] = [];
let counting = false;
let h: Awaited<ReturnType<typeof createGraphQLHarness>>;

beforeAll(async () => {
  h = await createGraphQLHarness({ now: () => NOW, onQuery: (sql) => counting && statements.push(sql) });
  const venues = [];
  for (let i = 0; i < 5; i++) {
    venues.push((await h.ok(`mutation($n: String!) { createVenue(input: { name: $n }) { ... on CreateVenueSuccess { venue { databaseId } } } }`, { n: `Venue ${i}` })).createVenue.venue.databaseId);
  }
  // Every event but the first belongs to the first one's series (`parent`).
  let parentId: number | undefined;
  for (let i = 0; i < 60; i++) {
    const created = await h.ok(
      `mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId } } } }`,
      {
        input: {
          parentId,
          title: `Event ${i}`,
          startDate: `2026-12-${String((i % 28) + 1).padStart(2, '0')} 10:00`,
          endDate: `2026-12-${String((i % 28) + 1).padStart(2, '0')} 12:00`,
          venues: [{ id: venues[i % 5] }],
          organizers: [{ create: { name: `Org ${i % 7}` } }, { create: { name: `Org ${(i + 1) % 7}` } }],
          categories: [`cat-${i % 4}`, `cat-${(i + 1) % 4}`],
          tags: [`tag-${i % 3}`],
        },
      },
      { now: NOW },
    );
    parentId ??= created.createEvent.event.databaseId;
  }
}, 120_000);
afterAll(() => h.close());

const PAGE = `query($perPage: Int) {
  events(perPage: $perPage) {
    totalCount
    edges { node {
      databaseId title startDate cost
      venues { databaseId name city image { url } }
      organizers { databaseId name email }
      categories { databaseId name slug parentId count }
      tags { databaseId name slug count }
      image { url }
      parent { databaseId title }
    } }
  }
}`;

describe('Query.events batching (no N+1)', () => {
  it.each([10, 50])('resolves a page of %i events with all relations (parent too) in at most 6 SQL statements', async (perPage) => {
    statements.length = 0;
    counting = true;
    const r = await h.ok(PAGE, { perPage }, { as: null, now: NOW });
    counting = false;
    expect(r.events.edges).toHaveLength(perPage);
    expect(r.events.edges[0].node.organizers).toHaveLength(2);
    expect(r.events.edges[0].node.categories[0].count).toBeGreaterThan(0);
    expect(r.events.edges.filter((e: { node: { parent: unknown } }) => e.node.parent).length).toBeGreaterThanOrEqual(perPage - 1);
    expect(statements.length).toBeLessThanOrEqual(6);
  });

  it('a deep page (IDs first, then their records) answers what the same rows of one long page answer, in one statement more', async () => {
    const PAGED = PAGE.replace('query($perPage: Int)', 'query($perPage: Int, $page: Int)').replace('events(perPage: $perPage)', 'events(perPage: $perPage, page: $page)');
    // Rows 30–59 in one shallow page (offset 30), rows 50–59 as a deep one (offset 50).
    const whole = await h.ok(PAGED, { perPage: 30, page: 2 }, { as: null, now: NOW });
    statements.length = 0;
    counting = true;
    const deep = await h.ok(PAGED, { perPage: 10, page: 6 }, { as: null, now: NOW });
    counting = false;
    expect(deep.events.edges).toHaveLength(10);
    expect(deep.events.edges.map((e: { node: unknown }) => e.node)).toEqual(whole.events.edges.slice(20).map((e: { node: unknown }) => e.node));
    expect(deep.events.totalCount).toBe(whole.events.totalCount);
    expect(statements.length).toBeLessThanOrEqual(7);
  });
});

describe("a list's total is counted only when the operation reads it", () => {
  /** Statements that count a list: the exact count, or the sum of the counts kept by day. */
  const totals = () => statements.filter((sql) => /count\(|"EventListCount"/i.test(sql)).length;
  const page = (list: string, numbers: string) =>
    `query { ${list} { ${numbers} pageInfo { hasNextPage hasPreviousPage startCursor endCursor } edges { node { databaseId } } } }`;
  async function read(query: string) {
    statements.length = 0;
    counting = true;
    try {
      const data = (await h.ok(query, {}, { as: null, now: NOW })) as Record<string, Record<string, unknown> & { pageInfo: unknown; edges: unknown[] }>;
      return { list: Object.values(data)[0]!, totals: totals() };
    } finally {
      counting = false;
    }
  }
  const WITH_TOTAL = ['totalCount', 'totalPages', '... on PagedConnection { totalCount }', '...Numbers'];
  const withFragment = (query: string) => (query.includes('...Numbers') ? `${query}\nfragment Numbers on EventConnection { totalPages perPage }` : query);

  it.each(['events(perPage: 10, page: 2)', 'events(first: 10)', 'events(last: 10)', 'relayed: events(first: 5, last: 2)'])(
    '%s: no count without totalCount or totalPages, the same page and pageInfo as with them',
    async (list) => {
      const bare = await read(page(list, 'perPage'));
      expect(bare.totals).toBe(0);
      for (const numbers of WITH_TOTAL) {
        const full = await read(withFragment(page(list, numbers)));
        expect(full.totals, numbers).toBeGreaterThan(0);
        expect(full.list.pageInfo, numbers).toEqual(bare.list.pageInfo);
        expect(full.list.edges, numbers).toEqual(bare.list.edges);
        expect(full.list.edges.length).toBeGreaterThan(0);
      }
    },
  );

  it('an offset page without the total still tells whether another page follows', async () => {
    const { list } = await read(page('events(perPage: 7)', 'totalCount totalPages'));
    const last = list.totalPages as number;
    expect(last).toBeGreaterThan(2);
    const on = async (n: number) => (await read(page(`events(perPage: 7, page: ${n})`, 'perPage'))).list.pageInfo;
    expect(await on(last - 1)).toMatchObject({ hasNextPage: true, hasPreviousPage: true });
    expect(await on(last)).toMatchObject({ hasNextPage: false, hasPreviousPage: true });
    expect(await on(1)).toMatchObject({ hasNextPage: true, hasPreviousPage: false });
    expect((await read(page(`events(perPage: 7, page: ${last + 1})`, 'perPage'))).list).toMatchObject({ pageInfo: { hasNextPage: false }, edges: [] });
  });
});

/**
 * A REST operation as the facade runs it: the named operation of a `rest-facade/resources` .graphql file
 * with the fragments it uses (an unused one would fail validation over HTTP). Plain text work: the
 * `graphql` import may be another build than Yoga's under vitest.
 */
function restOperation(name: string): string {
  const dir = new URL('../../rest-facade/resources/', import.meta.url);
  const source = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.graphql'))
    .map((f) => readFileSync(new URL(f, dir), 'utf8'))
    .join('\n');
  const definitions = new Map<string, string>();
  for (const m of source.matchAll(/^(?:query|mutation|fragment) (\w+)[^{]*\{/gm)) {
    let depth = 0;
    let end = m.index;
    do {
      const c = source[end++];
      if (c === '{') depth++;
      else if (c === '}') depth--;
    } while (depth > 0 || source[end - 1] !== '}');
    definitions.set(m[1]!, source.slice(m.index, end));
  }
  const used = new Set([name]);
  for (const n of used) {
    const text = definitions.get(n);
    if (!text) throw new Error(`no REST operation or fragment ${n}`);
    for (const [, spread] of text.matchAll(/\.\.\.(?!\s*on\b)\s*(\w+)/g)) used.add(spread!);
  }
  return [...used].map((n) => definitions.get(n)).join('\n');
}

describe('single reads (Query.event, venue, organizer)', () => {
  const EVENT_BY_ID = restOperation('EventById');
  const VENUE_BY_ID = restOperation('VenueById');
  const ORGANIZER_BY_ID = restOperation('OrganizerById');
  let event: { databaseId: number; slug: string; venues: { databaseId: number; slug: string }[]; organizers: { databaseId: number; slug: string }[] };
  let draft: { databaseId: number; slug: string };
  let trashed: { databaseId: number; slug: string };

  beforeAll(async () => {
    const create = async (input: Record<string, unknown>, as: Role = 'ADMINISTRATOR') =>
      (await h.ok(`mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId slug venues { databaseId slug } organizers { databaseId slug } } } } }`, { input }, { as, now: NOW })).createEvent.event;
    event = await create({
      title: 'Single Read',
      startDate: '2026-12-10 19:00',
      endDate: '2026-12-10 22:00',
      venues: [{ create: { name: 'Single Hall' } }],
      organizers: [{ create: { name: 'Single Org' } }, { create: { name: 'Second Org' } }],
      categories: ['cat-0', 'cat-1'],
      tags: ['tag-0', 'tag-1'],
    });
    draft = await create({ title: 'Single Draft', slug: 'single-draft', startDate: '2026-12-11 19:00', endDate: '2026-12-11 20:00', status: 'DRAFT' }, 'CONTRIBUTOR');
    const toTrash = await create({ title: 'Single Trashed', startDate: '2026-12-12 19:00', endDate: '2026-12-12 20:00' });
    trashed = (await h.ok(`mutation($id: ID) { deleteEvent(id: $id) { ... on DeleteEventSuccess { event { databaseId slug } } } }`, { id: toTrash.databaseId }, { now: NOW })).deleteEvent.event;
  });

  async function counted(query: string, variables: Record<string, unknown>, as: Role | null = null) {
    if (as) await h.userFor(as); // a role's first use creates its user: not part of the read
    statements.length = 0;
    counting = true;
    try {
      const r = await h.gql(query, variables, { as, now: NOW });
      if (r.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(r.errors)}`);
      return { data: r.data, count: statements.length };
    } finally {
      counting = false;
    }
  }

  // Single reads load the record with its access fields in the one statement that fetches the
  // selection: 1 statement where a separate access lookup made it 2.
  it.each([null, 'ADMINISTRATOR'] as const)('reads an event with all relations by ID or slug in 1 SQL statement (as %s)', async (as) => {
    const byId = await counted(EVENT_BY_ID, { id: event.databaseId }, as);
    const bySlug = await counted(EVENT_BY_ID, { slug: event.slug.toUpperCase() }, as);
    for (const r of [byId, bySlug]) {
      expect(r.data.event).toMatchObject({ databaseId: event.databaseId, slug: 'single-read', title: 'Single Read', status: 'PUBLISH' });
      expect(r.data.event.venues.map((v: { name: string }) => v.name)).toEqual(['Single Hall']);
      expect(r.data.event.organizers.map((o: { name: string }) => o.name)).toEqual(['Single Org', 'Second Org']);
      expect(r.data.event.categories.map((c: { slug: string }) => c.slug)).toEqual(['cat-0', 'cat-1']);
      expect(r.data.event.tags.map((c: { slug: string }) => c.slug)).toEqual(['tag-0', 'tag-1']);
    }
    expect(byId.count).toBe(1);
    expect(bySlug.count).toBe(1);
  });

  it('reads a venue and an organizer by ID or slug in 1 SQL statement', async () => {
    const venue = event.venues[0]!;
    const organizer = event.organizers[0]!;
    for (const variables of [{ id: venue.databaseId }, { slug: venue.slug }]) {
      const r = await counted(VENUE_BY_ID, variables);
      expect(r.data.venue).toMatchObject({ databaseId: venue.databaseId, name: 'Single Hall' });
      expect(r.count).toBe(1);
    }
    for (const variables of [{ id: organizer.databaseId }, { slug: organizer.slug }]) {
      const r = await counted(ORGANIZER_BY_ID, variables);
      expect(r.data.organizer).toMatchObject({ databaseId: organizer.databaseId, name: 'Single Org' });
      expect(r.count).toBe(1);
    }
  });

  it('answers missing, wrong-kind and unreadable events as before (strict: the REST operation)', async () => {
    const read = (variables: Record<string, unknown>, as: Role | null = null) => h.refused(EVENT_BY_ID, variables, { as, now: NOW });
    expect(await read({ id: 999_999 })).toEqual({ type: 'NotFoundError', code: 'NOT_FOUND', message: 'No event has the ID 999999.', field: 'id' });
    expect(await read({ slug: 'no-such-event' })).toEqual({ type: 'NotFoundError', code: 'NOT_FOUND', message: 'No event has the slug "no-such-event".', field: 'slug' });
    expect(await read({ slug: '%%%' })).toEqual({ type: 'NotFoundError', code: 'NOT_FOUND', message: 'No event has the slug "%%%".', field: 'slug' });
    expect(await read({})).toEqual({ type: 'ValidationError', code: 'REQUIRED', message: 'Give an ID or a slug.', field: 'id' });
    expect(await read({ id: event.venues[0]!.databaseId })).toEqual({
      type: 'ValidationError',
      code: 'WRONG_KIND',
      message: `The ID ${event.venues[0]!.databaseId} is not a valid event.`,
      field: 'id',
    });
    const notAccessible = { type: 'ForbiddenError', code: 'NOT_ACCESSIBLE', message: 'The requested event is not accessible', field: null };
    expect(await read({ id: draft.databaseId })).toEqual(notAccessible);
    expect(await read({ slug: draft.slug })).toEqual(notAccessible);
    expect(await read({ id: draft.databaseId }, 'SUBSCRIBER')).toEqual(notAccessible);
    expect(await read({ id: draft.databaseId }, 'AUTHOR')).toEqual(notAccessible);
    const gone = { type: 'ForbiddenError', code: 'NO_LONGER_AVAILABLE', message: 'This event is no longer available', field: null };
    expect(await read({ id: trashed.databaseId })).toEqual(gone);
    expect(await read({ slug: trashed.slug })).toEqual(gone);
    // Without strict, what does not exist for the caller is null; invalid arguments stay errors.
    const plain = `query($id: ID, $slug: String) { event(id: $id, slug: $slug) { title } }`;
    for (const variables of [{ id: 999_999 }, { slug: 'no-such-event' }, { id: draft.databaseId }, { id: trashed.databaseId }]) {
      expect(await h.gql(plain, variables, { as: null, now: NOW })).toEqual({ data: { event: null } });
    }
    expect(await h.refused(plain, { id: event.venues[0]!.databaseId }, { as: null, now: NOW })).toMatchObject({ code: 'WRONG_KIND', field: 'id' });
    expect(await h.refused(plain, {}, { as: null, now: NOW })).toMatchObject({ code: 'REQUIRED', field: 'id' });
    // Those who may read them still do, in one statement like any readable event.
    for (const [record, status, field, as] of [
      [draft, 'DRAFT', 'id', 'CONTRIBUTOR'],
      [draft, 'DRAFT', 'slug', 'ADMINISTRATOR'],
      [trashed, 'TRASH', 'id', 'EDITOR'],
      [trashed, 'TRASH', 'slug', 'ADMINISTRATOR'],
    ] as const) {
      const r = await counted(EVENT_BY_ID, { [field]: field === 'id' ? record.databaseId : record.slug }, as);
      expect(r.data.event).toMatchObject({ databaseId: record.databaseId, status });
      expect(r.count).toBe(1);
    }
  });

  it('answers missing, wrong-kind and unreadable venues as before', async () => {
    const draftVenue = (await h.ok(`mutation { createVenue(input: { name: "Single Draft Hall", status: DRAFT }) { ... on CreateVenueSuccess { venue { databaseId } } } }`, {}, { now: NOW }))
      .createVenue.venue.databaseId;
    const read = (variables: Record<string, unknown>, as: Role | null = null) => h.refused(VENUE_BY_ID, variables, { as, now: NOW });
    expect(await read({ id: 999_999 })).toEqual({ type: 'NotFoundError', code: 'NOT_FOUND', message: 'No venue has the ID 999999.', field: 'id' });
    expect(await read({ id: draft.databaseId })).toEqual({ type: 'ValidationError', code: 'WRONG_KIND', message: `The ID ${draft.databaseId} is not a valid venue.`, field: 'id' });
    expect(await read({ id: draftVenue })).toEqual({ type: 'ForbiddenError', code: 'NOT_ACCESSIBLE', message: 'The requested venue is not accessible', field: null });
    const r = await counted(VENUE_BY_ID, { id: draftVenue }, 'ADMINISTRATOR');
    expect(r.data.venue).toMatchObject({ databaseId: draftVenue, status: 'DRAFT' });
    expect(r.count).toBe(1);
  });

  it('adds the access fields to a select-form query (include-form and empty ones load every scalar)', async () => {
    const include = { include: { image: true } };
    expect(withAccessFields(include)).toBe(include);
    expect(withAccessFields({})).toEqual({});
    expect(withAccessFields({ select: { title: true } })).toEqual({
      select: { title: true, id: true, status: true, authorId: true, trashedFromStatus: true },
    });
    const ctx = (viewer: Awaited<ReturnType<typeof h.userFor>> | null) => createContext({ prisma: h.db.prisma, settings: defaultSiteSettings, viewer, now: NOW });
    const load = (c: ReturnType<typeof ctx>, address: { id?: number; slug?: string }) =>
      loadReadablePost(c, 'EVENT', address, { select: { title: true } }, (q) => c.prisma.event.findUnique(q));
    statements.length = 0;
    counting = true;
    const own = await load(ctx(await h.userFor('CONTRIBUTOR')), { slug: 'Single-Draft' }).finally(() => (counting = false));
    expect(own).toMatchObject({ title: 'Single Draft', status: 'draft' });
    expect(statements).toHaveLength(1);
    await expect(load(ctx(null), { id: draft.databaseId })).rejects.toMatchObject({ code: 'NOT_ACCESSIBLE', message: 'The requested event is not accessible' });
    await expect(load(ctx(null), { slug: trashed.slug })).rejects.toMatchObject({ code: 'NO_LONGER_AVAILABLE' });
  });
});

describe('authenticated event writes', () => {
  const CREATE_EVENT = restOperation('CreateEvent');
  let venue: number;
  let organizer: number;

  beforeAll(async () => {
    venue = (await h.ok(`mutation { createVenue(input: { name: "Count Hall" }) { ... on CreateVenueSuccess { venue { databaseId } } } }`, {}, { now: NOW })).createVenue.venue.databaseId;
    organizer = (await h.ok(`mutation { createOrganizer(input: { name: "Count Org" }) { ... on CreateOrganizerSuccess { organizer { databaseId } } } }`, {}, { now: NOW })).createOrganizer.organizer.databaseId;
    await h.userFor('ADMINISTRATOR');
  });

  async function counted(query: string, variables: Record<string, unknown>) {
    statements.length = 0;
    counting = true;
    const r = await h.gql(query, variables, { as: 'ADMINISTRATOR', now: NOW }).finally(() => (counting = false));
    if (r.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(r.errors)}`);
    return { data: r.data, count: statements.length, statements: [...statements] };
  }

  const input = (title: string, categories: string[], tags: string[]) => ({
    title,
    startDate: '2026-12-14 19:00',
    endDate: '2026-12-14 21:00',
    venues: [{ id: venue }],
    organizers: [{ id: organizer }],
    categories,
    tags,
  });

  // Was 18 (existing terms) and 34 (one new category and tag): each ID and term looked up alone, the
  // new row read back by nested creates, the term links read back for the change notice. One more
  // since every write inserts its changes into the change log, in its own transaction.
  it('creates an event with venue, organizer, categories and tags in 13 statements (existing terms), 27 with a new category and tag', async () => {
    const existing = await counted(CREATE_EVENT, { input: input('Counted Create', ['cat-0', 'cat-1'], ['tag-0', 'tag-1']) });
    expect(existing.data.createEvent.event).toMatchObject({ title: 'Counted Create', slug: 'counted-create' });
    expect(existing.data.createEvent.event.venues.map((v: { databaseId: number }) => v.databaseId)).toEqual([venue]);
    expect(existing.data.createEvent.event.organizers.map((o: { databaseId: number }) => o.databaseId)).toEqual([organizer]);
    expect(existing.data.createEvent.event.categories.map((c: { slug: string }) => c.slug)).toEqual(['cat-0', 'cat-1']);
    expect(existing.data.createEvent.event.tags.map((c: { slug: string }) => c.slug)).toEqual(['tag-0', 'tag-1']);
    expect(existing.count, existing.statements.join('\n')).toBe(13);

    const fresh = await counted(CREATE_EVENT, { input: input('Counted Create', ['cat-0', 'Count New Cat'], ['tag-0', 'Count New Tag']) });
    expect(fresh.data.createEvent.event).toMatchObject({ slug: 'counted-create-2' });
    expect(fresh.data.createEvent.event.categories.map((c: { slug: string }) => c.slug).sort()).toEqual(['cat-0', 'count-new-cat']);
    expect(fresh.data.createEvent.event.tags.map((c: { slug: string }) => c.slug).sort()).toEqual(['count-new-tag', 'tag-0']);
    expect(fresh.count, fresh.statements.join('\n')).toBe(27);
  });
});
