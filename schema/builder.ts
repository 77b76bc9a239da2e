import SchemaBuilder from '@pothos/core';
import ErrorsPlugin from '@pothos/plugin-errors';
import PrismaPlugin from '@pothos/plugin-prisma';
import RelayPlugin from '@pothos/plugin-relay';
import { DateTimeResolver } from 'graphql-scalars';
import type PrismaTypes from '../prisma/generated/pothos-types.ts';
import { getDatamodel } from '../prisma/generated/pothos-types.ts';
import type { Context } from '../src/context.ts';

async function nullWhenNotFound<T>(load: () => T | Promise<T>): Promise<T | null> {
  try {
    return await load();
  } catch (error) {
    if ((error as { code?: string }).code === 'P2025') return null;
    throw error;
  }
}

export const builder = new SchemaBuilder<{
  PrismaTypes: PrismaTypes;
  Context: Context;
  DefaultFieldNullability: false;
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
    // Nodes load through each type's `findUnique`, which adds the caller's visibility: a record the
    // caller may not read is "not found" and answers null, like an unknown ID.
    nodeQueryOptions: { resolve: (_root, { id }, _ctx, _info, resolveNode) => nullWhenNotFound(() => resolveNode(id)) },
    nodesQueryOptions: {
      resolve: (_root, { ids }, _ctx, _info, resolveNodes) => ids.map((id) => nullWhenNotFound(async () => (await resolveNodes([id]))[0])),
    },
  },
  errors: {
    defaultTypes: [],
    directResult: true,
  },
});

builder.addScalarType('DateTime', DateTimeResolver, {});
builder.scalarType('JSON', {
  description: 'Arbitrary JSON value.',
  serialize: (v) => v,
  parseValue: (v) => v,
});

builder.queryType({ description: 'Reads of the calendar.' });
builder.mutationType({ description: 'Writes to the calendar.' });
