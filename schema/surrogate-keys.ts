import { defaultFieldResolver, type GraphQLField, type GraphQLFieldMap, type GraphQLSchema, type GraphQLType } from 'graphql';
import { isKeyedType, type KeyedType, type SurrogateKeys } from '../src/domain/surrogate-keys.ts';

/**
 * Surrogate keys from what the resolvers actually load (src/domain/surrogate-keys.ts), in one place
 * for every API: REST and the pages run GraphQL operations too, so every response built on the
 * schema is tagged the same way. Every field returning a keyed record (Event, Venue, Organizer,
 * EventCategory, EventTag) — a root lookup, a relation (`event.venues`), a connection's `node` —
 * names the records it returned; a field returning a list or connection of them names their list
 * family (another record may join the list); a root lookup that found nothing names the family
 * (the record may be created). `node`/`nodes` name theirs in the node loader (schema/node-loader.ts).
 *
 * Only requests that carry a collector (`ctx.surrogateKeys`: anonymous GET reads) pay anything
 * beyond one property read per tagged field.
 */
export function tagSurrogateKeys(schema: GraphQLSchema): GraphQLSchema {
  const rootQuery = schema.getQueryType();
  for (const type of Object.values(schema.getTypeMap())) {
    const fields = fieldsOf(type);
    if (!fields || type.name.startsWith('__')) continue;
    for (const field of Object.values(fields)) {
      const named = namedOf(field.type);
      if (isKeyedType(named.name)) wrap(field, named.name, isList(field.type) ? 'list' : type === rootQuery ? 'root' : 'nested');
      else {
        const listed = connectionOf(named);
        if (listed) wrap(field, listed, 'list');
      }
    }
  }
  return schema;
}

// The type helpers of graphql-js check `instanceof`, which fails across its ESM and CJS builds
// (both may be loaded: see src/server/yoga.ts): the schema's types are read by shape instead.

/** The fields of an object or interface type; null for other types. */
function fieldsOf(type: GraphQLType): GraphQLFieldMap<unknown, unknown> | null {
  return 'getFields' in type && !('getValues' in type) && !('parseLiteral' in type) && !('ofType' in type) && 'getInterfaces' in type ? type.getFields() : null;
}

/** The named type under list and non-null wrappers. */
function namedOf(type: GraphQLType): Exclude<GraphQLType, { ofType: unknown }> {
  let t = type;
  while ('ofType' in t) t = t.ofType;
  return t;
}

/** Whether the type is a list (possibly non-null). */
const isList = (type: GraphQLType) => type.toString().startsWith('[');

/** The keyed type a Relay connection lists (its `edges.node`), if it is one. */
function connectionOf(type: GraphQLType): KeyedType | null {
  const edges = fieldsOf(type)?.edges;
  if (!edges) return null;
  const node = fieldsOf(namedOf(edges.type))?.node;
  const nodeType = node && namedOf(node.type).name;
  return nodeType && isKeyedType(nodeType) ? nodeType : null;
}

type Shape = 'list' | 'root' | 'nested';
type Resolve = NonNullable<GraphQLField<unknown, { surrogateKeys?: SurrogateKeys }>['resolve']>;

function wrap(field: GraphQLField<unknown, { surrogateKeys?: SurrogateKeys }>, type: KeyedType, shape: Shape) {
  const resolve: Resolve = field.resolve ?? defaultFieldResolver;
  field.resolve = (source, args, ctx, info) => {
    const result: unknown = resolve(source, args, ctx, info);
    const keys = ctx?.surrogateKeys;
    if (!keys) return result;
    if (shape === 'list') keys.family(type);
    if (isThenable(result)) void result.then((value) => collect(keys, type, shape, value), () => {});
    else collect(keys, type, shape, result);
    return result;
  };
}

function collect(keys: SurrogateKeys, type: KeyedType, shape: Shape, value: unknown) {
  if (shape === 'list') {
    if (!Array.isArray(value)) return; // a connection object: its edges' `node` fields name the records
    for (const item of value) {
      if (isThenable(item)) void item.then((v) => record(keys, type, v), () => {});
      else record(keys, type, item);
    }
    return;
  }
  if (!record(keys, type, value) && shape === 'root') keys.family(type);
}

function record(keys: SurrogateKeys, type: KeyedType, value: unknown): boolean {
  if (typeof value !== 'object' || value === null || !('id' in value) || typeof value.id !== 'number') return false;
  keys.record(type, value.id);
  return true;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof value === 'object' && value !== null && 'then' in value && typeof value.then === 'function';
}
