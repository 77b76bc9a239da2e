import type { GraphQLFieldMap, GraphQLResolveInfo, GraphQLSchema, GraphQLType } from 'graphql';

/**
 * Compiled execution (src/server/compiled-operations.ts) and Pothos's Prisma plugin.
 *
 * The plugin finds the relations a parent query already loaded by the identity of the resolve info's
 * path links: graphql-js creates one link per field of each row and hands the same link to every
 * field below it, and the plugin keeps what it planned for a field under that link. graphql-jit
 * writes a new path literal at every resolver call, so under it no relation found its parent's plan
 * and each one was loaded again per record (what made the earlier compiled pages twice as slow).
 *
 * A compiled execution runs with the root value `compiledRoot()` makes: it carries a table of path
 * links, and every field that returns an object, interface or union and has a resolver swaps the
 * path it was given for the table's link with the same keys (one per field of each row, shared with
 * the fields below it, as graphql-js makes them). Leaf fields carry no plan and are left alone. Under
 * graphql-js the root value carries no table and the check is one property read.
 */
const SHARED_PATHS = Symbol('sharedPaths');

type Path = GraphQLResolveInfo['path'];
type Key = string | number;

/** One execution's links: the links under each link by key (`null`: the root fields). */
type Links = Map<Path | null, Map<Key, Path>>;

/** The root value of one compiled execution (the schema's root fields do not read it). */
export function compiledRoot(): object {
  return { [SHARED_PATHS]: new Map() satisfies Links };
}

function linksOf(root: unknown): Links | undefined {
  return typeof root === 'object' && root !== null ? (root as { [SHARED_PATHS]?: Links })[SHARED_PATHS] : undefined;
}

/** The execution's own link for `path` (the same object for the same keys, its `prev` one too). */
function shared(links: Links, path: Path): Path {
  const prev = path.prev ? shared(links, path.prev) : null;
  let under = links.get(prev);
  if (!under) {
    under = new Map();
    links.set(prev, under);
  }
  let link = under.get(path.key);
  if (!link) {
    link = { prev: prev ?? undefined, key: path.key, typename: path.typename };
    under.set(path.key, link);
  }
  return link;
}

/** Wraps the resolvers of every composite field of `schema` (in place) to resolve with shared paths under compiled execution. */
export function shareResponsePaths(schema: GraphQLSchema): GraphQLSchema {
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith('__') || !('getFields' in type) || !('getInterfaces' in type) || 'getValues' in type || 'ofType' in type) continue;
    for (const field of Object.values((type.getFields as () => GraphQLFieldMap<unknown, unknown>)())) {
      const resolve = field.resolve;
      if (!resolve || !isComposite(field.type)) continue;
      field.resolve = (source, args, ctx, info) => {
        const links = linksOf(info.rootValue);
        if (links) (info as { path: Path }).path = shared(links, info.path);
        return resolve(source, args, ctx, info);
      };
    }
  }
  return schema;
}

// By shape, as schema/surrogate-keys.ts reads types: graphql's type checks use `instanceof`, which
// fails across its ESM and CJS builds.
function isComposite(type: GraphQLType): boolean {
  let t: GraphQLType = type;
  while ('ofType' in t) t = t.ofType;
  return ('getFields' in t && 'getInterfaces' in t) || 'getTypes' in t;
}
