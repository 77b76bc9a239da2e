/**
 * Duplicate detection of venues and organizers ignores case, and terms listed by
 * name sort ignoring case (ties by ID), as MySQL's case-insensitive collation does.
 */
import { describe, expect, it } from 'vitest';
import { useTestServer, type TestServer } from '../helpers/server.ts';

describe('case-insensitive duplicate detection', () => {
  let server: TestServer;
  useTestServer((started) => (server = started));

  it('reuses a venue whose name and description match ignoring case, also with address fields in lower case', async () => {
    const first = await server.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'A venue X', description: 'A venue description', city: 'Boston', zip: 'AB1' } });
    expect(first.status, first.text).toBe(201);
    const again = await server.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'a venue x', description: 'a venue description' } });
    expect(again.body.id).toBe(first.body.id);
    const subset = await server.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'a venue x', description: 'a venue description', city: 'boston' } });
    expect(subset.body.id).toBe(first.body.id);
    const other = await server.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'a venue x', description: 'another description' } });
    expect(other.body.id).not.toBe(first.body.id);
  });

  it('compares names literally otherwise: `_` and `%` are no wildcards', async () => {
    const first = await server.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'Hall_1 100%' } });
    expect(first.status, first.text).toBe(201);
    const wild = await server.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'HallX1 100 percent' } });
    expect([wild.status, wild.body.id === first.body.id]).toEqual([201, false]);
    const same = await server.api('/venues', { method: 'POST', as: 'admin', body: { venue: 'HALL_1 100%' } });
    expect(same.body.id).toBe(first.body.id);
    const org = await server.api('/organizers', { method: 'POST', as: 'admin', body: { organizer: 'O_rg' } });
    const orgWild = await server.api('/organizers', { method: 'POST', as: 'admin', body: { organizer: 'OXrg' } });
    expect(orgWild.body.id).not.toBe(org.body.id);
  });

  it('reuses an organizer the same way', async () => {
    const first = await server.api('/organizers', { method: 'POST', as: 'admin', body: { organizer: 'An Organizer', description: 'Some Text' } });
    expect(first.status, first.text).toBe(201);
    const again = await server.api('/organizers', { method: 'POST', as: 'admin', body: { organizer: 'AN ORGANIZER', description: 'some text' } });
    expect(again.body.id).toBe(first.body.id);
  });

  it('lists terms by name ignoring case, ties by ID, in both directions and across pages', async () => {
    // Term names are unique ignoring case within a taxonomy (term_exists), so tags show the order
    // and categories under different parents the ties. PostgreSQL's C collation (PGlite's) would
    // put every capital first: Alpha, Delta, beta, gamma.
    for (const [name, slug] of [['beta', 'ci-b'], ['Alpha', 'ci-a'], ['gamma', 'ci-g'], ['Delta', 'ci-d']]) {
      const r = await server.api('/tags', { method: 'POST', as: 'admin', body: { name, slug } });
      expect(r.status, r.text).toBe(201);
    }
    const tags = async (q: string) => (await server.api(`/tags?hide_empty=false&search=ci-${q}`)).body.tags.map((t: { name: string }) => t.name);
    expect(await tags('')).toEqual(['Alpha', 'beta', 'Delta', 'gamma']);
    expect(await tags('&orderby=name&order=desc')).toEqual(['gamma', 'Delta', 'beta', 'Alpha']);
    expect(await tags('&per_page=3&page=2')).toEqual(['gamma']);
    expect(await tags('&orderby=id')).toEqual(['beta', 'Alpha', 'gamma', 'Delta']);

    const slugs: string[] = [];
    const category = async (name: string, slug: string, parent?: number) => {
      const r = await server.api('/categories', { method: 'POST', as: 'admin', body: { name, slug, parent } });
      expect(r.status, r.text).toBe(201);
      return r.body.id as number;
    };
    const p1 = await category('zz parent one', 'ci-p1');
    const p2 = await category('zz parent two', 'ci-p2');
    // Created in this order: IDs ascend b1 < a1 < a2 < b2.
    for (const [name, slug, parent] of [['beta', 'ci-b1', p1], ['Alpha', 'ci-a1', p1], ['alpha', 'ci-a2', p2], ['Beta', 'ci-b2', p2]] as const) {
      await category(name, slug, parent);
      slugs.push(slug);
    }
    const cats = async (q: string) =>
      (await server.api(`/categories?hide_empty=false&search=ci-${q}`)).body.categories.map((t: { slug: string }) => t.slug).filter((x: string) => slugs.includes(x));
    expect(await cats('')).toEqual(['ci-a1', 'ci-a2', 'ci-b1', 'ci-b2']);
    expect(await cats('&orderby=name&order=asc')).toEqual(['ci-a1', 'ci-a2', 'ci-b1', 'ci-b2']);
    expect(await cats('&orderby=name&order=desc')).toEqual(['ci-b1', 'ci-b2', 'ci-a1', 'ci-a2']);
    const page2 = await server.api('/categories?hide_empty=false&search=ci-&per_page=2&page=2');
    expect(page2.body.categories.map((t: { slug: string }) => t.slug)).toEqual(['ci-b1', 'ci-b2']);
  });
});
