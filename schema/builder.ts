import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import type { PrismaModelTypes, PrismaNodeRef } from '@pothos/plugin-prisma';
import { GraphQLScalarType } from 'graphql';
import { DateTimeISOResolver, DateTimeResolver } from 'graphql-scalars';
import type PrismaTypes from '../prisma/generated/pothos-types.ts';
import { getDatamodel } from '../prisma/generated/pothos-types.ts';
import type { Context } from '../src/services/context.ts';

/** What every list connection carries next to Relay's edges/pageInfo (the numbers REST's headers need; schema/pagination.ts). */
export interface PageNumbers {
  /** Counted only when the operation reads it (`totalCount` or `totalPages`): a total reads every match. */
  totalCount: number | (() => Promise<number>);
  /** For pages asked for by cursor, counted when asked for (the page of perPage records the first one falls on). */
  page: number | (() => Promise<number>);
  perPage: number;
  totalPages: number | (() => Promise<number>);
}

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: Context;
  DefaultFieldNullability: false;
  // Every list connection carries page numbers next to Relay's edges (schema/pagination.ts).
  Connection: PageNumbers;
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
  };
}>({
  plugins: [ErrorsPlugin, PrismaPlugin, RelayPlugin],
  defaultFieldNullability: false,
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    exposeDescriptions: true,
    filterConnectionTotalCount: true,
    onUnusedQuery: process.env.NODE_ENV === 'production' ? null : 'warn',
  },
  relay: {
    clientMutationId: 'omit',
    cursorType: 'String',
    // Every connection also lists its records directly (`nodes`), next to Relay's `edges`.
    nodesOnConnection: true,
    // `node` / `nodes` are declared in schema/types/node.ts (malformed IDs are the client's error).
    nodeQueryOptions: false,
    nodesQueryOptions: false,
  },
  errors: {
    defaultTypes: [],
    directResult: true,
  },
});

// The value a DateTime field resolves to (a Date) is serialized to its ISO 8601 text, as JSON would
// write it: an in-process client (the REST facade, the pages) then receives what `/graphql` sends
// and what the generated operation types say (schema/codegen.ts SCALAR_TYPES), not a Date object.
builder.addScalarType('DateTime', new GraphQLScalarType({ ...DateTimeISOResolver.toConfig(), name: 'DateTime', description: DateTimeResolver.description }), {});
builder.scalarType('JSON', {
  description: 'Arbitrary JSON value.',
  serialize: (v) => v,
  parseValue: (v) => v,
});

builder.queryType({ description: 'Reads of the calendar.' });
builder.mutationType({ description: 'Writes to the calendar.' });

/** The ref `builder.prismaNode(Model, …)` returns: what helpers that define fields for several such types take. */
export type PrismaNodeRefOf<Model extends keyof PrismaTypes> = PrismaNodeRef<
  typeof builder.$inferSchemaTypes,
  PrismaModelTypes & PrismaTypes[Model],
  PrismaTypes[Model]['Shape']
>;
