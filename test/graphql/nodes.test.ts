/** `nodes` loads through per-request DataLoaders: one SQL statement per node type, whatever the number of IDs. */
import { beforeAll, expect, it } from 'vitest';
import { createGraphQLHarness } from '../helpers/graphql.ts';

let statements: string[] = [];
let h: Awaited<ReturnType<typeof createGraphQLHarness>>;
beforeAll(async () => {
  h = await createGraphQLHarness({ onQuery: (sql) => statements.push(sql) });
});

it('loads 50 IDs of events and venues in one statement per type', { timeout: 60_000 }, async () => {
  const ids: string[] = [];
  for (let i = 0; i < 8; i++) {
    const r = await h.gql(`mutation { createEvent(input: { title: "E${i}", startDate: "2026-12-01 10:00", endDate: "2026-12-01 11:00", status: PUBLISH }) { ... on CreateEventSuccess { event { id } } } }`);
    ids.push(r.data.createEvent.event.id);
  }
  for (let i = 0; i < 2; i++) {
    const r = await h.gql(`mutation { createVenue(input: { name: "V${i}", status: PUBLISH }) { ... on CreateVenueSuccess { venue { id } } } }`);
    ids.push(r.data.createVenue.venue.id);
  }
  // 50 IDs (the largest page): each record asked five times.
  ids.push(...ids, ...ids, ...ids, ...ids);
  statements = [];
  const r = await h.gql(`query ($ids: [ID!]!) { nodes(ids: $ids) { id ... on Event { title } ... on Venue { name } } }`, { ids }, { as: null });
  expect(r.errors).toBeUndefined();
  expect(r.data.nodes).toHaveLength(50);
  expect(r.data.nodes.every((n: unknown) => n !== null)).toBe(true);
  expect(statements.length).toBeLessThanOrEqual(2);
});
