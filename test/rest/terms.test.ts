/** `/categories` and `/tags` routes over the real app (contract §4.5.1, §5.7, §7.8, §7.9). */
import { beforeAll, describe, expect, it } from 'vitest';
import { useTestServer, type TestRole, type TestServer } from '../helpers/server.ts';

let s: TestServer;
useTestServer((server) => (s = server));
const create = (path: string, body: Record<string, unknown>, as?: TestRole) => s.create(path, body, as);
const names = (list: { name: string }[]) => list.map((t) => t.name);

describe('categories', () => {
  it('creates (201 + Location + _links), reads, updates by POST/PUT/PATCH, deletes permanently', async () => {
    const r = await s.api('/categories', { method: 'POST', as: 'admin', body: { name: 'Concerts', description: 'Live music' } });
    expect(r.status).toBe(201);
    const c = r.body;
    expect(r.headers.get('location')).toBe(`${s.base}/wp-json/cal/events/v1/categories/${c.id}`);
    expect(Object.keys(c)).toEqual(['id', 'count', 'description', 'name', 'slug', 'taxonomy', 'parent', 'meta', 'url', 'urls', '_links']);
    expect(c).toMatchObject({ slug: 'concerts', taxonomy: 'cal_events_cat', parent: 0, meta: [], url: `${s.base}/events/category/concerts/` });

    const child = await create('/categories', { name: 'Chamber', parent: c.id });
    expect(child.url).toBe(`${s.base}/events/category/concerts/chamber/`);
    expect(child.urls.up).toBe(`${s.base}/wp-json/cal/events/v1/categories/${c.id}`);
    expect(child._links.up[0]).toMatchObject({ embeddable: true });

    const read = await s.api(`/categories/${c.id}`);
    expect([read.status, read.body.name, read.body._links.self.length]).toEqual([200, 'Concerts', 1]);
    expect(read.headers.get('allow')).toBe('GET');
    expect((await s.api(`/categories/${c.id}`, { as: 'admin' })).headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE');

    for (const method of ['POST', 'PUT', 'PATCH']) {
      const u = await s.api(`/categories/${c.id}`, { method, as: 'admin', body: { description: method } });
      expect([u.status, u.body.description, u.body.name]).toEqual([200, method, 'Concerts']);
    }

    const del = await s.api(`/categories/${c.id}`, { method: 'DELETE', as: 'admin' });
    expect([del.status, del.body.name]).toEqual([200, 'Concerts']);
    expect(del.body).not.toHaveProperty('_links');
    expect((await s.api(`/categories/${c.id}`)).status).toBe(400);
    const twice = await s.api(`/categories/${c.id}`, { method: 'DELETE', as: 'admin' });
    expect([twice.status, twice.body.code, Object.keys(twice.body.data.params)]).toEqual([400, 'rest_invalid_param', ['id']]);
    // The child moved up to the deleted category's parent.
    expect((await s.api(`/categories/${child.id}`)).body.parent).toBe(0);
  });

  it('term_exists with term_id and additional_data; duplicate slug on update', async () => {
    const a = await create('/categories', { name: 'Dup' });
    const r = await s.api('/categories', { method: 'POST', as: 'admin', body: { name: 'Dup' } });
    expect(r.status).toBe(400);
    expect(r.body).toEqual({
      code: 'term_exists',
      message: 'A term with the name provided already exists with this parent.',
      data: { status: 400, term_id: a.id },
      additional_data: [a.id, a.id],
    });
    const t = await create('/tags', { name: 'duptag' });
    const rt = await s.api('/tags', { method: 'POST', as: 'admin', body: { name: 'duptag' } });
    expect(rt.body).toMatchObject({ code: 'term_exists', message: 'A term with the name provided already exists in this taxonomy.', data: { term_id: t.id }, additional_data: [t.id, t.id] });

    const b = await create('/categories', { name: 'Other' });
    const clash = await s.api(`/categories/${b.id}`, { method: 'POST', as: 'admin', body: { slug: 'dup' } });
    expect([clash.status, clash.body.code]).toEqual([400, 'duplicate_term_slug']);
  });

  it('validates: missing name, empty description, unknown parent, unknown ID, a tag ID', async () => {
    const missing = await s.api('/categories', { method: 'POST', as: 'admin', body: {} });
    expect([missing.body.code, missing.body.data.params]).toEqual(['rest_missing_callback_param', ['name']]);
    expect(Object.keys((await s.api('/categories', { method: 'POST', as: 'admin', body: { name: 'X', description: '' } })).body.data.params)).toEqual(['description']);
    expect(Object.keys((await s.api('/categories', { method: 'POST', as: 'admin', body: { name: 'X', parent: 999999 } })).body.data.params)).toEqual(['parent']);
    expect((await s.api('/categories/999999')).status).toBe(400);
    const tag = await create('/tags', { name: 'not-a-category' });
    expect((await s.api(`/categories/${tag.id}`)).status).toBe(400);
    for (const parent of [1, 0, 'x']) {
      const onTag = await s.api('/tags', { method: 'POST', as: 'admin', body: { name: 'child-tag', parent } });
      expect([onTag.status, onTag.body.code, onTag.body.message], String(parent)).toEqual([400, 'rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.']);
      const update = await s.api(`/tags/${tag.id}`, { method: 'PATCH', as: 'admin', body: { parent } });
      expect([update.status, update.body.code]).toEqual([400, 'rest_taxonomy_not_hierarchical']);
    }
  });

  it('term management rights: 401 anonymous, 403 subscriber and contributor; authors manage categories, not tags', async () => {
    expect((await s.api('/categories', { method: 'POST', body: { name: 'Anon' } })).status).toBe(401);
    expect((await s.api('/categories', { method: 'POST', as: 'subscriber', body: { name: 'Sub' } })).status).toBe(403);
    expect((await s.api('/categories', { method: 'POST', as: 'contributor', body: { name: 'Contrib' } })).status).toBe(403);
    expect((await s.api('/categories', { method: 'POST', as: 'author', body: { name: 'Authored' } })).status).toBe(201);
    expect((await s.api('/tags', { method: 'POST', as: 'author', body: { name: 'authored-tag' } })).status).toBe(403);
    expect((await s.api('/tags', { method: 'POST', as: 'editor', body: { name: 'edited-tag' } })).status).toBe(201);
  });
});

describe('GET /categories and /tags', () => {
  const id: Record<string, number> = {};
  beforeAll(async () => {
    await s.reset();
    id.music = (await create('/categories', { name: 'Music' })).id;
    id.jazz = (await create('/categories', { name: 'Jazz', parent: id.music })).id;
    id.unused = (await create('/categories', { name: 'Unused' })).id;
    id.art = (await create('/categories', { name: 'Art', slug: 'fine-art' })).id;
    id.outdoor = (await create('/tags', { name: 'outdoor' })).id;
    id.free = (await create('/tags', { name: 'free' })).id;
    const e = await create('/events', { title: 'Termed', start_date: '2026-12-05 10:00', end_date: '2026-12-05 11:00', categories: [id.jazz, id.art], tags: [id.outdoor] });
    id.event = e.id;
    await create('/events', { title: 'Drafted', start_date: '2026-12-05 10:00', end_date: '2026-12-05 11:00', categories: [id.music], tags: [id.free], status: 'draft' });
  });

  it('lists used terms by name with the terms envelope order', async () => {
    const r = await s.api('/categories');
    expect(Object.keys(r.body)).toEqual(['rest_url', 'total', 'total_pages', 'categories']);
    expect(names(r.body.categories)).toEqual(['Art', 'Jazz']);
    expect(r.body.categories[0]).not.toHaveProperty('_links');
    expect(r.headers.get('x-tec-total')).toBe('2');
    expect(names((await s.api('/categories?hide_empty=false')).body.categories)).toEqual(['Art', 'Jazz', 'Music', 'Unused']);
    expect(names((await s.api('/tags')).body.tags)).toEqual(['outdoor']);
    expect((await s.api('/tags?hide_empty=maybe')).status).toBe(400);
  });

  it('pages: past the end is 200 with an empty list', async () => {
    const p = await s.api('/categories?hide_empty=0&per_page=3&page=2');
    expect([names(p.body.categories), p.body.total, p.body.total_pages]).toEqual([['Unused'], 4, 2]);
    expect(p.body.previous_rest_url).toBe(`${s.base}/wp-json/cal/events/v1/categories/?per_page=3&hide_empty=0`);
    const past = await s.api('/categories?page=99');
    expect([past.status, past.body.categories, past.body.total]).toEqual([200, [], 2]);
    expect(past.body.previous_rest_url).toBe(`${s.base}/wp-json/cal/events/v1/categories/?page=98`);
    expect(past.headers.get('x-tec-total')).toBe('2');
    for (const q of ['per_page=0', 'per_page=abc', 'page=0']) expect((await s.api(`/tags?${q}`)).status, q).toBe(400);
  });

  it('filters: search, include/exclude, order/orderby, parent, event/post, slug', async () => {
    const all = '&hide_empty=false';
    expect(names((await s.api(`/categories?search=ART${all}`)).body.categories)).toEqual(['Art']);
    expect(names((await s.api(`/categories?search=fine${all}`)).body.categories)).toEqual(['Art']);
    expect(names((await s.api(`/categories?include=${id.music},${id.unused}${all}`)).body.categories)).toEqual(['Music', 'Unused']);
    expect(names((await s.api(`/categories?exclude[]=${id.music}${all}`)).body.categories)).toEqual(['Art', 'Jazz', 'Unused']);
    expect((await s.api('/categories?include=999999')).status).toBe(400);
    expect(names((await s.api(`/categories?order=DESC${all}`)).body.categories)).toEqual(['Unused', 'Music', 'Jazz', 'Art']);
    expect(names((await s.api(`/categories?orderby=slug${all}`)).body.categories)).toEqual(['Art', 'Jazz', 'Music', 'Unused']);
    expect(names((await s.api(`/categories?orderby=id&order=asc${all}`)).body.categories)).toEqual(['Music', 'Jazz', 'Unused', 'Art']);
    expect((await s.api('/categories?order=')).status).toBe(400);
    expect(names((await s.api(`/categories?parent=${id.music}${all}`)).body.categories)).toEqual(['Jazz']);
    for (const q of ['parent=0', 'parent=999999', 'parent=']) expect((await s.api(`/categories?${q}`)).status, q).toBe(400);
    expect(names((await s.api(`/categories?event=${id.event}`)).body.categories)).toEqual(['Art', 'Jazz']);
    expect(names((await s.api(`/tags?post=${id.event}`)).body.tags)).toEqual(['outdoor']);
    expect((await s.api('/tags?event=999999')).status).toBe(400);
    expect(names((await s.api(`/categories?slug=fine-art`)).body.categories)).toEqual(['Art']);
    expect((await s.api('/categories?slug=')).status).toBe(400);
  });

  it('counts published events only', async () => {
    const music = await s.api(`/categories/${id.music}`);
    expect(music.body.count).toBe(0);
    expect((await s.api(`/tags/${id.outdoor}`)).body.count).toBe(1);
  });

  it('deleting a tag removes it from its events', async () => {
    await s.api(`/tags/${id.outdoor}`, { method: 'DELETE', as: 'admin' });
    expect((await s.api(`/events/${id.event}`)).body.tags).toEqual([]);
  });
});
