import type { Context } from '../../src/services/context.ts';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { buildLinkedPostListQuery } from '../../src/services/linked-post-list.ts';
import {
  createLinkedPost,
  linkedPostTable,
  purgeLinkedPost,
  restoreLinkedPost,
  trashLinkedPost,
  updateLinkedPost,
  type LinkedKind,
} from '../../src/services/linked-posts.ts';
import { loadReadablePost } from '../../src/services/posts.ts';
import { builder, type PrismaNodeRefOf } from '../builder.ts';
import { raisesDomainErrors, readByAddress, strictArgDescription, writeErrors } from '../errors.ts';
import { LinkedPostFilterInput } from '../inputs/linked-post-filter.ts';
import { toLinkedPostInput, type CreateOrganizerInput, type CreateVenueInput, type UpdateOrganizerInput, type UpdateVenueInput } from '../inputs/linked-post-input.ts';
import { definePostLifecycle } from './post-lifecycle.ts';
import { CONNECTION_NODE_PATHS, listPage, pageArgs, PagedConnectionInterface, pageWindow } from '../pagination.ts';

/**
 * Venues and organizers behave alike (contract §5.6, §7.7): the same reads, list and writes are
 * defined for both from one place.
 */
export function defineLinkedPostOperations(opts: {
  kind: LinkedKind;
  model: 'Venue' | 'Organizer';
  ref: PrismaNodeRefOf<'Venue'> | PrismaNodeRefOf<'Organizer'>;
  single: string;
  plural: string;
  createInput: typeof CreateVenueInput | typeof CreateOrganizerInput;
  updateInput: typeof UpdateVenueInput | typeof UpdateOrganizerInput;
}) {
  const { kind, model, single, plural } = opts;
  const delegate = (ctx: Context) => linkedPostTable(ctx, kind);

  builder.queryFields((t) => ({
    [single]: t.prismaField({
      type: model,
      nullable: true,
      description: `One ${single} by ID or slug; null when none exists or the caller may not read it.`,
      args: { id: t.arg.int(), slug: t.arg.string(), strict: t.arg.boolean(strictArgDescription) },
      resolve: (query, _root, args, ctx) =>
        readByAddress(args.strict, () => loadReadablePost(ctx, kind, args, query, (q) => delegate(ctx).findUnique(q))),
    }),
    [plural]: t.connection(
      {
        type: opts.ref,
        description: `${model}s, newest first (contract §5.6 filters).`,
        args: { filter: t.arg({ type: LinkedPostFilterInput }), ...pageArgs },
        resolve: raisesDomainErrors(async (_root, args, ctx, info) => {
          const { where, orderBy } = await buildLinkedPostListQuery(ctx, kind, args.filter ?? {});
          const window = pageWindow(ctx, args);
          const select = queryFromInfo({ context: ctx, info, paths: CONNECTION_NODE_PATHS, typeName: model });
          return listPage(
            window,
            (skip, take) => delegate(ctx).findMany({ ...select, where, orderBy, skip, take }),
            () => delegate(ctx).count({ where }),
          );
        }),
      },
      {
        name: `${model}Connection`,
        interfaces: [PagedConnectionInterface],
      },
    ),
  }));

  const reload = (ctx: Context, query: object, id: number) => delegate(ctx).findUniqueOrThrow({ ...query, where: { id } });
  builder.mutationFields((t) => ({
    [`create${model}`]: t.prismaField({
      type: model,
      description: `Creates a ${single} (or reuses one with the same name, contract §7.7).`,
      errors: { types: [...writeErrors] },
      args: { input: t.arg({ type: opts.createInput, required: true }) },
      resolve: async (query, _r, args, ctx) =>
        reload(ctx, query, await createLinkedPost(ctx, kind, toLinkedPostInput(args.input))),
    }),
    [`update${model}`]: t.prismaField({
      type: model,
      description: 'Partial update: fields not given stay as they are.',
      errors: { types: [...writeErrors] },
      args: { id: t.arg.int(), slug: t.arg.string(), input: t.arg({ type: opts.updateInput, required: true }) },
      resolve: async (query, _r, args, ctx) =>
        reload(ctx, query, await updateLinkedPost(ctx, kind, args, toLinkedPostInput(args.input))),
    }),
  }));

  definePostLifecycle({
    model,
    single,
    trash: {
      description: `Moves the ${single} to the trash and unlinks it from its events. Already trashed → GoneError.`,
      write: (ctx, address) => trashLinkedPost(ctx, kind, address),
    },
    restore: { description: `Takes the ${single} out of the trash.`, write: (ctx, address) => restoreLinkedPost(ctx, kind, address) },
    purge: (ctx, address) => purgeLinkedPost(ctx, kind, address),
    reload,
  });
}
