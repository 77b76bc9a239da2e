import type { Event, Organizer, Venue } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../src/services/context.ts';
import type { PostAddress } from '../../src/services/posts.ts';
import { builder } from '../builder.ts';
import { writeErrors } from '../errors.ts';

type PostWrite = (ctx: Context, address: PostAddress) => Promise<number>;

/**
 * Trash, restore and purge: the same three writes, by ID or slug, for events, venues and organizers
 * (contract §7.9). `delete…` and `restore…` answer the record as it is after the write.
 */
export function definePostLifecycle(opts: {
  model: 'Event' | 'Venue' | 'Organizer';
  single: string;
  trash: { description: string; write: PostWrite };
  restore: { description: string; write: PostWrite };
  purge: PostWrite;
  reload: (ctx: Context, query: object, id: number) => Promise<Event | Venue | Organizer>;
}) {
  const { model } = opts;
  builder.mutationFields((t) => {
    const move = ({ description, write }: { description: string; write: PostWrite }) =>
      t.prismaField({
        type: model,
        description,
        errors: { types: [...writeErrors] },
        args: { id: t.arg.int(), slug: t.arg.string() },
        resolve: async (query, _root, args, ctx) => opts.reload(ctx, query, await write(ctx, args)),
      });
    return {
      [`delete${model}`]: move(opts.trash),
      [`restore${model}`]: move(opts.restore),
      [`purge${model}`]: t.int({
        description: `Deletes a trashed ${opts.single} permanently; returns its ID.`,
        errors: { types: [...writeErrors], directResult: false },
        args: { id: t.arg.int(), slug: t.arg.string() },
        resolve: (_root, args, ctx) => opts.purge(ctx, args),
      }),
    };
  });
}
