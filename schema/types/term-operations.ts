import type { Context } from '../../src/services/context.ts';
import { queryFromInfo } from '@pothos/plugin-prisma';
import {
  buildTermListQuery,
  findTermPage,
  createTerm,
  deleteTerm,
  getTermOrThrow,
  termTable,
  updateTerm,
  type Taxonomy,
} from '../../src/services/terms.ts';
import { NotFoundError } from '../../src/domain/errors.ts';
import { normalizeSlugLookup } from '../../src/domain/slug.ts';
import { builder, type PrismaNodeRefOf } from '../builder.ts';
import { raisesDomainErrors, readByAddress, strictArgDescription, writeErrors } from '../errors.ts';
import { CreateTermInput, TermFilterInput, UpdateTermInput } from '../inputs/term-input.ts';
import { CONNECTION_NODE_PATHS, listPage, pageArgs, PagedConnectionInterface, pageWindow } from '../pagination.ts';

export interface DeletedTermShape {
  id: number;
  name: string;
  slug: string;
  description: string;
  parentId: number;
  count: number;
  taxonomy: Taxonomy;
  path: string[];
}

export const DeletedTermRef = builder.objectRef<DeletedTermShape>('DeletedTerm').implement({
  description: 'A category or tag as it was just before its deletion.',
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    name: t.exposeString('name'),
    slug: t.exposeString('slug'),
    description: t.exposeString('description'),
    parentId: t.exposeInt('parentId'),
    count: t.exposeInt('count'),
    taxonomy: t.exposeString('taxonomy'),
    path: t.exposeStringList('path', { description: 'Slugs from the top-level ancestor down to the term.' }),
  }),
});

/** Categories and tags share reads, lists and writes (contract §5.7, §7.8). */
export function defineTermOperations(opts: {
  taxonomy: Taxonomy;
  model: 'Category' | 'Tag';
  typeName: 'EventCategory' | 'EventTag';
  ref: PrismaNodeRefOf<'Category'> | PrismaNodeRefOf<'Tag'>;
  single: string;
  plural: string;
}) {
  const { taxonomy, model, single, plural, typeName } = opts;
  const delegate = (ctx: Context) => termTable(ctx, taxonomy);
  const reload = (ctx: Context, query: object, id: number) => delegate(ctx).findUniqueOrThrow({ ...query, where: { id } });

  builder.queryFields((t) => ({
    [single]: t.prismaField({
      type: model,
      nullable: true,
      description: `One ${typeName} by ID or slug; null when none exists.`,
      args: { id: t.arg.int(), slug: t.arg.string(), strict: t.arg.boolean(strictArgDescription) },
      resolve: (query, _r, args, ctx) =>
        readByAddress(args.strict, async () => {
          if (args.id != null) {
            await getTermOrThrow(ctx, taxonomy, args.id);
            return reload(ctx, query, args.id);
          }
          const slug = args.slug ? normalizeSlugLookup(args.slug) : '';
          const found = slug ? await delegate(ctx).findUnique({ ...query, where: { slug } }) : null;
          if (!found) throw new NotFoundError(`No ${typeName} has that slug.`, 'NOT_FOUND', 'slug');
          return found;
        }),
    }),
    [plural]: t.connection(
      {
        type: opts.ref,
        description: `${typeName}s (contract §5.7 filters; hideEmpty defaults to true).`,
        args: { filter: t.arg({ type: TermFilterInput }), ...pageArgs },
        resolve: raisesDomainErrors(async (_r, args, ctx, info) => {
          const list = await buildTermListQuery(ctx, taxonomy, args.filter ?? {});
          const window = pageWindow(ctx, args);
          const select = queryFromInfo({ context: ctx, info, paths: CONNECTION_NODE_PATHS, typeName });
          return listPage(
            window,
            (skip, take) => findTermPage(ctx, taxonomy, list, select, skip, take),
            () => delegate(ctx).count({ where: list.where }),
          );
        }),
      },
      {
        name: `${typeName}Connection`,
        interfaces: [PagedConnectionInterface],
      },
    ),
  }));

  builder.mutationFields((t) => ({
    [`create${typeName}`]: t.prismaField({
      type: model,
      description: `Creates a ${single}. Same name (under the same parent) → ConflictError TERM_EXISTS.`,
      errors: { types: [...writeErrors] },
      args: { input: t.arg({ type: CreateTermInput, required: true }) },
      resolve: async (query, _r, args, ctx) =>
        reload(ctx, query, await createTerm(ctx, taxonomy, args.input)),
    }),
    [`update${typeName}`]: t.prismaField({
      type: model,
      description: 'Partial update.',
      errors: { types: [...writeErrors] },
      args: { id: t.arg.int({ required: true }), input: t.arg({ type: UpdateTermInput, required: true }) },
      resolve: async (query, _r, args, ctx) =>
        reload(ctx, query, await updateTerm(ctx, taxonomy, args.id, args.input)),
    }),
    [`delete${typeName}`]: t.field({
      type: DeletedTermRef,
      description: 'Deletes permanently (terms have no trash); events lose the term, child categories move up.',
      errors: { types: [...writeErrors] },
      args: { id: t.arg.int({ required: true }) },
      resolve: (_r, args, ctx) => deleteTerm(ctx, taxonomy, args.id),
    }),
  }));
}
