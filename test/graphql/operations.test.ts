// The operations the REST facade and the pages run in-process fit the schema. The executor
// validates a document on its first run (src/server/yoga.ts), not when the server starts: this file
// is where a document that no longer fits the schema fails, before any request runs it.
import { parse, type DocumentNode } from 'graphql';
import { describe, expect, it } from 'vitest';
import * as rest from '../../rest-facade/generated/operations.ts';
import * as pages from '../../src/web/generated/operations.ts';
import { useGraphQLHarness, type GraphQLHarness } from '../helpers/graphql.ts';

let h: GraphQLHarness;
useGraphQLHarness((harness) => (h = harness));

const operationsOf = (module: Record<string, unknown>) =>
  Object.entries(module).filter(
    (entry): entry is [string, DocumentNode] =>
      typeof entry[1] === 'object' && entry[1] !== null && (entry[1] as DocumentNode).definitions?.some((d) => d.kind === 'OperationDefinition'),
  );

describe('in-process operations', () => {
  it.each([
    ['the REST facade', rest],
    ['the pages', pages],
  ] as const)('every operation of %s validates against the schema', async (_who, module) => {
    const operations = operationsOf(module);
    expect(operations.length).toBeGreaterThan(3);
    const cal = await h.contextFor();
    for (const [name, document] of operations) {
      const op = h.executor.prepare(document);
      // Empty variables: a required variable's absence is a coercion error, not a validation one.
      const run = h.executor.execute(op, {}, cal);
      await expect(run, name).resolves.toBeDefined();
    }
  });

  it('a document that does not fit the schema never runs: its first run throws', async () => {
    const op = h.executor.prepare(parse('query Stale { events(perPage: 1) { nodes { noSuchField } } }'));
    await expect(h.executor.execute(op, {}, await h.contextFor())).rejects.toThrow(/invalid REST operation document: .*noSuchField/);
  });
});
