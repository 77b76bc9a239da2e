import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createGraphQLHarness } from '../helpers/graphql.ts';

let h: Awaited<ReturnType<typeof createGraphQLHarness>>;
beforeAll(async () => {
  h = await createGraphQLHarness();
});
afterAll(() => h.close());
beforeEach(() => h.reset());

const CAT_FIELDS = 'databaseId name slug parentId path count';
const ERRORS = '... on Error { __typename code message } ... on ValidationError { field }';
/** A category write's selection: its payload's category, or the typed error (`written` unwraps either). */
const CAT = (verb: string) => `... on ${verb}EventCategorySuccess { eventCategory { ${CAT_FIELDS} } } ${ERRORS}`;
const TAG_FIELDS = 'databaseId name slug count';
const TAG = (verb: string) => `... on ${verb}EventTagSuccess { eventTag { ${TAG_FIELDS} } } ${ERRORS}`;
const written = (r: { eventCategory?: any; eventTag?: any; deleted?: any }): any => r.eventCategory ?? r.eventTag ?? r.deleted ?? r;
const createCat = async (input: object) => written((await h.ok(`mutation($i: CreateTermInput!) { createEventCategory(input: $i) { ${CAT('Create')} } }`, { i: input })).createEventCategory);

describe('event categories', () => {
  it('builds a hierarchy with paths; refuses a duplicate name under the same parent', async () => {
    const music = await createCat({ name: 'Music', description: 'Concerts' });
    const jazz = await createCat({ name: 'Jazz', parentId: music.databaseId });
    expect(jazz).toMatchObject({ parentId: music.databaseId, path: ['music', 'jazz'], count: 0 });
    const dup = await createCat({ name: 'jazz', parentId: music.databaseId });
    expect(dup).toMatchObject({ __typename: 'ConflictError', code: 'TERM_EXISTS' });
    expect((await createCat({ name: 'Jazz' })).slug).toBe('jazz-2');
    expect(await createCat({ name: 'X', parentId: 999 })).toMatchObject({ __typename: 'ValidationError', field: 'parent' });
  });

  it('updates, refuses a taken slug, deletes moving children up', async () => {
    const a = await createCat({ name: 'A' });
    const b = await createCat({ name: 'B', parentId: a.databaseId });
    await createCat({ name: 'C' });
    const taken = await h.ok(`mutation($id: ID!) { updateEventCategory(id: $id, input: { slug: "c" }) { ${CAT('Update')} } }`, { id: b.databaseId });
    expect(written(taken.updateEventCategory)).toMatchObject({ __typename: 'ConflictError', code: 'DUPLICATE_TERM_SLUG' });
    const del = await h.ok(`mutation($id: ID!) { deleteEventCategory(id: $id) { ... on DeleteEventCategorySuccess { deleted { databaseId name } } } }`, { id: a.databaseId });
    expect(written(del.deleteEventCategory)).toMatchObject({ databaseId: a.databaseId, name: 'A' });
    const moved = await h.ok(`query($id: ID) { eventCategory(id: $id) { ${CAT_FIELDS} } }`, { id: b.databaseId });
    expect(moved.eventCategory.parentId).toBe(0);
  });

  it('lists hiding empty terms by default; counts only published events', async () => {
    await createCat({ name: 'Empty' });
    await h.ok(`mutation { createEvent(input: { title: "E", startDate: "2026-12-20", endDate: "2026-12-20", categories: ["Used"] }) { __typename } }`);
    await h.ok(`mutation { createEvent(input: { title: "D", startDate: "2026-12-20", endDate: "2026-12-20", categories: ["Used"], status: DRAFT }) { __typename } }`);
    const list = `query($f: TermFilter) { eventCategories(filter: $f) { totalCount edges { node { name count } } } }`;
    expect((await h.ok(list)).eventCategories.edges.map((e: any) => e.node)).toEqual([{ name: 'Used', count: 1 }]);
    expect((await h.ok(list, { f: { hideEmpty: false } })).eventCategories.totalCount).toBe(2);
    expect((await h.ok(list, { f: { hideEmpty: false, order: 'desc' } })).eventCategories.edges[0].node.name).toBe('Used');
    expect(await h.refused(list, { f: { include: [424242] } })).toMatchObject({ type: 'ValidationError', code: 'UNKNOWN_TERM', field: 'include' });
  });

  it('lets authors manage categories but not contributors or anonymous callers', async () => {
    expect(written((await h.gql(`mutation { createEventCategory(input: { name: "By author" }) { ${CAT('Create')} } }`, {}, { as: 'AUTHOR' })).data.createEventCategory).name).toBe('By author');
    expect(written((await h.gql(`mutation { createEventCategory(input: { name: "No" }) { ${CAT('Create')} } }`, {}, { as: 'CONTRIBUTOR' })).data.createEventCategory).__typename).toBe('ForbiddenError');
    expect(written((await h.gql(`mutation { createEventCategory(input: { name: "No" }) { ${CAT('Create')} } }`, {}, { as: null })).data.createEventCategory).__typename).toBe('UnauthenticatedError');
  });
});

describe('event tags', () => {
  it('creates, refuses parents and duplicates, shares the term ID space with categories', async () => {
    const cat = await createCat({ name: 'Shared' });
    const tag = written((await h.ok(`mutation { createEventTag(input: { name: "outdoor" }) { ${TAG('Create')} } }`)).createEventTag);
    expect(tag.databaseId).not.toBe(cat.databaseId);
    expect(written((await h.ok(`mutation { createEventTag(input: { name: "Outdoor" }) { ${TAG('Create')} } }`)).createEventTag).code).toBe('TERM_EXISTS');
    expect(written((await h.ok(`mutation { createEventTag(input: { name: "x", parentId: 1 }) { ${TAG('Create')} } }`)).createEventTag)).toMatchObject({ field: 'parent' });
    expect((await h.ok(`query($id: ID) { eventTag(id: $id) { ${TAG_FIELDS} } }`, { id: cat.databaseId })).eventTag).toBeNull();
    expect(await h.refused(`query($id: ID) { eventTag(id: $id, strict: true) { ${TAG_FIELDS} } }`, { id: cat.databaseId })).toMatchObject({ code: 'NOT_FOUND', field: 'id' });
  });

  it('updates and deletes; a second delete is NotFound; authors may not manage tags', async () => {
    const tag = written((await h.ok(`mutation { createEventTag(input: { name: "loud", description: "Noisy" }) { ${TAG('Create')} } }`)).createEventTag);
    const u = written((await h.ok(`mutation($id: ID!) { updateEventTag(id: $id, input: { name: "Very loud", slug: "very-loud" }) { ${TAG('Update')} } }`, { id: tag.databaseId })).updateEventTag);
    expect(u).toMatchObject({ name: 'Very loud', slug: 'very-loud' });
    expect(written((await h.ok(`mutation($id: ID!) { updateEventTag(id: $id, input: { name: " " }) { ${TAG('Update')} } }`, { id: tag.databaseId })).updateEventTag)).toMatchObject({ field: 'name' });
    expect(written((await h.gql(`mutation { createEventTag(input: { name: "nope" }) { ${TAG('Create')} } }`, {}, { as: 'AUTHOR' })).data.createEventTag).__typename).toBe('ForbiddenError');
    const del = `mutation($id: ID!) { deleteEventTag(id: $id) { ... on DeleteEventTagSuccess { deleted { databaseId slug } } ... on Error { __typename } } }`;
    expect(written((await h.ok(del, { id: tag.databaseId })).deleteEventTag)).toEqual({ databaseId: tag.databaseId, slug: 'very-loud' });
    expect(written((await h.ok(del, { id: tag.databaseId })).deleteEventTag)).toEqual({ __typename: 'NotFoundError' });
  });
});
