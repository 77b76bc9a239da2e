import type { GraphQLResolveInfo } from 'graphql';
import type { Organizer, Venue } from '../../prisma/generated/client/client.ts';
import { linkedPostTable, type LinkedKind } from '../../src/db/tables.ts';
import type { Context } from '../../src/services/context.ts';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { buildLinkedPostListQuery, LINKED_POST_ORDER } from '../../src/services/linked-post-list.ts';
import {
  createLinkedPost,
  purgeLinkedPost,
  restoreLinkedPost,
  trashLinkedPost,
  updateLinkedPost,
} from '../../src/services/linked-posts.ts';
import { loadReadablePost } from '../../src/services/posts.ts';
import { builder, type PrismaNodeRefOf } from '../builder.ts';
import { raisesDomainErrors, readByAddress, strictArgDescription, writeErrors } from '../errors.ts';
import { LinkedPostFilterInput, toLinkedPostFilter } from '../inputs/linked-post-filter.ts';
import { toLinkedPostInput, type CreateOrganizerInput, type CreateVenueInput, type UpdateOrganizerInput, type UpdateVenueInput } from '../inputs/linked-post-input.ts';
import { definePostLifecycle } from './post-lifecycle.ts';
import { optionalRecordId } from '../ids.ts';
import { CONNECTION_NODE_PATHS, edgeIn, pageArgs, PagedConnectionInterface, paginate, prismaList } from '../pagination.ts';
import { writtenEdge, writtenPayload } from '../payloads.ts';

type LinkedRow = Venue | Organizer;

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
  const delegate = (ctx: Context) => linkedPostTable(ctx.prisma, kind);
  const list = (ctx: Context, where: object, select: object) => prismaList({ model, table: delegate(ctx), where, orderBy: LINKED_POST_ORDER, select });
  const edgeRef = builder.edgeObject({ type: opts.ref, name: `${model}ConnectionEdge` });
  const edge = (ctx: Context, info: GraphQLResolveInfo, id: number) => writtenEdge(ctx, info, model, id, (select) => list(ctx, {}, select));
  const address = (args: { id?: string | number | null; slug?: string | null }) => ({ id: optionalRecordId(args.id, [model], 'id'), slug: args.slug });

  builder.queryFields((t) => ({
    [single]: t.prismaField({
      type: model,
      nullable: true,
      description: `One ${single} by ID or slug; null when none exists or the caller may not read it.`,
      args: { id: t.arg.id({ description: 'Global ID, or database ID.' }), slug: t.arg.string(), strict: t.arg.boolean(strictArgDescription) },
      resolve: (query, _root, args, ctx) =>
        readByAddress(args.strict, () => loadReadablePost(ctx, kind, address(args), query, (q) => delegate(ctx).findUnique(q))),
    }),
    [plural]: t.connection(
      {
        type: opts.ref,
        description: `${model}s, newest first (contract §5.6 filters). Cursors hold the publication date and the ID.`,
        args: { filter: t.arg({ type: LinkedPostFilterInput }), ...pageArgs },
        resolve: raisesDomainErrors(async (_root, args, ctx, info) => {
          const { where } = await buildLinkedPostListQuery(ctx, kind, toLinkedPostFilter(args.filter));
          const select = queryFromInfo({ context: ctx, info, paths: CONNECTION_NODE_PATHS, typeName: model });
          return paginate(ctx, args, list(ctx, where, select), info);
        }),
      },
      {
        name: `${model}Connection`,
        interfaces: [PagedConnectionInterface],
      },
      edgeRef,
    ),
  }));

  const reload = (ctx: Context, query: object, id: number) => delegate(ctx).findUniqueOrThrow({ ...query, where: { id } });
  const Created = writtenPayload({
    name: `Create${model}Success`,
    description: `The created ${single} (or the one of the same name it reused), and its edge for lists that show it.`,
    model,
    field: single,
    reload,
    edge: { ref: edgeRef, description: 'Its edge in the default list (newest first).', resolve: edge },
  });
  const Updated = writtenPayload({ name: `Update${model}Success`, description: `The updated ${single}.`, model, field: single, reload });
  builder.mutationFields((t) => ({
    [`create${model}`]: t.field({
      type: Created,
      description: `Creates a ${single} (or reuses one with the same name, contract §7.7).`,
      errors: { types: [...writeErrors] },
      args: { input: t.arg({ type: opts.createInput, required: true }) },
      resolve: async (_r, args, ctx) => ({ id: await createLinkedPost(ctx, kind, toLinkedPostInput(args.input)) }),
    }),
    [`update${model}`]: t.field({
      type: Updated,
      description: 'Partial update: fields not given stay as they are.',
      errors: { types: [...writeErrors] },
      args: { id: t.arg.id({ description: 'Global ID, or database ID.' }), slug: t.arg.string(), input: t.arg({ type: opts.updateInput, required: true }) },
      resolve: async (_r, args, ctx) => ({ id: await updateLinkedPost(ctx, kind, address(args), toLinkedPostInput(args.input)) }),
    }),
  }));

  definePostLifecycle({
    model,
    single,
    edgeRef,
    edge,
    trash: {
      description: `Moves the ${single} to the trash and unlinks it from its events. Already trashed → GoneError.`,
      write: (ctx, address) => trashLinkedPost(ctx, kind, address),
    },
    restore: { description: `Takes the ${single} out of the trash.`, write: (ctx, address) => restoreLinkedPost(ctx, kind, address) },
    purge: (ctx, address) => purgeLinkedPost(ctx, kind, address),
    reload,
  });

  return { ref: edgeRef, of: (ctx: Context, row: LinkedRow) => edgeIn(list(ctx, {}, {}), row) };
}
