import { brandWithType } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import type { Context } from '../src/context.ts';
import { isKeyedType } from '../src/domain/surrogate-keys.ts';
import { readableWhere } from '../src/services/visibility.ts';

type Row = { id: number };
type Delegate = { findMany(args: object): Promise<Row[]> };

/**
 * How each Node type loads: its Prisma delegate and the caller's visibility (the same rule as the
 * type's `findUnique`: a record the caller may not read is "not found" and answers null).
 */
const NODE_TYPES: Record<string, { delegate: (ctx: Context) => Delegate; where: (ctx: Context) => object }> = {
  Event: { delegate: (ctx) => ctx.prisma.event as unknown as Delegate, where: readableWhere },
  Venue: { delegate: (ctx) => ctx.prisma.venue as unknown as Delegate, where: readableWhere },
  Organizer: { delegate: (ctx) => ctx.prisma.organizer as unknown as Delegate, where: readableWhere },
  EventCategory: { delegate: (ctx) => ctx.prisma.category as unknown as Delegate, where: () => ({}) },
  EventTag: { delegate: (ctx) => ctx.prisma.tag as unknown as Delegate, where: () => ({}) },
  Image: { delegate: (ctx) => ctx.prisma.attachment as unknown as Delegate, where: () => ({}) },
  User: { delegate: (ctx) => ctx.prisma.user as unknown as Delegate, where: () => ({}) },
};

/** One DataLoader per request (its context), node type and selection: one query per type per request. */
const loaders = new WeakMap<Context, Map<string, DataLoader<number, Row | null>>>();

function loaderFor(ctx: Context, typeName: string, query: object): DataLoader<number, Row | null> {
  let perRequest = loaders.get(ctx);
  if (!perRequest) loaders.set(ctx, (perRequest = new Map()));
  const key = `${typeName}\0${JSON.stringify(query)}`;
  let loader = perRequest.get(key);
  if (!loader) {
    const { delegate, where } = NODE_TYPES[typeName];
    loader = new DataLoader(async (ids) => {
      const rows = await delegate(ctx).findMany({ ...query, where: { ...where(ctx), id: { in: [...ids] } } });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => {
        const row = byId.get(id) ?? null;
        if (row) brandWithType(row, typeName as never);
        return row;
      });
    });
    perRequest.set(key, loader);
  }
  return loader;
}

/**
 * Resolves global IDs to records (`node`, `nodes`): at most the largest page size per request
 * (`CAL_MAX_PER_PAGE`, so a `nodes` list costs no more than a page of a list), loaded through
 * per-request DataLoaders. IDs of unknown types or invisible records answer null.
 */
export async function loadNodes(
  ctx: Context,
  info: GraphQLResolveInfo,
  globalIds: readonly { typename: string; id: string }[],
): Promise<(Row | null)[]> {
  const max = ctx.settings.maxPerPage;
  if (globalIds.length > max) {
    throw createGraphQLError(`nodes takes at most ${max} IDs (got ${globalIds.length}); ask in pages.`, {
      extensions: { code: 'TOO_MANY_IDS', field: 'ids' },
    });
  }
  const queries = new Map<string, Promise<object>>();
  const queryFor = (typeName: string) => {
    let query = queries.get(typeName);
    if (!query) {
      query = Promise.resolve(queryFromInfo({ context: ctx, info, typeName, awaitSelections: true } as never) as object);
      queries.set(typeName, query);
    }
    return query;
  };
  return Promise.all(
    globalIds.map(async (decoded) => {
      const id = Number(decoded.id);
      if (!NODE_TYPES[decoded.typename] || !Number.isSafeInteger(id)) return null;
      const row = await loaderFor(ctx, decoded.typename, await queryFor(decoded.typename)).load(id);
      // Surrogate keys (schema/surrogate-keys.ts): the record found, or its family when none was.
      if (ctx.surrogateKeys && isKeyedType(decoded.typename)) {
        if (row) ctx.surrogateKeys.record(decoded.typename, id);
        else ctx.surrogateKeys.family(decoded.typename);
      }
      return row;
    }),
  );
}
