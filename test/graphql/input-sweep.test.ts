import { afterAll, beforeAll, expect, it } from 'vitest';
import { createGraphQLHarness, type GraphQLHarness } from '../helpers/graphql.ts';
import { isList, named, print, TYPE_REF, type InputValue, type TypeRef } from '../helpers/introspection.ts';

/**
 * No input a client can send is answered as a server fault: the schema is
 * introspected, and every argument of every root Query and Mutation field (and every field of an
 * input object argument) gets malformed values through variables. Every error must carry an
 * `extensions.code`, and none may be the masked "Unexpected error.".
 */
let h: GraphQLHarness;
beforeAll(async () => {
  h = await createGraphQLHarness();
  // Seed a little so reads have something to chew on.
  await h.ok(`mutation { createEvent(input: { title: "Sweep", startDate: "2030-01-01 10:00", endDate: "2030-01-01 11:00", status: PUBLISH, categories: ["Jazz"], tags: ["Live"] }) { ... on CreateEventSuccess { event { id } } } }`);
});
afterAll(() => h?.close());

interface FieldInfo {
  name: string;
  args: InputValue[];
  type: TypeRef;
}
interface FullType {
  kind: string;
  name: string;
  fields: FieldInfo[] | null;
  inputFields: InputValue[] | null;
  enumValues: { name: string }[] | null;
}

const INTROSPECTION = `{ __schema { queryType { name } mutationType { name }
  types { kind name fields { name args { name type { ${TYPE_REF} } } type { ${TYPE_REF} } } inputFields { name type { ${TYPE_REF} } } enumValues { name } } } }`;


const LONG = 'é'.repeat(20_000);
const UNICODE = '💥 \u0000 \u202e ﷽ 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 \ud800';
/** Malformed values of each scalar (type-correct: they pass coercion and reach the resolvers), then wrong-typed ones. */
const SCALAR_VALUES: Record<string, unknown[]> = {
  Int: [-1, 0, 2147483647, -2147483648, 2147483648, 1.5, '7'],
  Float: [-1, 1e308, -0.0, 'x'],
  String: ['', ' ', LONG, UNICODE, 'not a date', '2026-13-45 25:61', '0000-00-00', '-1', '%', '\\', "' OR 1=1 --", 7],
  Boolean: ['yes', 1],
  ID: ['4', 'x', '', ' ', LONG, UNICODE, Buffer.from('Event:abc').toString('base64'), Buffer.from('Nope:1').toString('base64'), Buffer.from('Event:-1').toString('base64'), Buffer.from('Event:99999999999999999999').toString('base64'), 7],
  DateTime: ['', 'not a date', '2026-02-30T10:00:00Z', '+275760-09-13T00:00:00.001Z', 0, UNICODE],
  JSON: [null, {}, [], LONG],
};

let types: Map<string, FullType>;
function malformed(t: TypeRef, depth = 0): unknown[] {
  const base = named(t);
  let values: unknown[];
  if (base.kind === 'SCALAR') values = SCALAR_VALUES[base.name!] ?? ['', LONG];
  else if (base.kind === 'ENUM') values = ['NOPE', '', 'publish', 7];
  else if (base.kind === 'INPUT_OBJECT') {
    // Each field of the input object alone with each malformed value (one level down), plus wrong shapes.
    values = [{}, 'x', 7];
    if (depth < 2) {
      for (const f of types.get(base.name!)!.inputFields ?? []) for (const v of malformed(f.type, depth + 1)) values.push({ [f.name]: v });
    }
  } else values = [''];
  // Lists: the values as one-element lists, an empty list, a list with null, and a bare value.
  if (isList(t)) return [...values.slice(0, 6).map((v) => [v]), [], [null], values[0]];
  return [...values, null];
}

/** A plausible value for a required argument that is not under test. */
function plausible(t: TypeRef): unknown {
  const base = named(t);
  if (isList(t)) return [plausible({ ...base })];
  if (base.kind === 'ENUM') return types.get(base.name!)!.enumValues![0]!.name;
  if (base.kind === 'INPUT_OBJECT') {
    const out: Record<string, unknown> = {};
    for (const f of types.get(base.name!)!.inputFields ?? []) if (f.type.kind === 'NON_NULL') out[f.name] = plausible(f.type);
    return out;
  }
  return { Int: 1, Float: 1, String: 'a', Boolean: true, ID: Buffer.from('Event:1').toString('base64'), DateTime: '2030-01-01T00:00:00Z' }[base.name!] ?? 'a';
}

function selectionOf(t: TypeRef): string {
  const base = named(t);
  return base.kind === 'OBJECT' || base.kind === 'INTERFACE' || base.kind === 'UNION' ? ' { __typename }' : '';
}

async function sweep(rootName: string, operation: 'query' | 'mutation') {
  const failures: string[] = [];
  let requests = 0;
  for (const field of types.get(rootName)!.fields!) {
    for (const arg of field.args) {
      const cases = malformed(arg.type);
      await Promise.all(
        cases.map(async (value) => {
          const others = field.args.filter((a) => a !== arg);
          const variables: Record<string, unknown> = { v: value };
          const defs = [`$v: ${print(arg.type)}`];
          const args = [`${arg.name}: $v`];
          for (const o of others) {
            if (o.type.kind !== 'NON_NULL') continue;
            variables[o.name] = plausible(o.type);
            defs.push(`$${o.name}: ${print(o.type)}`);
            args.push(`${o.name}: $${o.name}`);
          }
          const query = `${operation} (${defs.join(', ')}) { ${field.name}(${args.join(', ')})${selectionOf(field.type)} }`;
          requests++;
          const result = await h.gql(query, variables, { as: 'ADMINISTRATOR' });
          for (const error of result.errors ?? []) {
            if (!error.extensions?.code || error.message === 'Unexpected error.') {
              failures.push(`${field.name}(${arg.name}: ${JSON.stringify(value)?.slice(0, 60)}) → ${JSON.stringify(error).slice(0, 300)}`);
            }
          }
        }),
      );
    }
  }
  return { failures, requests };
}

it('answers malformed arguments of every Query field with coded errors', { timeout: 600_000 }, async () => {
  const schema = (await h.ok(INTROSPECTION)).__schema;
  types = new Map((schema.types as FullType[]).map((t) => [t.name, t]));
  const { failures, requests } = await sweep(schema.queryType.name, 'query');
  console.log(`query sweep: ${requests} requests`);
  expect(failures).toEqual([]);
  expect(requests).toBeGreaterThan(200);
});

it('answers malformed arguments of every Mutation field with coded errors', { timeout: 900_000 }, async () => {
  const schema = (await h.ok(INTROSPECTION)).__schema;
  types = new Map((schema.types as FullType[]).map((t) => [t.name, t]));
  const { failures, requests } = await sweep(schema.mutationType.name, 'mutation');
  console.log(`mutation sweep: ${requests} requests`);
  expect(failures).toEqual([]);
  expect(requests).toBeGreaterThan(500);
});

it('node / nodes: a malformed ID is BAD_USER_INPUT naming the argument, an unknown one is null', async () => {
  const { id } = (
    await h.ok(`mutation { createEvent(input: { title: "Node", startDate: "2030-01-02 10:00", endDate: "2030-01-02 11:00", status: PUBLISH }) { ... on CreateEventSuccess { event { id } } } }`)
  ).createEvent.event;
  expect(await h.refused('{ node(id: "4") { __typename } }')).toMatchObject({ code: 'BAD_USER_INPUT', field: 'id', type: 'ValidationError' });
  const unknown = Buffer.from('Event:999999').toString('base64');
  expect(await h.gql(`{ node(id: "${unknown}") { __typename } }`)).toEqual({ data: { node: null } });
  // In a list, the malformed item alone fails: the others are answered.
  const r = await h.gql(`{ nodes(ids: ["x", "${id}", "${unknown}"]) { __typename } }`, {}, { as: null });
  expect(r.data).toEqual({ nodes: [null, { __typename: 'Event' }, null] });
  expect(r.errors).toMatchObject([{ path: ['nodes', 0], extensions: { code: 'BAD_USER_INPUT', field: 'ids' } }]);
});
