import type { GraphQLResolveInfo } from 'graphql';
import type { Taxonomy } from '../../prisma/generated/client/client.ts';
import { termTable } from '../../src/db/tables.ts';
import type { Context } from '../../src/services/context.ts';
import { queryFromInfo } from '@pothos/plugin-prisma';
import {
  buildTermListQuery,
  createTerm,
  deleteTerm,
  getTermOrThrow,
  termNameKey,
  termNameKeys,
  updateTerm,
} from '../../src/services/terms.ts';
import { NotFoundError } from '../../src/domain/errors.ts';
import { normalizeSlugLookup } from '../../src/domain/slug.ts';
import { withScalars } from '../../src/services/posts.ts';
import { builder, type PrismaNodeRefOf } from '../builder.ts';
import { raisesDomainErrors, readByAddress, strictArgDescription, writeErrors } from '../errors.ts';
import { optionalRecordId, recordId } from '../ids.ts';
import { CreateTermInput, TermFilterInput, toTermFilter, toTermInput, UpdateTermInput } from '../inputs/term-input.ts';
import type { SortKey } from '../keyset.ts';
import { CONNECTION_NODE_PATHS, edgeIn, memoryList, pageArgs, PagedConnectionInterface, paginate, prismaList, type ListSource } from '../pagination.ts';
import { deletedIdField, writtenEdge, writtenPayload } from '../payloads.ts';

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

type TermList = Awaited<ReturnType<typeof buildTermListQuery>>;
type TermRow = Awaited<ReturnType<ReturnType<typeof termTable>['findUniqueOrThrow']>>;

/** A term list in its order: by a column (the database orders it), or by name (ordered here: src/services/terms.ts). */
function termList(ctx: Context, taxonomy: Taxonomy, model: 'Category' | 'Tag', list: TermList, select: { select?: object }): ListSource<TermRow> {
  const table = termTable(ctx.prisma, taxonomy);
  if (list.orderBy) return prismaList({ model, table, where: list.where, orderBy: list.orderBy, select });
  const keys: SortKey[] = [
    { field: 'lower(name)', dir: list.nameOrder === 'desc' ? 'desc' : 'asc', nulls: 'last', nullable: false, type: 'String' },
    { field: 'id', dir: 'asc', nulls: 'last', nullable: false, type: 'Int' },
  ];
  return memoryList({
    keys,
    keyed: async () => (await termNameKeys(ctx, taxonomy, list)).map((t) => ({ id: t.id, values: [t.key, t.id] })),
    load: (ids) => table.findMany({ ...withScalars(select, { id: true, name: true }), where: { id: { in: ids } } }),
    keyValues: (row) => [termNameKey(row.name), row.id],
  });
}

/** Every term by name: the default order of the lists. */
const BY_NAME: TermList = { where: {}, orderBy: null, nameOrder: 'asc' };

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
  const delegate = (ctx: Context) => termTable(ctx.prisma, taxonomy);
  const reload = (ctx: Context, query: object, id: number) => delegate(ctx).findUniqueOrThrow({ ...query, where: { id } });
  const edgeRef = builder.edgeObject({ type: opts.ref, name: `${typeName}ConnectionEdge` });
  const defaultList = (ctx: Context, select: { select?: object }) => termList(ctx, taxonomy, model, BY_NAME, select);
  const edge = (ctx: Context, info: GraphQLResolveInfo, id: number) => writtenEdge(ctx, info, typeName, id, (select) => defaultList(ctx, select));

  builder.queryFields((t) => ({
    [single]: t.prismaField({
      type: model,
      nullable: true,
      description: `One ${typeName} by ID or slug; null when none exists.`,
      args: { id: t.arg.id({ description: 'Global ID, or database ID.' }), slug: t.arg.string(), strict: t.arg.boolean(strictArgDescription) },
      resolve: (query, _r, args, ctx) =>
        readByAddress(args.strict, async () => {
          const id = optionalRecordId(args.id, [typeName], 'id');
          if (id != null) {
            await getTermOrThrow(ctx, taxonomy, id);
            return reload(ctx, query, id);
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
        description: `${typeName}s (contract §5.7 filters; hideEmpty defaults to true). Cursors hold the order's key and the ID.`,
        args: { filter: t.arg({ type: TermFilterInput }), ...pageArgs },
        resolve: raisesDomainErrors(async (_r, args, ctx, info) => {
          const list = await buildTermListQuery(ctx, taxonomy, toTermFilter(args.filter, typeName));
          const select = queryFromInfo({ context: ctx, info, paths: CONNECTION_NODE_PATHS, typeName });
          return paginate(ctx, args, termList(ctx, taxonomy, model, list, select), info);
        }),
      },
      {
        name: `${typeName}Connection`,
        interfaces: [PagedConnectionInterface],
      },
      edgeRef,
    ),
  }));

  const Created = writtenPayload({
    name: `Create${typeName}Success`,
    description: `The created ${single}, and its edge for lists that show it.`,
    model,
    field: single,
    reload,
    edge: { ref: edgeRef, description: 'Its edge in the default list (by name).', resolve: edge },
  });
  const Updated = writtenPayload({ name: `Update${typeName}Success`, description: `The updated ${single}.`, model, field: single, reload });
  const Deleted = builder.objectRef<DeletedTermShape>(`Delete${typeName}Success`).implement({
    description: `The deleted ${single}: its global ID and what it was.`,
    fields: (t) => ({
      deletedId: t.id(deletedIdField(typeName)),
      deleted: t.field({ type: DeletedTermRef, description: 'The term as it was just before its deletion.', resolve: (term) => term }),
    }),
  });

  builder.mutationFields((t) => ({
    [`create${typeName}`]: t.field({
      type: Created,
      description: `Creates a ${single}. Same name (under the same parent) → ConflictError TERM_EXISTS.`,
      errors: { types: [...writeErrors] },
      args: { input: t.arg({ type: CreateTermInput, required: true }) },
      resolve: async (_r, args, ctx) => ({ id: await createTerm(ctx, taxonomy, toTermInput(args.input)) }),
    }),
    [`update${typeName}`]: t.field({
      type: Updated,
      description: 'Partial update.',
      errors: { types: [...writeErrors] },
      args: { id: t.arg.id({ required: true, description: 'Global ID, or database ID.' }), input: t.arg({ type: UpdateTermInput, required: true }) },
      resolve: async (_r, args, ctx) => ({ id: await updateTerm(ctx, taxonomy, recordId(args.id, [typeName], 'id'), toTermInput(args.input)) }),
    }),
    [`delete${typeName}`]: t.field({
      type: Deleted,
      description: 'Deletes permanently (terms have no trash); events lose the term, child categories move up.',
      errors: { types: [...writeErrors] },
      args: { id: t.arg.id({ required: true, description: 'Global ID, or database ID.' }) },
      resolve: (_r, args, ctx) => deleteTerm(ctx, taxonomy, recordId(args.id, [typeName], 'id')),
    }),
  }));

  return { ref: edgeRef, of: (ctx: Context, row: TermRow) => edgeIn(defaultList(ctx, {}), row) };
}
