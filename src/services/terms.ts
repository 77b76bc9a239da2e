import type { Prisma, Taxonomy } from '../../prisma/generated/client/client.ts';
import type { Context } from './context.ts';
import { canManageCategories, canManageTags } from '../domain/capabilities.ts';
import { ConflictError, ForbiddenError, NotFoundError, UnauthenticatedError, ValidationError } from '../domain/errors.ts';
import { isRecordId } from '../domain/ids.ts';
import { normalizeSlugLookup, slugify } from '../domain/slug.ts';
import { searchPhraseFault } from '../domain/search.ts';
import { linkedEventChanges, publishChange } from './changes.ts';
import { recorded } from './change-log.ts';
import { termTable } from '../db/tables.ts';
import { inTransaction, lockKeys, type TransactionClient } from '../db/transactions.ts';
import { retryOnWriteConflict } from './retry.ts';
import { isSlugConflict, lockSlugBases, writeWithUniqueSlug } from './slugs.ts';
import { filterHtmlFields } from './text-work.ts';

const termType = (taxonomy: Taxonomy) => (taxonomy === 'CATEGORY' ? 'EventCategory' : 'EventTag');
const changeKind = (taxonomy: Taxonomy): 'EVENT_CATEGORY' | 'EVENT_TAG' => (taxonomy === 'CATEGORY' ? 'EVENT_CATEGORY' : 'EVENT_TAG');
interface TreeNode {
  id: number;
  parentId: number | null;
  slug: string;
}

const trees = new WeakMap<Context, Promise<Map<number, TreeNode>>>();

/** All categories' ids, parents and slugs, loaded once per request (categories are few). */
export function categoryTree(ctx: Context): Promise<Map<number, TreeNode>> {
  let tree = trees.get(ctx);
  if (!tree) {
    tree = ctx.prisma.category
      .findMany({ select: { id: true, parentId: true, slug: true } })
      .then((rows) => new Map(rows.map((r) => [r.id, r])));
    trees.set(ctx, tree);
  }
  return tree;
}

function invalidateTree(ctx: Context) {
  trees.delete(ctx);
  // A write runs on a context of its own (its transaction's): the request's tree is stale too.
  if (ctx.origin) trees.delete(ctx.origin);
}

/** The ids given plus every descendant category (a filter on a parent matches its children). */
export async function withDescendants(ctx: Context, ids: number[]): Promise<number[]> {
  const tree = await categoryTree(ctx);
  const children = new Map<number, number[]>();
  for (const node of tree.values()) {
    if (node.parentId === null) continue;
    children.set(node.parentId, [...(children.get(node.parentId) ?? []), node.id]);
  }
  const result = new Set<number>();
  const stack = [...ids];
  while (stack.length) {
    const id = stack.pop()!;
    if (result.has(id)) continue;
    result.add(id);
    stack.push(...(children.get(id) ?? []));
  }
  return [...result];
}

/** Slugs from the root down to the category, for its archive URL (`/events/category/music/jazz/`). */
export async function categoryPath(ctx: Context, id: number): Promise<string[]> {
  const tree = await categoryTree(ctx);
  const path: string[] = [];
  const seen = new Set<number>();
  for (let node = tree.get(id); node && !seen.has(node.id); node = node.parentId ? tree.get(node.parentId) : undefined) {
    seen.add(node.id);
    path.unshift(node.slug);
  }
  return path;
}

const isNumeric = (v: string) => /^\d+$/.test(v.trim());

/** The longest term name or slug (their columns' length). */
const MAX_TERM_TEXT = 200;

/**
 * Resolves filter references (IDs or slugs) to term IDs. Any unknown reference is an error naming
 * `field` (contract §5.4: an unknown category or tag → 400).
 */
export async function resolveTermRefs(ctx: Context, taxonomy: Taxonomy, refs: string[], field: string): Promise<number[]> {
  const numeric = refs.filter(isNumeric).map(Number);
  const ids = numeric.filter(isRecordId);
  const slugs = refs.filter((r) => !isNumeric(r)).map((r) => normalizeSlugLookup(r));
  const rows = await findTerms(ctx.prisma, taxonomy, ids, slugs.filter(Boolean));
  const foundIds = new Set(rows.map((r) => r.id));
  const foundSlugs = new Set(rows.map((r) => r.slug));
  const missing = [...numeric.filter((id) => !foundIds.has(id)), ...slugs.filter((s) => !foundSlugs.has(s))];
  if (missing.length) {
    throw new ValidationError(`Unknown ${taxonomy === 'CATEGORY' ? 'category' : 'tag'}: ${missing.join(', ')}`, field, 'UNKNOWN_TERM');
  }
  return rows.map((r) => r.id);
}

/** How many terms of one taxonomy an event write may name (WordPress sets no limit). */
export const MAX_TERMS_PER_EVENT = 100;

/**
 * The terms an event write names, bounded before any is looked up: each is looked up (and may be
 * created) one by one, and no term's name or slug is longer than `MAX_TERM_TEXT`.
 */
function checkTermRefs(taxonomy: Taxonomy, refs: string[]) {
  const field = taxonomy === 'CATEGORY' ? 'categories' : 'tags';
  if (refs.length > MAX_TERMS_PER_EVENT) {
    throw new ValidationError(`An event may name ${MAX_TERMS_PER_EVENT} ${field} at most.`, field, 'TOO_MANY');
  }
  if (refs.some((r) => r.length > MAX_TERM_TEXT)) {
    throw new ValidationError(`A term name or slug is ${MAX_TERM_TEXT} characters at most.`, field, 'TOO_LONG');
  }
}

/**
 * Event writes link terms by ID, slug or name (contract §7.4): an unknown numeric ID is dropped, a
 * string is looked up as slug, then name, and created when not found. Concurrent writes naming one
 * new term create it once: the creation looks again under the name's slug lock.
 */
export async function resolveOrCreateTermsForEvent(ctx: Context, taxonomy: Taxonomy, refs: string[]): Promise<number[]> {
  const result: number[] = [];
  const trimmed = refs.map((r) => r.trim()).filter(Boolean);
  checkTermRefs(taxonomy, trimmed);
  const slugOf = (raw: string) => normalizeSlugLookup(raw) || slugify(raw);
  // The IDs and slugs of every ref in one query, not one per ref: what it finds is what the
  // per-ref lookups below would find first; names and creations stay one at a time.
  const ids = trimmed.filter(isNumeric).map(Number).filter(isRecordId);
  const slugs = trimmed.filter((r) => !isNumeric(r)).map(slugOf).filter(Boolean);
  const known = ids.length || slugs.length ? await findTerms(ctx.prisma, taxonomy, ids, slugs) : [];
  const byId = new Set(known.map((t) => t.id));
  const bySlug = new Map(known.map((t) => [t.slug, t.id]));
  for (const raw of trimmed) {
    if (isNumeric(raw)) {
      if (byId.has(Number(raw))) result.push(Number(raw));
      continue;
    }
    // A term created by name is named as createTerm would name it (filtered for callers without unfiltered_html).
    const name = (await filterHtmlFields(ctx.viewer, { name: raw }, HTML_FIELDS)).name.trim();
    const byName = async (db: TransactionClient) =>
      (await findTerm(db, taxonomy, { name: raw })) ?? (name && name !== raw ? await findTerm(db, taxonomy, { name }) : null);
    const lookUp = async (db: TransactionClient) => (await findTerm(db, taxonomy, { slug: slugOf(raw) })) ?? (await byName(db));
    const slugHit = bySlug.get(slugOf(raw));
    const found = slugHit ? { id: slugHit } : await byName(ctx.prisma);
    if (found) {
      result.push(found.id);
      continue;
    }
    if (!name) continue;
    const term = await writeWithUniqueSlug(
      ctx.prisma,
      taxonomy,
      name,
      async (tx, slug) => (await lookUp(tx)) ?? { ...(await insertTermRow(tx, taxonomy, { name }, slug)), created: true },
      { alsoLock: [slugify(raw)] },
    );
    if ('created' in term) announceCreated(ctx, taxonomy, term.id);
    result.push(term.id);
  }
  return [...new Set(result)];
}

/** The terms of the taxonomy with one of these IDs or slugs. */
function findTerms(db: TransactionClient, taxonomy: Taxonomy, ids: number[], slugs: string[]): Promise<{ id: number; slug: string }[]> {
  const where = { OR: [{ id: { in: ids } }, { slug: { in: slugs } }] };
  return termTable(db, taxonomy).findMany({ where, select: { id: true, slug: true } });
}

async function findTerm(db: TransactionClient, taxonomy: Taxonomy, where: { id?: number; slug?: string; name?: string }): Promise<{ id: number } | null> {
  if (where.slug === '') return null;
  if (where.name !== undefined) return (await termIdsNamed(db, taxonomy, where.name))[0] ?? null;
  return termTable(db, taxonomy).findFirst({ where, select: { id: true } });
}

/**
 * Terms of the taxonomy named `name` ignoring case (under `parentId` when given: null is the root),
 * oldest first. `lower() = lower()` rather than Prisma's `mode: 'insensitive'`, whose ILIKE takes
 * `_` and `%` in a name for wildcards ("A_B" matched "AXB").
 */
function termIdsNamed(db: TransactionClient, taxonomy: Taxonomy, name: string, parentId?: number | null, exceptId = 0): Promise<{ id: number }[]> {
  if (taxonomy === 'TAG') return db.$queryRaw`SELECT id FROM "Tag" WHERE lower(name) = lower(${name}) AND id <> ${exceptId} ORDER BY id`;
  if (parentId === undefined) return db.$queryRaw`SELECT id FROM "Category" WHERE lower(name) = lower(${name}) AND id <> ${exceptId} ORDER BY id`;
  return db.$queryRaw`SELECT id FROM "Category" WHERE lower(name) = lower(${name}) AND coalesce("parentId", 0) = ${parentId ?? 0}
    AND id <> ${exceptId} ORDER BY id`;
}

/** pre_term_name and pre_term_description: both `wp_filter_kses` for callers without `unfiltered_html`. */
const HTML_FIELDS = { name: 'data', description: 'data' } as const;

export interface TermInput {
  name?: string | null;
  slug?: string | null;
  description?: string | null;
  parentId?: number | null;
}

function requireTermManager(ctx: Context, taxonomy: Taxonomy) {
  if (!ctx.viewer) throw new UnauthenticatedError();
  const allowed = taxonomy === 'CATEGORY' ? canManageCategories(ctx.viewer) : canManageTags(ctx.viewer);
  if (!allowed) throw new ForbiddenError('Sorry, you are not allowed to manage these terms.', 'FORBIDDEN');
}

async function checkParent(ctx: Context, taxonomy: Taxonomy, parentId: number | null | undefined, selfId?: number) {
  if (parentId === undefined || parentId === null || parentId === 0) return;
  if (taxonomy === 'TAG') {
    throw new ValidationError('Cannot set parent term, taxonomy is not hierarchical.', 'parent', 'TAXONOMY_NOT_HIERARCHICAL');
  }
  const tree = await categoryTree(ctx);
  if (!tree.has(parentId)) throw new ValidationError('Parent term does not exist.', 'parent', 'UNKNOWN_PARENT');
  for (let node = tree.get(parentId); node; node = node.parentId ? tree.get(node.parentId) : undefined) {
    if (node.id === selfId) throw new ValidationError('A category cannot be its own ancestor.', 'parent', 'PARENT_CYCLE');
  }
}

/**
 * The category tree's lock (one advisory lock per database: writes that set a parent or remove a
 * category are rare), taken inside such a write's transaction before it reads the tree.
 */
const lockCategoryTree = (tx: TransactionClient) => lockKeys(tx, [['tree', 'CATEGORY']]);

/**
 * Under the category tree's lock, the parent as committed now: it exists and, for an update, is
 * neither the category itself nor one of its descendants. `checkParent` reads the cached tree, which
 * may be a moment old: two concurrent reparentings (A under B, B under A) each passed it and closed
 * a cycle, and a parent deleted meanwhile failed on the foreign key.
 */
async function lockTreeAndCheckParent(tx: TransactionClient, parentId: number, selfId?: number): Promise<void> {
  await lockCategoryTree(tx);
  const ancestors = await tx.$queryRaw<{ id: number }[]>`
    WITH RECURSIVE up(id, "parentId") AS (
      SELECT id, "parentId" FROM "Category" WHERE id = ${parentId}
      UNION SELECT c.id, c."parentId" FROM "Category" c JOIN up ON c.id = up."parentId")
    SELECT id FROM up`;
  if (!ancestors.length) throw new ValidationError('Parent term does not exist.', 'parent', 'UNKNOWN_PARENT');
  if (ancestors.some((a) => a.id === selfId)) throw new ValidationError('A category cannot be its own ancestor.', 'parent', 'PARENT_CYCLE');
}

/** The name rule (contract §7.8): unique ignoring case per taxonomy, and per parent for categories. */
async function assertNameFree(db: TransactionClient, taxonomy: Taxonomy, name: string, parentId: number | null, exceptId?: number) {
  const [clash] = await termIdsNamed(db, taxonomy, name, taxonomy === 'CATEGORY' ? parentId : undefined, exceptId);
  if (clash) {
    const message =
      taxonomy === 'CATEGORY'
        ? 'A term with the name provided already exists with this parent.'
        : 'A term with the name provided already exists in this taxonomy.';
    throw new ConflictError(message, 'TERM_EXISTS', 'name', clash.id, termType(taxonomy));
  }
}

/** The slug lock a name is checked under: names equal ignoring case slugify alike (src/services/slugs.ts). */
const nameLock = (name: string) => slugify(name) || 'untitled';

/**
 * Inserts a term row (and its ID in the term space) under `slug`, in the caller's transaction: two
 * inserts (the term's ID, then its row), as a nested create would read the row back once more.
 */
async function insertTermRow(tx: TransactionClient, taxonomy: Taxonomy, input: TermInput, slug: string): Promise<{ id: number }> {
  const { id } = await tx.term.create({ data: { taxonomy }, select: { id: true } });
  const data = { id, name: input.name!.trim(), slug, description: input.description ?? '' };
  return taxonomy === 'CATEGORY'
    ? tx.category.create({ data: { ...data, parentId: input.parentId || null }, select: { id: true } })
    : tx.tag.create({ data, select: { id: true } });
}

/** After a term's creation committed. */
function announceCreated(ctx: Context, taxonomy: Taxonomy, id: number) {
  invalidateTree(ctx);
  publishChange(ctx, { kind: changeKind(taxonomy), id, action: 'CREATED' });
}

function validateTermInput(input: TermInput, creating: boolean) {
  if (creating && !input.name?.trim()) throw new ValidationError('The term name is required.', 'name', 'REQUIRED');
  if (input.name !== undefined && input.name !== null && !input.name.trim()) {
    throw new ValidationError('The term name cannot be empty.', 'name', 'EMPTY');
  }
  // Lengths first: slugify works on the slug below.
  if (input.name && input.name.length > MAX_TERM_TEXT) throw new ValidationError(`The term name is too long (${MAX_TERM_TEXT} characters at most).`, 'name', 'TOO_LONG');
  if (input.slug && input.slug.length > MAX_TERM_TEXT) throw new ValidationError(`The slug is too long (${MAX_TERM_TEXT} characters at most).`, 'slug', 'TOO_LONG');
  if (input.slug !== undefined && input.slug !== null && !slugify(input.slug)) {
    throw new ValidationError('The slug is empty once normalized.', 'slug', 'EMPTY');
  }
}

export const createTerm = recorded(async (ctx: Context, taxonomy: Taxonomy, input: TermInput): Promise<number> => {
  input = await filterHtmlFields(ctx.viewer, input, HTML_FIELDS);
  validateTermInput(input, true);
  await checkParent(ctx, taxonomy, input.parentId);
  requireTermManager(ctx, taxonomy);
  const name = input.name!.trim();
  // The name is checked and the term inserted under the name's lock (and the slug's): concurrent
  // creates of one name make one term, the others answer TERM_EXISTS naming it.
  const { id } = await writeWithUniqueSlug(
    ctx.prisma,
    taxonomy,
    input.slug || name,
    async (tx, slug) => {
      if (taxonomy === 'CATEGORY' && input.parentId) await lockTreeAndCheckParent(tx, input.parentId);
      await assertNameFree(tx, taxonomy, name, input.parentId || null);
      return insertTermRow(tx, taxonomy, input, slug);
    },
    { alsoLock: [nameLock(name)] },
  );
  announceCreated(ctx, taxonomy, id);
  return id;
});

export async function getTermOrThrow(ctx: Context, taxonomy: Taxonomy, id: number) {
  const term = await termTable(ctx.prisma, taxonomy).findUnique({ where: { id } });
  if (!term) {
    throw new NotFoundError(`No ${taxonomy === 'CATEGORY' ? 'category' : 'tag'} has the ID ${id}.`, 'NOT_FOUND', 'id');
  }
  return { parentId: null, ...term };
}

export const updateTerm = recorded(async (ctx: Context, taxonomy: Taxonomy, id: number, input: TermInput): Promise<number> => {
  input = await filterHtmlFields(ctx.viewer, input, HTML_FIELDS);
  const current = await getTermOrThrow(ctx, taxonomy, id);
  validateTermInput(input, false);
  await checkParent(ctx, taxonomy, input.parentId, id);
  requireTermManager(ctx, taxonomy);
  const parentId = input.parentId === undefined ? current.parentId : input.parentId || null;
  const name = (input.name ?? current.name).trim();
  const checksName = !!input.name || input.parentId !== undefined;
  const slug = input.slug ? slugify(input.slug) : null;
  const data: Prisma.CategoryUpdateInput & Prisma.TagUpdateInput = {};
  if (input.name) data.name = input.name.trim();
  if (input.description !== undefined && input.description !== null) data.description = input.description;
  if (slug) data.slug = slug;
  const slugTaken = (holder: number) => new ConflictError(`The slug “${slug}” is already in use by another term.`, 'DUPLICATE_TERM_SLUG', 'slug', holder, termType(taxonomy));
  // The name and the slug are checked and written under their locks, as creates take them.
  await retryOnWriteConflict(() =>
    inTransaction(ctx.prisma, async (tx) => {
      await lockSlugBases(tx, taxonomy, [...(checksName ? [nameLock(name)] : []), ...(slug ? [slug] : [])]);
      if (taxonomy === 'CATEGORY' && input.parentId) await lockTreeAndCheckParent(tx, input.parentId, id);
      if (checksName) await assertNameFree(tx, taxonomy, name, parentId, id);
      if (slug) {
        const holder = await findTerm(tx, taxonomy, { slug });
        if (holder && holder.id !== id) throw slugTaken(holder.id);
      }
      if (taxonomy === 'CATEGORY') {
        await tx.category.update({
          where: { id },
          data: { ...data, parent: input.parentId === undefined ? undefined : parentId ? { connect: { id: parentId } } : { disconnect: true } },
        });
      } else {
        await tx.tag.update({ where: { id }, data });
      }
    }),
  ).catch(async (error: unknown) => {
    // A slug given here that a concurrent create allocated from another base (`x-2` beside `x`).
    const holder = slug && isSlugConflict(error) ? await findTerm(ctx.prisma, taxonomy, { slug }) : null;
    throw holder ? slugTaken(holder.id) : error;
  });
  invalidateTree(ctx);
  publishChange(ctx, { kind: changeKind(taxonomy), id, action: 'UPDATED' });
  return id;
});

/**
 * Locks the events that link a term, ascending, before the term is deleted. An event write locks
 * its event row before its terms (`lockCountedRows`, src/services/events.ts); the deletion's
 * cascade would take the term first and then, through the count triggers, those events, and so
 * cross such a write (a deadlock).
 */
async function lockLinkingEvents(tx: TransactionClient, taxonomy: Taxonomy, id: number): Promise<void> {
  if (taxonomy === 'CATEGORY') {
    await tx.$executeRaw`SELECT 1 FROM "Event" WHERE "id" IN (SELECT "eventId" FROM "EventCategory" WHERE "categoryId" = ${id}) ORDER BY "id" FOR UPDATE`;
  } else {
    await tx.$executeRaw`SELECT 1 FROM "Event" WHERE "id" IN (SELECT "eventId" FROM "EventTag" WHERE "tagId" = ${id}) ORDER BY "id" FOR UPDATE`;
  }
}

/** Permanent delete (terms have no trash). Children move up to the deleted term's parent. */
export const deleteTerm = recorded(async (ctx: Context, taxonomy: Taxonomy, id: number) => {
  const term = await getTermOrThrow(ctx, taxonomy, id);
  requireTermManager(ctx, taxonomy);
  const count = term.publishedCount;
  const path = taxonomy === 'CATEGORY' ? await categoryPath(ctx, id) : [term.slug];
  const events = await linkedEventChanges(ctx, changeKind(taxonomy), id);
  const children = taxonomy === 'CATEGORY' ? await ctx.prisma.category.findMany({ where: { parentId: id }, select: { id: true } }) : [];
  await retryOnWriteConflict(() =>
    inTransaction(ctx.prisma, async (tx) => {
      // Its children move up to its parent: under the tree's lock, reading the parent as it is now.
      if (taxonomy === 'CATEGORY') await lockCategoryTree(tx);
      await lockLinkingEvents(tx, taxonomy, id);
      if (taxonomy === 'CATEGORY') {
        const now = await tx.category.findUnique({ where: { id }, select: { parentId: true } });
        await tx.category.updateMany({ where: { parentId: id }, data: { parentId: now?.parentId ?? null } });
      }
      await tx.term.delete({ where: { id } });
    }),
  ).catch(async (error: unknown) => {
    // Deleted meanwhile by another request: answered as the deletion of a missing term is.
    if ((error as { code?: string }).code === 'P2025') await getTermOrThrow(ctx, taxonomy, id);
    throw error;
  });
  invalidateTree(ctx);
  publishChange(ctx, { kind: changeKind(taxonomy), id, action: 'DELETED' }, ...children.map((c) => ({ kind: 'EVENT_CATEGORY' as const, id: c.id, action: 'UPDATED' as const })), ...events);
  return { ...term, parentId: term.parentId ?? 0, count, taxonomy, path };
});

export interface TermFilter {
  search?: string | null;
  include?: number[] | null;
  exclude?: number[] | null;
  order?: string | null;
  orderby?: string | null;
  hideEmpty?: boolean | null;
  parent?: number | null;
  event?: number | null;
  slug?: string | null;
}

/** Term list semantics of contract §5.7. */
export async function buildTermListQuery(ctx: Context, taxonomy: Taxonomy, filter: TermFilter) {
  const and: Prisma.CategoryWhereInput[] = [];
  const label = taxonomy === 'CATEGORY' ? 'category' : 'tag';
  const existing = async (ids: number[], field: string) => {
    const rows = await termTable(ctx.prisma, taxonomy).findMany({ where: { id: { in: ids } }, select: { id: true } });
    const found = new Set(rows.map((r) => r.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) throw new ValidationError(`Unknown ${label} ID: ${missing.join(', ')}`, field, 'UNKNOWN_TERM');
  };
  if (filter.search !== undefined && filter.search !== null) {
    const fault = searchPhraseFault(filter.search);
    if (fault) throw new ValidationError(fault.message, 'search', fault.code);
    const s = filter.search.trim();
    and.push({ OR: [{ name: { contains: s, mode: 'insensitive' } }, { slug: { contains: s, mode: 'insensitive' } }] });
  }
  if (filter.include?.length) {
    await existing(filter.include, 'include');
    and.push({ id: { in: filter.include } });
  }
  if (filter.exclude?.length) {
    await existing(filter.exclude, 'exclude');
    and.push({ id: { notIn: filter.exclude } });
  }
  if (filter.parent !== undefined && filter.parent !== null) {
    if (taxonomy === 'TAG') throw new ValidationError('Tags have no parent.', 'parent', 'TAXONOMY_NOT_HIERARCHICAL');
    const tree = await categoryTree(ctx);
    if (!tree.has(filter.parent)) throw new ValidationError(`Unknown category ID: ${filter.parent}`, 'parent', 'UNKNOWN_TERM');
    and.push({ parentId: filter.parent });
  }
  if (filter.event !== undefined && filter.event !== null) {
    const post = await ctx.prisma.post.findUnique({ where: { id: filter.event }, select: { type: true } });
    if (post?.type !== 'EVENT') throw new ValidationError(`No event has the ID ${filter.event}.`, 'event', 'NOT_AN_EVENT');
    and.push({ events: { some: { eventId: filter.event } } });
  }
  if (filter.slug !== undefined && filter.slug !== null) {
    if (!filter.slug.trim()) throw new ValidationError('The slug cannot be empty.', 'slug', 'EMPTY');
    const slug = normalizeSlugLookup(filter.slug);
    // A slug that normalizes to nothing names no term (it used to send a NUL to SQL: a 500).
    and.push(slug ? { slug } : { id: { in: [] } });
  }
  if (filter.hideEmpty ?? true) and.push({ events: { some: { event: { status: 'publish' } } } });

  const direction = (filter.order ?? 'asc').toLowerCase() === 'asc' ? 'asc' : 'desc';
  const orderField = (filter.orderby ?? 'name').toLowerCase();
  // Ties by ID ascending whatever the direction (as WordPress lists them).
  const orderBy: Prisma.CategoryOrderByWithRelationInput[] | null =
    orderField === 'id' || orderField === 'include' || orderField === 'include_slugs' || orderField === 'term_group'
      ? [{ id: direction }]
      : orderField === 'slug'
        ? [{ slug: direction }, { id: 'asc' }]
        : orderField === 'description'
          ? [{ description: direction }, { id: 'asc' }]
          : orderField === 'count'
            ? [{ publishedCount: direction }, { id: 'asc' }]
            : null;
  return { where: { AND: and } as Prisma.CategoryWhereInput, orderBy, nameOrder: direction };
}

/**
 * The order of a term list by name (the default): case-insensitive with ties by ID, as MySQL's
 * case-insensitive collation returns `ORDER BY name`: "alpha" (ID 1), "Alpha"
 * (ID 2), "beta", "Beta". The database's own collation cannot give that on both backends (PGlite
 * has no ICU, so no nondeterministic collation; its C collation puts every capital first), and
 * Prisma cannot order by `lower(name)`: the matching IDs and names are read (`termNameKeys`) and
 * ordered by `termNameKey`, then ID, ascending both ways, in the caller.
 */
export const termNameKey = (name: string) => name.toLowerCase();

/** Every matching term's ID and name key (`termNameKey`), for a list ordered by name. */
export async function termNameKeys(ctx: Context, taxonomy: Taxonomy, list: Awaited<ReturnType<typeof buildTermListQuery>>): Promise<{ id: number; key: string }[]> {
  const rows = await termTable(ctx.prisma, taxonomy).findMany({ where: list.where, select: { id: true, name: true } });
  return rows.map((t) => ({ id: t.id, key: termNameKey(t.name) }));
}
