// The REST facade's and the pages' operations run compiled (graphql-jit, src/server/compiled-operations.ts):
// the same answer as graphql-js gives `/graphql` for the same document, and the same statements —
// every relation from its parent's query, none loaded per record again (schema/shared-paths.ts).
import { print, type DocumentNode } from 'graphql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import * as rest from '../../rest-facade/generated/operations.ts';
import * as pages from '../../src/web/generated/operations.ts';
import { createGraphQLHarness, type GraphQLHarness } from '../helpers/graphql.ts';

const compiled = vi.hoisted(() => ({ names: [] as string[] }));
vi.mock('graphql-jit', async (original) => {
  const jit = await original<typeof import('graphql-jit')>();
  return {
    ...jit,
    compileQuery: ((...args: Parameters<typeof jit.compileQuery>) => {
      const [, document, operationName] = args;
      const first = document.definitions.find((d) => d.kind === 'OperationDefinition');
      compiled.names.push(operationName ?? (first && 'name' in first ? (first.name?.value ?? '') : ''));
      return jit.compileQuery(...args);
    }) as typeof jit.compileQuery,
  };
});

const NOW = new Date('2026-11-21T11:55:56Z');
const statements: string[] = [];
let counting = false;
let h: GraphQLHarness;
let ids: { event: number; venue: number; organizer: number };

beforeAll(async () => {
  h = await createGraphQLHarness({ now: () => NOW, onQuery: (sql) => counting && statements.push(sql) });
  // Images on events and on a venue: an image whose row a parent loaded must not be loaded again.
  const images: number[] = [];
  for (const name of ['poster', 'hall']) {
    const image = await h.db.prisma.attachment.create({
      data: { post: { create: { type: 'ATTACHMENT' } }, url: `https://cdn.example.org/${name}.jpg`, mimeType: 'image/jpeg', width: 800, height: 600, filesize: 1234 },
    });
    images.push(image.id);
  }
  const venue = (await h.ok(`mutation { createVenue(input: { name: "Hall", city: "Springfield", image: "${images[1]}" }) { ... on CreateVenueSuccess { venue { databaseId } } } }`)).createVenue.venue.databaseId;
  let first: { databaseId: number; organizers: { databaseId: number }[] } | undefined;
  for (let i = 0; i < 24; i++) {
    const created = await h.ok(
      `mutation($input: CreateEventInput!) { createEvent(input: $input) { ... on CreateEventSuccess { event { databaseId organizers { databaseId } } } } }`,
      {
        input: {
          title: `Event “${i}”`,
          description: `<p>Night ${i} / of ${24}</p>`,
          startDate: `2026-12-${String((i % 28) + 1).padStart(2, '0')} 19:00`,
          endDate: `2026-12-${String((i % 28) + 1).padStart(2, '0')} 22:00`,
          cost: i % 3 ? `${10 + i}` : '',
          ...(i % 2 ? { image: String(images[0]) } : {}),
          venues: i % 4 ? [{ id: venue }] : [{ create: { name: `Other ${i}` } }],
          organizers: [{ create: { name: `Org ${i % 5}`, email: `org${i % 5}@example.org` } }],
          categories: [`cat-${i % 3}`, `cat-${(i + 1) % 3}`],
          tags: [`tag-${i % 2}`],
        },
      },
      { now: NOW },
    );
    first ??= created.createEvent.event;
  }
  ids = { event: first!.databaseId, venue, organizer: first!.organizers[0]!.databaseId };
}, 120_000);
afterAll(() => h.close());

/** Runs `run` and returns its value with the statements it sent. */
async function counted<T>(run: () => Promise<T>): Promise<{ value: T; statements: number }> {
  statements.length = 0;
  counting = true;
  try {
    const value = await run();
    return { value, statements: statements.length };
  } finally {
    counting = false;
  }
}

describe('compiled operations', () => {
  const reads: [string, DocumentNode, () => Record<string, unknown>][] = [
    ['EventsArchive', rest.EventsArchiveDocument, () => ({ perPage: 50 })],
    ['EventsArchive, a page', rest.EventsArchiveDocument, () => ({ perPage: 5, page: 3, filter: { categories: ['cat-1'] } })],
    ['EventById', rest.EventByIdDocument, () => ({ id: ids.event })],
    ['VenuesArchive', rest.VenuesArchiveDocument, () => ({ perPage: 10 })],
    ['VenueById', rest.VenueByIdDocument, () => ({ id: ids.venue })],
    ['OrganizersArchive', rest.OrganizersArchiveDocument, () => ({ perPage: 10 })],
    ['OrganizerById', rest.OrganizerByIdDocument, () => ({ id: ids.organizer })],
    ['EventCategoryList', rest.EventCategoryListDocument, () => ({ perPage: 10 })],
    ['ViewEventList (pages)', pages.ViewEventListDocument, () => ({ perPage: 10, other: { startsBefore: '2026-12-05' } })],
    ['EventPage (pages)', pages.EventPageDocument, () => ({ id: ids.event })],
  ];

  it.each(reads)('%s: the answer and the statements of graphql-js', async (_name, document, variables) => {
    for (const as of [null, 'ADMINISTRATOR'] as const) {
      const cal = await h.contextFor(as, NOW);
      const op = h.executor.prepare(document);
      await h.executor.execute(op, variables(), cal); // validated on its first run, not counted
      const before = compiled.names.length;
      const jit = await counted(() => h.executor.execute(op, variables(), cal));
      const js = await counted(() => h.gql(print(document), variables(), { as, now: NOW }));
      expect(jit.value.errors, JSON.stringify(jit.value.errors)).toBeUndefined();
      expect(js.value.errors, JSON.stringify(js.value.errors)).toBeUndefined();
      expect(JSON.stringify(jit.value.data)).toBe(JSON.stringify(js.value.data));
      expect(jit.statements).toBe(js.statements);
      // Compiled once (on the first run above), then run compiled.
      expect(compiled.names.length).toBe(before);
      expect(compiled.names).toContain(op.name);
    }
  });

  it('a write answers as graphql-js does, typed errors included', async () => {
    const cal = await h.contextFor('ADMINISTRATOR', NOW);
    const op = h.executor.prepare(rest.UpdateEventDocument);
    const missing = await h.executor.execute(op, { id: 999_999, input: { title: 'x' } }, cal);
    const js = await h.gql(print(rest.UpdateEventDocument), { id: 999_999, input: { title: 'x' } }, { now: NOW });
    expect(JSON.stringify(missing)).toBe(JSON.stringify(js));
    expect(missing.data?.updateEvent).toMatchObject({ __typename: 'NotFoundError' });
    const bad = await h.executor.execute(op, { id: ids.event, input: { startDate: 'not a date' } }, cal);
    expect(bad.data?.updateEvent).toMatchObject({ __typename: 'ValidationError', field: 'startDate' });
  });
});

describe('instrumentation around compiled operations', () => {
  it("a plugin's onExecute, onExecuteDone and instrumentation.execute see every compiled execution", async () => {
    const { createYoga } = await import('graphql-yoga');
    const { schema } = await import('../../schema/index.ts');
    const { useCompiledOperations } = await import('../../src/server/compiled-operations.ts');
    const seen: string[] = [];
    const yoga = createYoga({
      schema,
      plugins: [
        {
          instrumentation: { execute: (_payload: unknown, wrapped: () => unknown) => (seen.push('instrumentation'), wrapped()) },
          onExecute: ({ args }: { args: { operationName?: string | null } }) => {
            seen.push(`start ${args.operationName}`);
            return { onExecuteDone: ({ result }: { result: unknown }) => void seen.push(`done ${Object.keys((result as { data: object }).data).join()}`) };
          },
        },
        useCompiledOperations({ compile: () => true }),
      ],
      context: ({ cal }: { cal: unknown }) => cal,
      logging: false,
    });
    const before = compiled.names.length;
    const cal = await h.contextFor(null, NOW);
    const { execute, contextFactory } = yoga.getEnveloped({ cal });
    const result = (await execute({ schema, document: rest.VenuesArchiveDocument, variableValues: { perPage: 2 }, contextValue: await contextFactory(), operationName: 'VenuesArchive' })) as { data?: { venues?: unknown } };
    expect(result.data?.venues).toBeDefined();
    expect(compiled.names.slice(before)).toEqual(['VenuesArchive']);
    expect(seen).toEqual(['instrumentation', 'start VenuesArchive', 'done venues']);
  });
});

describe('which documents run compiled over /graphql', () => {
  it('a trusted document does; an ad-hoc one and one with @defer do not', async () => {
    const { createGraphQLServer } = await import('../../src/server/yoga.ts');
    const { loadConfig } = await import('../../src/server/config.ts');
    const { schema } = await import('../../schema/index.ts');
    const trusted = 'query TrustedVenues { venues(perPage: 1) { totalCount } }';
    const yoga = createGraphQLServer(schema, { limits: loadConfig({}).graphql, trustedDocuments: new Map([['venues-1', trusted]]) });
    const cal = await h.contextFor('ADMINISTRATOR', NOW);
    const post = async (body: object) => {
      const res = await yoga.fetch('http://test/graphql', { method: 'POST', headers: { 'content-type': 'application/json', authorization: 'Basic x' }, body: JSON.stringify(body) }, { cal });
      return res.text();
    };
    const before = compiled.names.length;
    expect(await post({ documentId: 'venues-1' })).toContain('"totalCount"');
    expect(await post({ query: 'query AdHoc { venues(perPage: 1) { totalCount } }' })).toContain('"totalCount"');
    expect(await post({ query: 'query Deferred { venues(perPage: 1) { ... @defer { totalCount } } }' })).toContain('totalCount');
    expect(compiled.names.slice(before)).toEqual(['TrustedVenues']);
  });
});
