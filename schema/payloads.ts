import type { ObjectRef } from '@pothos/core';
import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type PrismaTypes from '../prisma/generated/pothos-types.ts';
import type { Context } from '../src/services/context.ts';
import { NotFoundError } from '../src/domain/errors.ts';
import { globalId, type NodeTypeName } from './ids.ts';
import { edgeIn, type Edge, type ListSource } from './pagination.ts';
import { builder } from './builder.ts';

/**
 * Mutation payloads a normalized cache can merge (README, Schema conventions): a write's success
 * is a `<Verb><Type>Success` object that carries the record as it is now (`event`), for creates
 * and restores its edge in the list's default order (`eventEdge`: Relay's `@appendEdge`), for
 * deletes the global ID it removed (`deletedId`: `@deleteEdge`, `@deleteRecord`). Errors are the
 * other members of the result union: never where a record would be.
 */
export interface Written {
  id: number;
}

/** The global ID a delete removed (a field of delete payloads). */
export const deletedIdField = (type: NodeTypeName) => ({
  description: `Global ID of the ${type} removed from lists (trashed or deleted): for \`@deleteEdge\` / \`@deleteRecord\`.`,
  resolve: (written: Written) => globalId(type, written.id),
});

/**
 * The edge of a just-written record, read with the selection of the payload's `…Edge { node }`,
 * its cursor in the order `list` reads (the list's default order).
 */
export async function writtenEdge<Row>(
  ctx: Context,
  info: GraphQLResolveInfo,
  typeName: string,
  id: number,
  list: (select: object) => ListSource<Row> | Promise<ListSource<Row>>,
): Promise<Edge<Row>> {
  const source = await list(queryFromInfo({ context: ctx, info, paths: [['node']], typeName }));
  const row = await source.one(id);
  if (!row) throw new NotFoundError(`The ${typeName} was deleted meanwhile.`, 'NOT_FOUND', 'id');
  return edgeIn(source, row);
}

/** The models whose writes answer a record payload. */
type WrittenModel = 'Event' | 'Venue' | 'Organizer' | 'Category' | 'Tag' | 'User';

/**
 * A `<Verb><Type>Success` payload: optionally the `deletedId`, the record as it is now under
 * `field` (reloaded with the payload's selection), and optionally its edge under `<field>Edge`.
 * Every create, update, trash and restore answers one of these, so they are built here once.
 */
export function writtenPayload<Row>(opts: {
  name: string;
  description: string;
  model: WrittenModel;
  field: string;
  recordDescription?: string;
  reload: (ctx: Context, query: object, id: number) => Promise<PrismaTypes[WrittenModel]['Shape']>;
  deletedId?: NodeTypeName;
  edge?: {
    ref: ObjectRef<typeof builder.$inferSchemaTypes, Edge<Row>>;
    description: string;
    resolve: (ctx: Context, info: GraphQLResolveInfo, id: number) => Promise<Edge<Row>>;
  };
}) {
  const { edge, deletedId } = opts;
  return builder.objectRef<Written>(opts.name).implement({
    description: opts.description,
    fields: (t) => ({
      ...(deletedId ? { deletedId: t.id(deletedIdField(deletedId)) } : {}),
      [opts.field]: t.prismaField({
        type: opts.model,
        ...(opts.recordDescription ? { description: opts.recordDescription } : {}),
        resolve: (query, w, _a, ctx) => opts.reload(ctx, query, w.id),
      }),
      ...(edge
        ? { [`${opts.field}Edge`]: t.field({ type: edge.ref, description: edge.description, resolve: (w, _a, ctx, info) => edge.resolve(ctx, info, w.id) }) }
        : {}),
    }),
  });
}
