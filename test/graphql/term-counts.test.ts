/**
 * Term counts (`count` of categories and tags: published events) are a column the database keeps
 * up to date with triggers. After every kind of write, and after concurrent writes, the stored
 * counts must equal the counts computed from the links.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGraphQLHarness } from '../helpers/graphql.ts';

let h: Awaited<ReturnType<typeof createGraphQLHarness>>;
beforeAll(async () => {
  h = await createGraphQLHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

/** Stored and computed counts of every term, side by side. */
async function counts() {
  const published = { event: { status: 'publish' as const } };
  const [cats, tags, catLinks, tagLinks] = await Promise.all([
    h.db.prisma.category.findMany({ select: { name: true, publishedCount: true }, orderBy: { name: 'asc' } }),
    h.db.prisma.tag.findMany({ select: { name: true, publishedCount: true }, orderBy: { name: 'asc' } }),
    h.db.prisma.eventCategory.findMany({ where: published, select: { category: { select: { name: true } } } }),
    h.db.prisma.eventTag.findMany({ where: published, select: { tag: { select: { name: true } } } }),
  ]);
  const tally = (names: string[]) => names.reduce<Record<string, number>>((m, n) => ({ ...m, [n]: (m[n] ?? 0) + 1 }), {});
  const computedCats = tally(catLinks.map((l) => l.category.name));
  const computedTags = tally(tagLinks.map((l) => l.tag.name));
  return {
    stored: Object.fromEntries([...cats, ...tags].map((t) => [t.name, t.publishedCount])),
    computed: Object.fromEntries([...cats, ...tags].map((t) => [t.name, computedCats[t.name] ?? computedTags[t.name] ?? 0])),
  };
}

async function expectCounts(expected: Record<string, number>) {
  const { stored, computed } = await counts();
  expect(stored).toEqual(computed);
  expect(stored).toMatchObject(expected);
}

const EVENT = (payload: string) => `... on ${payload} { event { databaseId } } ... on Error { __typename code message }`;
const create = async (input: Record<string, unknown>) =>
  (await h.ok(`mutation($i: CreateEventInput!) { createEvent(input: $i) { ${EVENT('CreateEventSuccess')} } }`, {
    i: { startDate: '2026-12-20 10:00:00', endDate: '2026-12-20 11:00:00', ...input },
  })).createEvent.event.databaseId as number;
const update = (id: number, input: Record<string, unknown>) =>
  h.ok(`mutation($id: ID, $i: UpdateEventInput!) { updateEvent(id: $id, input: $i) { ${EVENT('UpdateEventSuccess')} } }`, { id, i: input });
const count = async (field: 'eventCategory' | 'eventTag', name: string) => {
  const id =
    field === 'eventCategory'
      ? (await h.db.prisma.category.findFirstOrThrow({ where: { name } })).id
      : (await h.db.prisma.tag.findFirstOrThrow({ where: { name } })).id;
  const type = field === 'eventCategory' ? 'EventCategory' : 'EventTag';
  return (await h.ok(`query($id: ID!) { ${field}(id: $id) { ... on ${type} { count } } }`, { id }))[field].count as number;
};

describe('term counts kept by the database', () => {
  it('follow creates, term changes, status changes, trash, restore, purge and term deletion', async () => {
    const a = await create({ title: 'A', categories: ['Music', 'Jazz'], tags: ['free'] });
    await create({ title: 'B', categories: ['Music'], tags: ['free', 'outdoor'], status: 'DRAFT' });
    await expectCounts({ Music: 1, Jazz: 1, free: 1, outdoor: 0 });
    expect(await count('eventCategory', 'Music')).toBe(1);

    const b = (await h.db.prisma.event.findFirstOrThrow({ where: { title: 'B' } })).id;
    await update(b, { status: 'PUBLISH' });
    await expectCounts({ Music: 2, Jazz: 1, free: 2, outdoor: 1 });

    await update(a, { categories: ['Jazz', 'Theatre'], tags: [] });
    await expectCounts({ Music: 1, Jazz: 1, Theatre: 1, free: 1, outdoor: 1 });

    await h.ok(`mutation($id: ID) { deleteEvent(id: $id) { ${EVENT('DeleteEventSuccess')} } }`, { id: b });
    await expectCounts({ Music: 0, free: 0, outdoor: 0 });
    expect(await count('eventTag', 'outdoor')).toBe(0);

    await h.ok(`mutation($id: ID) { restoreEvent(id: $id) { ${EVENT('RestoreEventSuccess')} } }`, { id: b });
    await expectCounts({ Music: 1, free: 1, outdoor: 1 });

    // A future publication date makes it `future`: not counted until it is published.
    await update(a, { date: '2099-01-01 00:00:00', status: 'PUBLISH' });
    await expectCounts({ Jazz: 0, Theatre: 0 });
    await update(a, { date: '2020-01-01 00:00:00' });
    await expectCounts({ Jazz: 1, Theatre: 1 });

    await h.ok(`mutation($id: ID) { deleteEvent(id: $id) { ${EVENT('DeleteEventSuccess')} } }`, { id: a });
    await h.ok(`mutation($id: ID) { purgeEvent(id: $id) { ... on PurgeEventSuccess { deletedId } ... on Error { code } } }`, { id: a });
    await expectCounts({ Jazz: 0, Theatre: 0, Music: 1 });

    // Deleting a published event's row outright (not through the API) keeps the counts right too.
    await h.db.prisma.post.delete({ where: { id: b } });
    await expectCounts({ Music: 0, free: 0, outdoor: 0 });

    const music = await h.db.prisma.category.findFirstOrThrow({ where: { name: 'Music' } });
    await h.ok(`mutation($id: ID!) { deleteEventCategory(id: $id) { __typename } }`, { id: music.id });
    await expectCounts({});
  });

  it('stay exact under concurrent writes to events sharing terms', async () => {
    const cats = ['C1', 'C2', 'C3', 'C4'];
    const tags = ['T1', 'T2', 'T3', 'T4'];
    for (const name of cats) await h.ok(`mutation($n: String!) { createEventCategory(input: { name: $n }) { __typename } }`, { n: name });
    // Concurrent creates naming the same new tags: each tag is created once and reused.
    const ids = await Promise.all(
      Array.from({ length: 8 }, (_, i) => create({ title: `E${i}`, categories: [cats[i % 4], cats[(i + 1) % 4]], tags: [tags[(i + 2) % 4]] })),
    );
    expect(await h.db.prisma.tag.count()).toBe(4);
    await expectCounts({ C1: 4, C2: 4, C3: 4, C4: 4, T1: 2, T2: 2, T3: 2, T4: 2 });
    // Swap terms, unpublish and republish concurrently: every writer touches several shared terms.
    await Promise.all(
      ids.map((id, i) =>
        i % 3 === 0
          ? update(id, { status: 'DRAFT' })
          : update(id, { categories: [cats[(i + 3) % 4], cats[(i + 2) % 4]], tags: [tags[i % 4], tags[(i + 1) % 4]] }),
      ),
    );
    await Promise.all(ids.filter((_, i) => i % 3 === 0).map((id) => update(id, { status: 'PUBLISH', categories: ['C4', 'C1'] })));
    const { stored, computed } = await counts();
    expect(stored).toEqual(computed);
    expect(Object.values(stored).reduce((s, n) => s + n, 0)).toBeGreaterThan(0);
  });
});
