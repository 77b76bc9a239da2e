import type { GraphQLResolveInfo, SelectionSetNode } from 'graphql';
import type { Context } from '../src/services/context.ts';
import { ValidationError } from '../src/domain/errors.ts';
import { MAX_INT } from '../src/domain/ids.ts';
import { withScalars } from '../src/services/posts.ts';
import { builder, type PageNumbers } from './builder.ts';
import {
  afterWhere,
  atOrBeforeWhere,
  compareKeys,
  decodeCursor,
  encodeCursor,
  prismaOrderBy,
  reversed,
  sortKeys,
  type KeyValue,
  type SortKey,
} from './keyset.ts';

export interface PageArgs {
  page?: number | null;
  perPage?: number | null;
  first?: number | null;
  after?: string | null;
  last?: number | null;
  before?: string | null;
}

/** Which rows of a list to read: between two cursors (exclusive), from the start or (`reverse`) from the end. */
export interface Slice {
  after: KeyValue[] | null;
  before: KeyValue[] | null;
  reverse: boolean;
  skip: number;
  take: number;
}

/**
 * A list in its order, as the pagination below reads it: its sort keys (ending with the ID), its
 * rows by slice, whether any row lies beyond a cursor, its size.
 */
export interface ListSource<Row> {
  keys: SortKey[];
  keyValues(row: Row): KeyValue[];
  rows(slice: Slice): Promise<Row[]>;
  /** Whether any row sits at the cursor or before it (`reverse`: at it or after it). */
  anyAt(values: KeyValue[], reverse: boolean): Promise<boolean>;
  /** How many rows sit before the cursor (`inclusive`: or at it). */
  countBefore(values: KeyValue[], inclusive: boolean): Promise<number>;
  count(): Promise<number>;
  /** The record with this ID, read as the list reads its rows (whether or not the list holds it). */
  one(id: number): Promise<Row | null>;
}

export interface Edge<T> {
  cursor: string;
  node: T;
}

export interface ListPage<T> extends PageNumbers {
  edges: Edge<T>[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

/**
 * One page of a list. `page`/`perPage` (what REST speaks; perPage capped at the site's maximum,
 * contract §10.4) read by offset. Relay's `first`/`after`/`last`/`before` read by keyset (the
 * cursors hold the sort keys and the ID): `first` rows after `after`, or the `last` rows before
 * `before` (`last` alone: the list's end), never more than the site's maximum. Both kinds of page
 * give keyset cursors, so a client may start with page 1 and go on with `after: endCursor`.
 * The list's total (`totalCount`, `totalPages`) is counted only when the operation (`info`) selects
 * it: an exact total reads every match, so it is what grows with the calendar.
 */
export async function paginate<Row>(ctx: Context, args: PageArgs, source: ListSource<Row>, info: GraphQLResolveInfo): Promise<ListPage<Row>> {
  const max = ctx.settings.maxPerPage;
  const relay = args.first != null || args.after != null || args.last != null || args.before != null;
  if (args.page != null && (args.page < 1 || args.page > MAX_INT)) throw new ValidationError('page must be a positive integer.', 'page', 'INVALID_PAGE');
  if (args.perPage != null && args.perPage < 1) throw new ValidationError('perPage must be a positive integer.', 'perPage', 'INVALID_PER_PAGE');
  if (relay && (args.page != null || args.perPage != null)) {
    const field = args.page != null ? 'page' : 'perPage';
    throw new ValidationError(`${field} pages by number and first/after/last/before by cursor: use one or the other.`, field, 'INVALID_PAGE');
  }
  const cursorOf = (row: Row) => cursorIn(source, row);
  // The total is counted next to the page when the operation reads it, and not at all otherwise.
  const counting = selectsAny(info, TOTAL_FIELDS);
  const count = () => (counting ? source.count() : null);
  let total: number | null;

  let rows: Row[];
  let hasNextPage: boolean;
  let hasPreviousPage: boolean;
  let page: PageNumbers['page'];
  let perPage: number;
  if (!relay) {
    perPage = Math.min(args.perPage ?? ctx.settings.postsPerPage, max);
    page = args.page ?? 1;
    const offset = (page - 1) * perPage;
    // Without a total, one row more than the page tells whether another page follows.
    const slice = { after: null, before: null, reverse: false, skip: offset, take: counting ? perPage : perPage + 1 };
    const [fetched, counted] = await Promise.all([source.rows(slice), count()]);
    rows = fetched.slice(0, perPage);
    total = counted;
    hasNextPage = total === null ? fetched.length > perPage : offset + rows.length < total;
    hasPreviousPage = offset > 0;
  } else {
    if ((args.first ?? 0) < 0 || (args.last ?? 0) < 0) throw new ValidationError('first/last must not be negative.', args.first != null && args.first < 0 ? 'first' : 'last', 'INVALID_PAGE');
    const after = args.after != null ? decodeCursor(source.keys, args.after, 'after') : null;
    const before = args.before != null ? decodeCursor(source.keys, args.before, 'before') : null;
    // `last` (without `first`), or `before` alone: the rows just before `before`, read backwards from it.
    const backward = args.last != null ? args.first == null : before !== null && after === null && args.first == null;
    perPage = Math.min((backward ? args.last : args.first) ?? ctx.settings.postsPerPage, max);
    const slice = { after, before, reverse: backward, skip: 0, take: perPage + 1 };
    // Is there anything beyond the page on the side it was read from (a cursor, or nothing: the list's edge)?
    const bound = backward ? before : after;
    const beyond = bound ? source.anyAt(bound, backward) : Promise.resolve(false);
    const [fetched, other, counted] = await Promise.all([source.rows(slice), beyond, count()]);
    total = counted;
    const more = fetched.length > perPage;
    rows = fetched.slice(0, perPage);
    if (backward) rows.reverse();
    // first and last together (Relay allows it): the last `last` of the first `first`.
    let cut = false;
    if (!backward && args.last != null && rows.length > Math.min(args.last, max)) {
      rows = rows.slice(rows.length - Math.min(args.last, max));
      cut = true;
    }
    hasNextPage = backward ? other : more;
    hasPreviousPage = backward ? more : other || cut;
    // Which page of perPage records the first one falls on: a count, run only when a client asks.
    const first = rows[0];
    const size = perPage;
    page = async () => {
      const before = first ? await source.countBefore(source.keyValues(first), false) : after ? await source.countBefore(after, true) : 0;
      return Math.floor(before / Math.max(size, 1)) + 1;
    };
  }
  const edges = rows.map((node) => edgeIn(source, node));
  return {
    edges,
    pageInfo: {
      hasNextPage,
      hasPreviousPage,
      startCursor: rows.length ? cursorOf(rows[0]!) : null,
      endCursor: rows.length ? cursorOf(rows.at(-1)!) : null,
    },
    ...(total === null ? lazyTotals(source, perPage) : { totalCount: total, totalPages: pagesOf(total, perPage) }),
    page,
    perPage,
  };
}

/** The fields of a connection that need its total. */
const TOTAL_FIELDS = new Set(['totalCount', 'totalPages']);

const pagesOf = (totalCount: number, perPage: number) => (perPage ? Math.ceil(totalCount / perPage) : 0);

/** A total nobody selected (or selected where `selectsAny` cannot see it): counted if it is read after all, once. */
function lazyTotals(source: Pick<ListSource<unknown>, 'count'>, perPage: number) {
  let counted: Promise<number> | undefined;
  const totalCount = () => (counted ??= source.count());
  return { totalCount, totalPages: async () => pagesOf(await totalCount(), perPage) };
}

/**
 * Whether the operation selects any of these fields right under the field being resolved, directly or
 * through fragments. By name, on the syntax only (`@skip`/`@include` not evaluated: a skipped field
 * still counts as selected, which costs a count, never a wrong answer), so that no `graphql` runtime
 * import is needed here (two builds of it may be loaded).
 */
function selectsAny(info: Pick<GraphQLResolveInfo, 'fieldNodes' | 'fragments'>, names: ReadonlySet<string>): boolean {
  const spread = new Set<string>();
  const visit = (set: SelectionSetNode | undefined): boolean =>
    set?.selections.some((s) => {
      if (s.kind === 'Field') return names.has(s.name.value);
      if (s.kind === 'InlineFragment') return visit(s.selectionSet);
      if (spread.has(s.name.value)) return false;
      spread.add(s.name.value);
      return visit(info.fragments[s.name.value]?.selectionSet);
    }) ?? false;
  return info.fieldNodes.some((field) => visit(field.selectionSet));
}

/** A row's cursor in the list's order. */
const cursorIn = <Row>(source: Pick<ListSource<Row>, 'keys' | 'keyValues'>, row: Row) => encodeCursor(source.keys, source.keyValues(row));

/**
 * A row as an edge of the list (a create's answer gives the new record's edge, for clients to add
 * to a list they show). The cursor is computed when asked for: the REST facade's pages never read it.
 */
export function edgeIn<Row>(source: Pick<ListSource<Row>, 'keys' | 'keyValues'>, node: Row): Edge<Row> {
  return {
    node,
    get cursor() {
      return cursorIn(source, node);
    },
  };
}

/** The reads of one Prisma model a list needs (its delegate, or a narrower typed view of it). */
interface ListTable<Row> {
  findMany(args: { select?: object; include?: object; where: object; orderBy?: object; skip?: number; take?: number }): Promise<Row[]>;
  findFirst(args: { where: object; orderBy: object; select: { id: true } }): Promise<{ id: number } | null>;
  count(args: { where: object }): Promise<number>;
}

/**
 * A list of one Prisma model: `where` in the order `orderBy` (its last key the ID), each row read
 * with `select` (the caller's selection, widened by the sort keys the cursors need).
 *
 * `idsFirst`: the page is found first and loaded second. Its IDs come from one statement with the
 * whole filter, the order and the limit and no relation (on the indexes); then the records and
 * relations of those IDs only, put back in that order. Prisma's relation joins (one LATERAL JSON
 * build per row and relation) in the statement that filters were evaluated for rows the page never
 * shows: every row skipped before an OFFSET (page 100 of 10,000 events: 1.7–2.2 s, 0.14 s this
 * way), and, when the planner misjudged a filter, every row it later threw away (a search in a
 * category at 100k events built the relations of every event matching the text, then kept ten).
 * One statement more for a page, each cheap. The relations stay joins: batched reads of the
 * page's IDs (`relationLoadStrategy: 'query'`) cost eleven statements more and more CPU.
 */
export function prismaList<Row extends { id: number }>(opts: {
  model: string;
  table: ListTable<Row>;
  where: object;
  orderBy: readonly object[];
  select: { select?: object; include?: object };
  idsFirst?: boolean;
  /** The list's total by other means than counting `where`'s rows (the same number, read cheaper). */
  count?: () => Promise<number>;
}): ListSource<Row> {
  const { table, where } = opts;
  const keys = sortKeys(opts.model, opts.orderBy);
  const select = withScalars(opts.select, Object.fromEntries(keys.map((k) => [k.field, true])));
  const and = (...conditions: object[]) => (conditions.length ? { AND: [where, ...conditions] } : where);
  const anyAt = async (values: KeyValue[], reverse: boolean) => {
    const k = reverse ? reversed(keys) : keys;
    return (await table.findFirst({ where: and(atOrBeforeWhere(k, values)), orderBy: prismaOrderBy(reversed(k)), select: { id: true } })) !== null;
  };
  return {
    keys,
    keyValues: (row) => keys.map((k) => Reflect.get(row, k.field) as KeyValue),
    async rows({ after, before, reverse, skip, take }) {
      const conditions = [...(after ? [afterWhere(keys, after)] : []), ...(before ? [afterWhere(reversed(keys), before)] : [])];
      // Offset pages keep the caller's own orderBy (the statement REST pages have always run).
      const orderBy = reverse ? prismaOrderBy(reversed(keys)) : conditions.length ? prismaOrderBy(keys) : opts.orderBy;
      const filter = and(...conditions);
      if (!opts.idsFirst) return table.findMany({ ...select, where: filter, orderBy, skip, take });
      const order = (await table.findMany({ select: { id: true }, where: filter, orderBy, skip, take })).map((r) => r.id);
      if (!order.length) return [];
      const found = new Map((await table.findMany({ ...select, where: { id: { in: order } } })).map((r) => [r.id, r]));
      return order.flatMap((id) => found.get(id) ?? []);
    },
    anyAt,
    countBefore: (values, inclusive) =>
      table.count({ where: and(inclusive ? atOrBeforeWhere(keys, values) : afterWhere(reversed(keys), values)) }),
    count: opts.count ?? (() => table.count({ where })),
    one: async (id) => (await table.findMany({ ...select, where: { id } }))[0] ?? null,
  };
}

/**
 * A list ordered in memory (what the database cannot order alike on both backends): every matching
 * row's ID and key values, sorted by `keys`, then the page's records loaded by ID.
 */
export function memoryList<Row extends { id: number }>(opts: {
  keys: SortKey[];
  keyed: () => Promise<{ id: number; values: KeyValue[] }[]>;
  load: (ids: number[]) => Promise<Row[]>;
  keyValues: (row: Row) => KeyValue[];
}): ListSource<Row> {
  const { keys } = opts;
  let sorted: Promise<{ id: number; values: KeyValue[] }[]> | undefined;
  const all = () => (sorted ??= opts.keyed().then((rows) => rows.sort((a, b) => compareKeys(keys, a.values, b.values))));
  const anyAt = async (values: KeyValue[], reverse: boolean) =>
    (await all()).some((r) => (reverse ? -1 : 1) * compareKeys(keys, r.values, values) <= 0);
  return {
    keys,
    keyValues: opts.keyValues,
    async rows({ after, before, reverse, skip, take }) {
      let list = (await all()).filter(
        (r) => (!after || compareKeys(keys, r.values, after) > 0) && (!before || compareKeys(keys, r.values, before) < 0),
      );
      if (reverse) list = [...list].reverse();
      const ids = list.slice(skip, skip + take).map((r) => r.id);
      if (!ids.length) return [];
      const found = new Map((await opts.load(ids)).map((r) => [r.id, r]));
      return ids.flatMap((id) => found.get(id) ?? []);
    },
    anyAt,
    countBefore: async (values, inclusive) => (await all()).filter((r) => compareKeys(keys, r.values, values) < (inclusive ? 1 : 0)).length,
    count: async () => (await all()).length,
    one: async (id) => (await opts.load([id]))[0] ?? null,
  };
}

/** A page number as paginate left it: known, or counted when the field is read. */
const numberOf = (n: number | (() => Promise<number>)) => (typeof n === 'function' ? n() : n);

/** The page numbers every list connection carries next to Relay's pageInfo (what REST's headers need). */
export const PagedConnectionInterface = builder.interfaceRef<PageNumbers>('PagedConnection').implement({
  description: 'A list connection with page numbers (page/perPage windows, as REST lists them).',
  fields: (t) => ({
    totalCount: t.int({ description: 'Matching records over all pages. Counted only when it or totalPages is selected.', resolve: (c) => numberOf(c.totalCount) }),
    page: t.int({
      description: 'This page number (1-based); for a page asked for by cursor, the page of perPage records its first record falls on.',
      resolve: (c) => numberOf(c.page),
    }),
    perPage: t.exposeInt('perPage', { description: 'Page size after capping (first or last when paging by cursor).' }),
    totalPages: t.int({ description: 'ceil(totalCount / perPage); 0 when empty.', resolve: (c) => numberOf(c.totalPages) }),
  }),
});

/** Where a connection's records are selected: `nodes` and `edges.node` (one query plans both). */
export const CONNECTION_NODE_PATHS = [['nodes'], ['edges', 'node']];

/** The page/perPage arguments of every list (next to Relay's first/after/last/before). */
export const pageArgs = builder.args((t) => ({
  page: t.int({ description: 'Page number (1-based), with perPage. Not with first/after/last/before.' }),
  perPage: t.int({ description: 'Page size, capped at the site maximum (50 by default).' }),
}));
