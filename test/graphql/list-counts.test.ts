/**
 * The public event list's total comes from counts by day the database keeps (migration
 * *_event_list_counts, src/services/event-list-count.ts). After any sequence of writes — creates,
 * updates of dates, status and listing, trash, restore, deletion, link changes in one statement,
 * categories moved under others or deleted — the kept counts must equal counts taken from scratch,
 * and the total they give must equal the exact count of the list's rows, for many windows and
 * category filters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { useGraphQLHarness, type GraphQLHarness } from '../helpers/graphql.ts';
import { buildEventListQuery, type EventFilter } from '../../src/services/event-list.ts';

let h: GraphQLHarness;
const NOW = new Date('2026-12-01T15:00:00Z');
useGraphQLHarness((harness) => (h = harness), { now: () => NOW });

const EVENT = (payload: string) => `... on ${payload} { event { databaseId } } ... on Error { __typename code message }`;
const CATEGORIES = ['A', 'A1', 'A1a', 'A2', 'B', 'B1'];
const PARENTS: Record<string, string> = { A1: 'A', A1a: 'A1', A2: 'A', B1: 'B' };

/** The 1st of December 2026 plus `day` days, at `hour`, as a wall clock. */
const wall = (day: number, hour: number) => {
  const d = new Date(Date.UTC(2026, 11, 1 + day, hour, (hour * 7) % 60, 0));
  return d.toISOString().slice(0, 19).replace('T', ' ');
};

const dates = fc.record({ day: fc.integer({ min: -2, max: 9 }), hour: fc.integer({ min: 0, max: 23 }), hours: fc.integer({ min: 0, max: 80 }) });
const status = fc.constantFrom('PUBLISH', 'PUBLISH', 'PUBLISH', 'DRAFT', 'PRIVATE');
const cats = fc.subarray(CATEGORIES, { maxLength: 3 });
const op = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('create' as const), dates, status, hide: fc.constantFrom(false, false, false, true), cats }) },
  {
    weight: 4,
    arbitrary: fc.record(
      { kind: fc.constant('update' as const), pick: fc.nat(), dates, status, hide: fc.constantFrom(false, false, false, true), cats },
      { requiredKeys: ['kind', 'pick'] },
    ),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constantFrom('trash' as const, 'restore' as const, 'delete' as const, 'unlink' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('link' as const), pick: fc.nat(), cats }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('move' as const), category: fc.constantFrom(...CATEGORIES), parent: fc.constantFrom('', ...CATEGORIES) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('dropCategory' as const), category: fc.constantFrom(...CATEGORIES) }) },
);
type Op = typeof op extends fc.Arbitrary<infer T> ? T : never;

async function setUpCategories(): Promise<Map<string, number>> {
  const ids = new Map<string, number>();
  for (const name of CATEGORIES) {
    const parent = PARENTS[name];
    const data = await h.ok(`mutation($i: CreateTermInput!) { createEventCategory(input: $i) { ... on CreateEventCategorySuccess { eventCategory { databaseId } } } }`, {
      i: { name, parentId: parent ? String(ids.get(parent)) : null },
    });
    ids.set(name, data.createEventCategory.eventCategory.databaseId);
  }
  return ids;
}

async function apply(o: Op, events: number[], categories: Map<string, number>): Promise<void> {
  const target = 'pick' in o && events.length ? events[o.pick % events.length]! : undefined;
  const catIds = (names: string[] | undefined) => names?.map((n) => String(categories.get(n)));
  const times = (d: { day: number; hour: number; hours: number }) => ({
    startDate: wall(d.day, d.hour),
    endDate: wall(d.day + Math.floor((d.hour + d.hours) / 24), (d.hour + d.hours) % 24),
  });
  switch (o.kind) {
    case 'create': {
      const r = await h.gql(`mutation($i: CreateEventInput!) { createEvent(input: $i) { ${EVENT('CreateEventSuccess')} } }`, {
        i: { title: `E${events.length}`, ...times(o.dates), status: o.status, hideFromListings: o.hide, categories: catIds(o.cats) },
      });
      const id = r.data?.createEvent?.event?.databaseId as number | undefined;
      if (id) events.push(id);
      return;
    }
    case 'update': {
      if (target === undefined) return;
      const input = {
        ...(o.dates ? times(o.dates) : {}),
        ...(o.status ? { status: o.status } : {}),
        ...(o.hide !== undefined ? { hideFromListings: o.hide } : {}),
        ...(o.cats ? { categories: catIds(o.cats) } : {}),
      };
      await h.gql(`mutation($id: ID, $i: UpdateEventInput!) { updateEvent(id: $id, input: $i) { ${EVENT('UpdateEventSuccess')} } }`, { id: target, i: input });
      return;
    }
    case 'trash':
      if (target !== undefined) await h.gql(`mutation($id: ID) { deleteEvent(id: $id) { __typename } }`, { id: target });
      return;
    case 'restore':
      if (target !== undefined) await h.gql(`mutation($id: ID) { restoreEvent(id: $id) { __typename } }`, { id: target });
      return;
    case 'delete':
      // The row itself, outside the API: the cascade removes the event and its links.
      if (target !== undefined) await h.db.prisma.post.deleteMany({ where: { id: target } });
      return;
    case 'unlink':
      if (target !== undefined) await h.db.prisma.eventCategory.deleteMany({ where: { eventId: target } });
      return;
    case 'link': {
      // Several links in one statement (a category and its parent together, say).
      const ids = o.cats.map((n) => categories.get(n)!).filter((id) => id !== undefined);
      if (target !== undefined && ids.length) {
        await h.db.prisma.eventCategory.createMany({ data: ids.map((categoryId) => ({ eventId: target, categoryId })), skipDuplicates: true });
      }
      return;
    }
    case 'move': {
      // A cycle is refused by the API: nothing changes then.
      const parentId = o.parent ? String(categories.get(o.parent)) : '0';
      await h.gql(`mutation($id: ID!, $i: UpdateTermInput!) { updateEventCategory(id: $id, input: $i) { __typename } }`, { id: categories.get(o.category), i: { parentId } });
      return;
    }
    case 'dropCategory':
      await h.gql(`mutation($id: ID!) { deleteEventCategory(id: $id) { __typename } }`, { id: categories.get(o.category) });
      return;
  }
}

/** The kept counts, and the same counts taken from scratch from the events, links and categories. */
async function keptAndRecounted() {
  const kept = await h.db.prisma.$queryRaw<{ key: string; n: number }[]>`
    SELECT concat_ws(' ', "categoryId", "startDay", "endDay") AS key, "events" AS n FROM "EventListCount" ORDER BY 1`;
  const recounted = await h.db.prisma.$queryRaw<{ key: string; n: number }[]>`
    WITH RECURSIVE up(category, id) AS (
      SELECT "id", "id" FROM "Category"
      UNION SELECT up.category, c."parentId" FROM up JOIN "Category" c ON c."id" = up.id WHERE c."parentId" IS NOT NULL),
    listed AS (SELECT "id", "startLocal"::date AS s, "endLocal"::date AS e FROM "Event" WHERE "status" = 'publish' AND NOT "hideFromListings"),
    counted AS (
      SELECT 0 AS category, s, e, "id" FROM listed
      UNION SELECT up.id, s, e, listed."id" FROM listed JOIN "EventCategory" l ON l."eventId" = listed."id" JOIN up ON up.category = l."categoryId")
    SELECT concat_ws(' ', category, s, e) AS key, count(*)::int AS n FROM counted GROUP BY category, s, e ORDER BY 1`;
  return { kept, recounted };
}

/** Windows of every kind of bound: whole days, times (strict), relative bounds, none. */
const WINDOWS: EventFilter[] = [
  {},
  { defaultWindow: false },
  { startDate: '2026-12-02', endDate: '2026-12-06' },
  { startDate: '2026-11-28', endDate: '2026-12-20' },
  { startDate: '2026-12-05', endDate: '2026-12-05' },
  { startDate: '2026-12-03 10:30:00', endDate: '2026-12-08 17:15:00', strictDates: true },
  { startDate: '2026-12-01 00:00:00', endDate: '2026-12-04 23:59:59', strictDates: true },
  { startsAfter: '2026-12-03 09:00:00', strictDates: true },
  { endsBefore: '2026-12-07', startsBefore: '2026-12-06' },
  { endsAfter: '2026-12-02 12:00:00', startsBefore: '2026-12-09 08:00:00', strictDates: true },
  { startDate: '2026-12-10', endDate: '2026-12-02' },
];

async function expectTotals(categories: Map<string, number>) {
  const { kept, recounted } = await keptAndRecounted();
  expect(kept).toEqual(recounted);
  const ctx = await h.contextFor(null, NOW);
  const existing = new Set((await h.db.prisma.category.findMany({ select: { id: true } })).map((c) => c.id));
  const filters = [undefined, ...[...categories.values()].filter((id) => existing.has(id))];
  for (const window of WINDOWS) {
    for (const category of filters) {
      const filter = { ...window, ...(category ? { categories: [String(category)] } : {}) };
      const { where, count } = await buildEventListQuery(ctx, filter);
      expect(count, JSON.stringify(filter)).toBeDefined();
      expect(await count!(), JSON.stringify(filter)).toBe(await h.db.prisma.event.count({ where }));
    }
  }
}

describe('the public list total from kept counts', () => {
  it('equals the exact count after random writes, link changes and category moves', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 5, maxLength: 40 }), async (ops) => {
        await h.reset();
        const categories = await setUpCategories();
        const events: number[] = [];
        for (const [i, o] of ops.entries()) {
          await apply(o, events, categories);
          if (i % 10 === 9) await expectTotals(categories);
        }
        await expectTotals(categories);
      }),
      { numRuns: 10, seed: 20261128 },
    );
  }, 300_000);

  it('stay exact under concurrent writes to events sharing days and categories', async () => {
    const categories = await setUpCategories();
    const cat = (i: number) => String(categories.get(CATEGORIES[i % CATEGORIES.length]!));
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        h.ok(`mutation($i: CreateEventInput!) { createEvent(input: $i) { ${EVENT('CreateEventSuccess')} } }`, {
          i: { title: `E${i}`, startDate: wall(i % 2, 10), endDate: wall(i % 2, 12), categories: [cat(i), cat(i + 1)] },
        }),
      ),
    );
    const ids = created.map((d) => d.createEvent.event.databaseId as number);
    const update = (id: number, i: Record<string, unknown>) =>
      h.ok(`mutation($id: ID, $i: UpdateEventInput!) { updateEvent(id: $id, input: $i) { ${EVENT('UpdateEventSuccess')} } }`, { id, i });
    // Two writers on each event at once (dates against links, status against links), all on shared rows.
    await Promise.all(
      ids.flatMap((id, i) => [
        update(id, i % 2 ? { startDate: wall(2, 9), endDate: wall(3, 9) } : { status: 'DRAFT' }),
        update(id, { categories: [cat(i + 2), cat(i + 4)] }),
      ]),
    );
    await Promise.all(ids.map((id, i) => update(id, { status: 'PUBLISH', categories: [cat(i + 5)] })));
    await expectTotals(categories);
    const { kept } = await keptAndRecounted();
    expect(kept.length).toBeGreaterThan(0);
  });

  it('answers GraphQL and falls back to counting for filters the counts do not hold', async () => {
    const categories = await setUpCategories();
    const create = (i: Record<string, unknown>) =>
      h.ok(`mutation($i: CreateEventInput!) { createEvent(input: $i) { ${EVENT('CreateEventSuccess')} } }`, { i: { title: 'E', ...i } });
    await create({ startDate: wall(1, 10), endDate: wall(1, 12), categories: [String(categories.get('A1a'))] });
    await create({ startDate: wall(2, 10), endDate: wall(4, 12), categories: [String(categories.get('B'))], featured: true });
    await create({ startDate: wall(3, 10), endDate: wall(3, 12), status: 'DRAFT', categories: [String(categories.get('A'))] });
    const total = async (filter: Record<string, unknown>, as: 'ADMINISTRATOR' | null = null) =>
      (await h.ok(`query($f: EventFilter) { events(first: 1, filter: $f) { totalCount } }`, { f: filter }, { as, now: NOW })).events.totalCount as number;
    expect(await total({})).toBe(2);
    expect(await total({ categories: [String(categories.get('A'))] })).toBe(1);
    expect(await total({ categories: [String(categories.get('A')), String(categories.get('B'))] })).toBe(2);
    expect(await total({ featured: true })).toBe(1);
    expect(await total({}, 'ADMINISTRATOR')).toBe(3);

    const ctx = await h.contextFor(null, NOW);
    const admin = await h.contextFor('ADMINISTRATOR', NOW);
    const counted = async (filter: EventFilter, c = ctx) => (await buildEventListQuery(c, filter)).count !== undefined;
    expect(await counted({ categories: [String(categories.get('A'))] })).toBe(true);
    expect(await counted({ statuses: ['publish'] }, admin)).toBe(true);
    for (const filter of [
      { categories: [String(categories.get('A')), String(categories.get('B'))] },
      { featured: true },
      { search: 'E' },
      { tags: ['t'] },
      { occurrences: 'SERIES' as const },
    ]) {
      expect(await counted(filter).catch(() => false), JSON.stringify(filter)).toBe(false);
    }
    expect(await counted({}, admin)).toBe(false);
  });
});
