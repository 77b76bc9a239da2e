/** Every route × method of the namespace (contract §2), as an administrator, plus the methods no route serves. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

let s: TestServer;
const id: Record<string, number> = {};
beforeAll(async () => {
  s = await startTestServer();
  const post = async (path: string, body: Record<string, unknown>) => (await s.api(path, { method: 'POST', as: 'admin', body })).body.id as number;
  id.venue = await post('/venues', { venue: 'Matrix Hall' });
  id.organizer = await post('/organizers', { organizer: 'Matrix Org' });
  id.category = await post('/categories', { name: 'Matrix Cat' });
  id.tag = await post('/tags', { name: 'matrix-tag' });
  id.event = await post('/events', { title: 'Matrix Event', start_date: '2026-12-05 10:00', end_date: '2026-12-05 11:00', venue: id.venue, organizer: id.organizer });
});
afterAll(async () => {
  await s?.close();
});

const UPDATE = ['POST', 'PUT', 'PATCH'] as const;

describe('every route and method', () => {
  it('collections: GET lists, POST creates (201)', async () => {
    const bodies: Record<string, Record<string, unknown>> = {
      events: { title: 'Matrix 2', start_date: '2026-12-06', end_date: '2026-12-06' },
      venues: { venue: 'Matrix Hall 2' },
      organizers: { organizer: 'Matrix Org 2' },
      categories: { name: 'Matrix Cat 2' },
      tags: { name: 'matrix-tag-2' },
    };
    for (const [collection, body] of Object.entries(bodies)) {
      const list = await s.api(`/${collection}?hide_empty=0`);
      expect([list.status, Array.isArray(list.body[collection])], collection).toEqual([200, true]);
      const created = await s.api(`/${collection}`, { method: 'POST', as: 'admin', body });
      expect(created.status, `${collection} ${created.text}`).toBe(201);
      for (const method of ['PUT', 'PATCH', 'DELETE']) {
        const r = await s.api(`/${collection}`, { method, as: 'admin', body: {} });
        expect([r.status, r.body.code], `${method} /${collection}`).toEqual([404, 'rest_no_route']);
      }
    }
  });

  it('items by ID: GET, POST/PUT/PATCH, DELETE', async () => {
    const items: [string, number, Record<string, unknown>][] = [
      ['events', id.event, { excerpt: 'x' }],
      ['venues', id.venue, { city: 'x' }],
      ['organizers', id.organizer, { phone: 'x' }],
      ['categories', id.category, { description: 'x' }],
      ['tags', id.tag, { description: 'x' }],
    ];
    for (const [collection, itemId, body] of items) {
      const path = `/${collection}/${itemId}`;
      expect((await s.api(path)).status, `GET ${path}`).toBe(200);
      for (const method of UPDATE) expect((await s.api(path, { method, as: 'admin', body })).status, `${method} ${path}`).toBe(200);
    }
    for (const [collection, itemId] of items) {
      const path = `/${collection}/${itemId}`;
      const del = await s.api(path, { method: 'DELETE', as: 'admin' });
      expect(del.status, `DELETE ${path} ${del.text}`).toBe(200);
      expect(del.body.id).toBe(itemId);
    }
  });

  it('items by slug: GET, POST/PUT/PATCH, DELETE on events, venues, organizers; none on terms', async () => {
    const post = async (path: string, body: Record<string, unknown>) => (await s.api(path, { method: 'POST', as: 'admin', body })).body;
    const items: [string, string][] = [
      ['events', (await post('/events', { title: 'Slug Matrix', start_date: '2026-12-07', end_date: '2026-12-07' })).slug],
      ['venues', (await post('/venues', { venue: 'Slug Matrix Hall' })).slug],
      ['organizers', (await post('/organizers', { organizer: 'Slug Matrix Org' })).slug],
    ];
    for (const [collection, slug] of items) {
      const path = `/${collection}/by-slug/${slug}`;
      expect((await s.api(path)).status, `GET ${path}`).toBe(200);
      for (const method of UPDATE) expect((await s.api(path, { method, as: 'admin', body: { description: method } })).status, `${method} ${path}`).toBe(200);
      const del = await s.api(path, { method: 'DELETE', as: 'admin' });
      expect([del.status, del.body.status], `DELETE ${path}`).toEqual([200, 'trash']);
    }
    for (const collection of ['categories', 'tags']) expect((await s.api(`/${collection}/by-slug/x`)).body.code).toBe('rest_no_route');
  });

  it('OPTIONS lists each route’s methods in the index order; Allow follows the caller', async () => {
    const expectations: [string, string[]][] = [
      ['/events', ['GET', 'POST']],
      ['/events/1', ['GET', 'DELETE', 'POST', 'PUT', 'PATCH']],
      ['/events/by-slug/x', ['GET', 'DELETE', 'POST', 'PUT', 'PATCH']],
      ['/venues/1', ['GET', 'DELETE', 'POST', 'PUT', 'PATCH']],
      ['/organizers/by-slug/x', ['GET', 'DELETE', 'POST', 'PUT', 'PATCH']],
      ['/categories/1', ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']],
      ['/tags', ['GET', 'POST']],
    ];
    for (const [path, methods] of expectations) {
      const r = await s.api(path, { method: 'OPTIONS', as: 'admin' });
      expect([r.status, r.body.methods], path).toEqual([200, methods]);
      expect(r.headers.get('allow'), path).toBe(methods.join(', '));
    }
    expect((await s.api('/events/1', { method: 'OPTIONS', as: 'subscriber' })).headers.get('allow')).toBe('GET');
  });
});

describe('password-protected venues and organizers (§3.2, §4.7)', () => {
  it('are returned redacted without the password, in full with it; nested in events too', async () => {
    const post = async (path: string, body: Record<string, unknown>) => (await s.api(path, { method: 'POST', as: 'admin', body })).body;
    const venue = await post('/venues', { venue: 'Secret Hall', address: '1 Hidden Rd', phone: '555', show_map: 'true' });
    const org = await post('/organizers', { organizer: 'Secret Org', email: 'x@example.com' });
    const event = await post('/events', { title: 'Open Event', start_date: '2026-12-08', end_date: '2026-12-08', venue: venue.id, organizer: [org.id] });
    await s.db.prisma.venue.update({ where: { id: venue.id }, data: { password: 'pw' } });
    await s.db.prisma.organizer.update({ where: { id: org.id }, data: { password: 'pw' } });

    const locked = await s.api(`/venues/${venue.id}`);
    expect(locked.status).toBe(200);
    expect(locked.body).toMatchObject({ venue: 'Secret Hall', address: '', phone: '', show_map: null });
    expect(locked.body).not.toHaveProperty('json_ld');
    expect((await s.api(`/venues/${venue.id}?password=pw`)).body).toMatchObject({ address: '1 Hidden Rd', phone: '555', show_map: true });
    expect((await s.api(`/organizers/${org.id}`)).body).toMatchObject({ organizer: 'Secret Org', email: '' });
    expect((await s.api('/venues?search=secret')).body.venues[0].address).toBe('');

    const e = await s.api(`/events/${event.id}`);
    expect(e.status).toBe(200);
    expect(e.body.venue).toMatchObject({ venue: 'Secret Hall', address: '' });
    expect(e.body.organizer[0].email).toBe('');
    expect(e.body.json_ld).not.toHaveProperty('location');
  });
});
