import { queryFromInfo } from '@pothos/plugin-prisma';
import type { GraphQLResolveInfo } from 'graphql';
import type { Context } from '../src/services/context.ts';
import { NotFoundError } from '../src/domain/errors.ts';
import { globalId, type NodeTypeName } from './ids.ts';
import { edgeIn, type Edge, type ListSource } from './pagination.ts';

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
