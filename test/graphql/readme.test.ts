import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGraphQLHarness } from '../helpers/graphql.ts';

/** The GraphQL examples of docs/graphql.md, each the ```graphql block after `<!-- readme-query: name -->`. */
function readmeQuery(name: string): string {
  const readme = readFileSync(new URL('../../docs/graphql.md', import.meta.url), 'utf8');
  const m = new RegExp(`<!-- readme-query: ${name} -->\\s*\`\`\`graphql\\n([^]*?)\`\`\``).exec(readme);
  if (!m) throw new Error(`docs/graphql.md has no query marked ${name}`);
  return m[1]!;
}

const NOW = new Date('2026-11-21T11:55:56Z');
let h: Awaited<ReturnType<typeof createGraphQLHarness>>;

beforeAll(async () => {
  h = await createGraphQLHarness({ now: () => NOW });
  const create = (input: Record<string, unknown>) =>
    h.ok(`mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId } } ... on Error { code message } } }`, { input }, { now: NOW });
  await create({
    title: 'Summer Jazz Night',
    description: 'Live jazz on the lawn.',
    startDate: '2026-12-05 19:00',
    endDate: '2026-12-05 22:30',
    cost: ['15'],
    venues: [{ create: { name: 'Grand Hall', address: '1 Main St', city: 'Springfield' } }],
    organizers: [{ create: { name: 'Jane Org', email: 'jane@example.com' } }],
    categories: ['Music'],
    tags: ['outdoor'],
  });
  await create({ title: 'Winter Market', startDate: '2026-12-12', endDate: '2026-12-12', allDay: true, categories: ['Markets'] });
  await create({ title: 'Last Year', startDate: '2025-11-01 10:00', endDate: '2025-11-01 11:00' });
  await create({ title: 'Unpublished', startDate: '2026-12-13 10:00', endDate: '2026-12-13 11:00', status: 'DRAFT' });
}, 120_000);
afterAll(() => h.close());

describe("docs/graphql.md's GraphQL queries", () => {
  it('upcoming events with venues and categories', async () => {
    const data = await h.ok(readmeQuery('upcoming-events'), {}, { as: null, now: NOW });
    expect(data).toEqual({
      events: {
        totalCount: 2,
        totalPages: 1,
        nodes: [
          {
            title: 'Summer Jazz Night',
            slug: 'summer-jazz-night',
            startDate: '2026-12-05 19:00:00',
            endDate: '2026-12-05 22:30:00',
            allDay: false,
            venues: [{ name: 'Grand Hall', city: 'Springfield' }],
            categories: [{ name: 'Music', slug: 'music' }],
          },
          {
            title: 'Winter Market',
            slug: 'winter-market',
            startDate: '2026-12-12 00:00:00',
            endDate: '2026-12-12 23:59:59',
            allDay: true,
            venues: [],
            categories: [{ name: 'Markets', slug: 'markets' }],
          },
        ],
      },
    });
    expect((await h.ok(readmeQuery('upcoming-events'), { page: 2 }, { as: null, now: NOW })).events).toMatchObject({ totalCount: 2, nodes: [] });
  });

  it('one event by slug; null for a slug that names nothing readable', async () => {
    const query = readmeQuery('event-by-slug');
    expect(await h.ok(query, { slug: 'summer-jazz-night' }, { as: null, now: NOW })).toEqual({
      event: {
        title: 'Summer Jazz Night',
        description: '<p>Live jazz on the lawn.</p>',
        startDate: '2026-12-05 19:00:00',
        endDate: '2026-12-05 22:30:00',
        timezone: 'America/New_York',
        cost: '$15',
        venues: [{ name: 'Grand Hall', address: '1 Main St', city: 'Springfield' }],
        organizers: [{ name: 'Jane Org', email: 'jane@example.com' }],
        tags: [{ name: 'outdoor' }],
      },
    });
    expect(await h.ok(query, { slug: 'no-such-event' }, { as: null, now: NOW })).toEqual({ event: null });
    expect(await h.ok(query, { slug: 'unpublished' }, { as: null, now: NOW })).toEqual({ event: null });
  });
});
