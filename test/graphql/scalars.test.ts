// Custom scalars at the in-process boundary: what the executor hands the REST facade and the pages
// is what the generated operation types (schema/codegen.ts SCALAR_TYPES) say, and what `/graphql` sends.
import { parse, type GraphQLScalarType } from 'graphql';
import { describe, expect, it } from 'vitest';
import { SCALAR_TYPES } from '../../schema/codegen.ts';
import { schema } from '../../schema/index.ts';
import { useGraphQLHarness, type GraphQLHarness } from '../helpers/graphql.ts';

let h: GraphQLHarness;
useGraphQLHarness((harness) => (h = harness));

/** A runtime value a resolver of each custom scalar returns. */
const RESOLVED: Record<string, unknown> = { DateTime: new Date('2026-11-28T21:47:00Z'), JSON: { a: [1] } };
const typeOfTs = (ts: string) => (ts === 'unknown' ? undefined : ts);

describe('custom scalars', () => {
  it('every custom scalar has a generated type, and serializes a resolved value to that type', () => {
    // By shape, not graphql's isScalarType: the schema may come from graphql's other build (ESM vs CJS).
    const custom = Object.values(schema.getTypeMap()).filter(
      (t): t is GraphQLScalarType => 'specifiedByURL' in t && !['String', 'Int', 'Float', 'Boolean', 'ID'].includes(t.name),
    );
    expect(custom.map((t) => t.name).sort()).toEqual(Object.keys(SCALAR_TYPES).sort());
    for (const type of custom) {
      const expected = typeOfTs(SCALAR_TYPES[type.name as keyof typeof SCALAR_TYPES]);
      const value = type.serialize(RESOLVED[type.name]);
      if (expected) expect(typeof value, type.name).toBe(expected);
    }
  });

  it('the executor hands DateTime fields over as the ISO text /graphql sends', async () => {
    const created = await h.ok(
      `mutation { createEvent(input: { title: "Late Show", startDate: "2026-11-28 16:47", endDate: "2026-11-28 18:47", timezone: "America/New_York", status: PUBLISH }) { ... on CreateEventSuccess { event { databaseId } } } }`,
    );
    const id = created.createEvent.event.databaseId as number;
    const document = parse(`query ScalarProbe($id: ID) { event(id: $id) { startsAt endsAt publishedAt modifiedAt } }`);
    const op = h.executor.prepare(document);
    const result = await h.executor.execute(op, { id }, await h.contextFor());
    expect(result.errors).toBeUndefined();
    const event = (result.data as { event: Record<string, unknown> }).event;
    for (const [field, value] of Object.entries(event)) {
      expect(typeof value, field).toBe('string');
      expect(value, field).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    }
    expect(event.startsAt).toBe('2026-11-28T21:47:00.000Z');
    // Over HTTP, the same text.
    const http = await h.ok(`query($id: ID) { event(id: $id) { startsAt endsAt publishedAt modifiedAt } }`, { id });
    expect(http.event).toEqual(event);
  });
});
