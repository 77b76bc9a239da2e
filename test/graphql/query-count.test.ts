import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphQLHarness } from '../helpers/graphql.ts';

const NOW = new Date('2026-11-21T11:55:56Z');
const statements: string[] = [];
let counting = false;
let h: Awaited<ReturnType<typeof createGraphQLHarness>>;

beforeAll(async () => {
  h = await createGraphQLHarness({ now: () => NOW, onQuery: (sql) => counting && statements.push(sql) });
  const venues = [];
  for (let i = 0; i < 5; i++) {
    venues.push((await h.ok(`mutation($n: String!) { createVenue(input: { name: $n }) { ... on Venue { databaseId } } }`, { n: `Venue ${i}` })).createVenue.databaseId);
  }
  for (let i = 0; i < 60; i++) {
    await h.ok(
      `mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on Event { databaseId } } }`,
      {
        input: {
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
  }
}, 120_000);
afterAll(() => h.close());

const PAGE = `query($perPage: Int) {
  events(perPage: $perPage) {
    ... on EventConnection {
      totalCount
      edges { node {
        databaseId title startDate cost
        venues { databaseId name city image { url } }
        organizers { databaseId name email }
        categories { databaseId name slug parentId count }
        tags { databaseId name slug count }
        image { url }
      } }
    }
  }
}`;

describe('Query.events batching (no N+1)', () => {
  it.each([10, 50])('resolves a page of %i events with all relations in at most 6 SQL statements', async (perPage) => {
    statements.length = 0;
    counting = true;
    const r = await h.ok(PAGE, { perPage }, { as: null, now: NOW });
    counting = false;
    expect(r.events.edges).toHaveLength(perPage);
    expect(r.events.edges[0].node.organizers).toHaveLength(2);
    expect(r.events.edges[0].node.categories[0].count).toBeGreaterThan(0);
    expect(statements.length).toBeLessThanOrEqual(6);
  });
});
