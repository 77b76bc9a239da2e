import { brandWithType, type OutputType, type SchemaTypes } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import DataLoader from 'dataloader';
import type { GraphQLResolveInfo } from 'graphql';
import { createGraphQLError } from 'graphql-yoga';
import type { Context } from '../src/services/context.ts';
import type { ReadTable } from '../src/db/tables.ts';
import { isRecordId } from '../src/domain/ids.ts';
import { isKeyedType } from '../src/domain/surrogate-keys.ts';
import { readableWhere } from '../src/services/visibility.ts';
import { ImageRef } from './types/common.ts';
import { EventCategoryRef } from './types/event-category.ts';
import { EventTagRef } from './types/event-tag.ts';
import { EventRef } from './types/event.ts';
import { OrganizerRef } from './types/organizer.ts';
import { UserRef } from './types/user.ts';
import { VenueRef } from './types/venue.ts';

type Row = { id: number };
type NodeType = { ref: OutputType<SchemaTypes>; table: (ctx: Context) => Pick<ReadTable<Row>, 'findMany'>; where: (ctx: Context) => object };

/**
 * How each Node type loads: its Prisma delegate and the caller's visibility (the same rule as the
 * type's `findUnique`: a record the caller may not read is "not found" and answers null).
 */
const NODE_TYPES: Record<string, NodeType> = {
  Event: { ref: EventRef, table: (ctx) => ctx.prisma.event, where: readableWhere },
  Venue: { ref: VenueRef, table: (ctx) => ctx.prisma.venue, where: readableWhere },
  Organizer: { ref: OrganizerRef, table: (ctx) => ctx.prisma.organizer, where: readableWhere },
  EventCategory: { ref: EventCategoryRef, table: (ctx) => ctx.prisma.category, where: () => ({}) },
  EventTag: { ref: EventTagRef, table: (ctx) => ctx.prisma.tag, where: () => ({}) },
  Image: { ref: ImageRef, table: (ctx) => ctx.prisma.attachment, where: () => ({}) },
  User: { ref: UserRef, table: (ctx) => ctx.prisma.user, where: () => ({}) },
};

/** One DataLoader per request (its context), node type and selection: one query per type per request. */
const loaders = new WeakMap<Context, Map<string, DataLoader<number, Row | null>>>();

function loaderFor(ctx: Context, typeName: string, { ref, table, where }: NodeType, query: object): DataLoader<number, Row | null> {
  let perRequest = loaders.get(ctx);
  if (!perRequest) loaders.set(ctx, (perRequest = new Map()));
  const key = `${typeName}\0${JSON.stringify(query)}`;
  let loader = perRequest.get(key);
  if (!loader) {
    loader = new DataLoader<number, Row | null>(async (ids) => {
      const rows = await table(ctx).findMany({ ...query, where: { ...where(ctx), id: { in: [...ids] } } });
      const byId = new Map(rows.map((r) => [r.id, r]));
      return ids.map((id) => {
        const row = byId.get(id) ?? null;
        if (row) brandWithType(row, ref);
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
  globalIds: readonly { typename: string; id: number }[],
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
      query = Promise.resolve(queryFromInfo({ context: ctx, info, typeName, awaitSelections: true }));
      queries.set(typeName, query);
    }
    return query;
  };
  return Promise.all(
    globalIds.map(async (decoded) => {
      const { id } = decoded;
      const type = NODE_TYPES[decoded.typename];
      if (!type || !isRecordId(id)) return null;
      const row = await loaderFor(ctx, decoded.typename, type, await queryFor(decoded.typename)).load(id);
      // Surrogate keys (schema/surrogate-keys.ts): the record found, or its family when none was.
      if (ctx.surrogateKeys && isKeyedType(decoded.typename)) {
        if (row) ctx.surrogateKeys.record(decoded.typename, id);
        else ctx.surrogateKeys.family(decoded.typename);
      }
      return row;
    }),
  );
}
