import type { GraphQLResolveInfo } from 'graphql';
import type { ObjectRef } from '@pothos/core';
import type { Event, Organizer, Venue } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../src/services/context.ts';
import type { PostAddress } from '../../src/services/posts.ts';
import { builder } from '../builder.ts';
import { writeErrors } from '../errors.ts';
import { optionalRecordId } from '../ids.ts';
import type { Edge } from '../pagination.ts';
import { deletedIdField, writtenPayload, type Written } from '../payloads.ts';

type PostWrite = (ctx: Context, address: PostAddress) => Promise<number>;
type PostRow = Event | Venue | Organizer;

/**
 * Trash, restore and purge: the same three writes, by ID or slug, for events, venues and organizers
 * (contract §7.9). `delete…` answers the trashed record and its `deletedId` (it leaves every list
 * anonymous callers see), `restore…` the record and its edge (it joins them again), `purge…` the
 * `deletedId` alone (the record is gone).
 */
export function definePostLifecycle<Row extends PostRow>(opts: {
  model: 'Event' | 'Venue' | 'Organizer';
  single: string;
  edgeRef: ObjectRef<typeof builder.$inferSchemaTypes, Edge<Row>>;
  edge: (ctx: Context, info: GraphQLResolveInfo, id: number) => Promise<Edge<Row>>;
  trash: { description: string; write: PostWrite };
  restore: { description: string; write: PostWrite };
  purge: PostWrite;
  reload: (ctx: Context, query: object, id: number) => Promise<PostRow>;
}) {
  const { model, single } = opts;
  const address = (args: { id?: string | number | null; slug?: string | null }): PostAddress => ({
    id: optionalRecordId(args.id, [model], 'id'),
    slug: args.slug,
  });
  const recordDescription = `The ${single} as it is now.`;

  const Trashed = writtenPayload({
    name: `Delete${model}Success`,
    description: `The ${single} moved to the trash.`,
    deletedId: model,
    model,
    field: single,
    recordDescription,
    reload: opts.reload,
  });
  const Restored = writtenPayload({
    name: `Restore${model}Success`,
    description: `The ${single} taken out of the trash, and its edge for lists that show it again.`,
    model,
    field: single,
    recordDescription,
    reload: opts.reload,
    edge: { ref: opts.edgeRef, description: 'Its edge in the default list.', resolve: opts.edge },
  });
  const Purged = builder.objectRef<Written>(`Purge${model}Success`).implement({
    description: `The ${single} deleted for good.`,
    fields: (t) => ({ deletedId: t.id(deletedIdField(model)) }),
  });

  builder.mutationFields((t) => {
    const args = { id: t.arg.id({ description: 'Global ID, or database ID.' }), slug: t.arg.string() };
    return {
      [`delete${model}`]: t.field({
        type: Trashed,
        description: opts.trash.description,
        errors: { types: [...writeErrors] },
        args,
        resolve: async (_root, a, ctx) => ({ id: await opts.trash.write(ctx, address(a)) }),
      }),
      [`restore${model}`]: t.field({
        type: Restored,
        description: opts.restore.description,
        errors: { types: [...writeErrors] },
        args,
        resolve: async (_root, a, ctx) => ({ id: await opts.restore.write(ctx, address(a)) }),
      }),
      [`purge${model}`]: t.field({
        type: Purged,
        description: `Deletes a trashed ${single} permanently.`,
        errors: { types: [...writeErrors] },
        args,
        resolve: async (_root, a, ctx) => ({ id: await opts.purge(ctx, address(a)) }),
      }),
    };
  });
}
