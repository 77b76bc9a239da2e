/**
 * The published OpenAPI document against the live service. Every answer of this file (as of the
 * whole suite) is validated against the document by the test server's request hook
 * (helpers/openapi-check.ts); here, the request side: for each request, what the document says of
 * it (its parameters and body against the operation's schemas) is what the service does with it —
 * both accept or both refuse — in English and in a language variant; and the points where TEC's own
 * description was wrong are checked against the document and the answers.
 */
import SwaggerParser from '@apidevtools/swagger-parser';
import { beforeAll, describe, expect, it } from 'vitest';
import { LANGS } from '../../rest-facade/wp/types.ts';
import { requestProblems } from '../helpers/openapi-check.ts';
import { useTestServer, type TestRole, type TestServer } from '../helpers/server.ts';

let s: TestServer;
let doc: Record<string, any>;
const id: Record<string, number> = {};
const event = { start_date: '2026-12-05 19:00:00', end_date: '2026-12-05 22:00:00' };

useTestServer(async (server) => {
  s = server;
  id.venue = (await s.create('/venues', { venue: 'Blue Room' })).id;
  id.organizer = (await s.create('/organizers', { organizer: 'Ann' })).id;
  id.music = (await s.create('/categories', { name: 'Music' })).id;
  id.tag = (await s.create('/tags', { name: 'jazz' })).id;
  id.event = (await s.create('/events', { title: 'Alone', ...event })).id;
  id.withVenue = (await s.create('/events', { title: 'Placed', ...event, venue: id.venue, organizer: id.organizer, categories: [id.music] })).id;
  id.edited = (await s.create('/events', { title: 'Edited', ...event, venue: id.venue })).id;
});

beforeAll(async () => {
  doc = (await s.api('/openapi.json')).body;
});

interface Case {
  method?: string;
  path: string;
  body?: unknown;
  as?: TestRole;
}

/** Requests, valid and not, over every kind of parameter the document describes. */
const cases = (): Case[] => [
  { path: '/events?featured=1' },
  { path: '/events?featured=true' },
  { path: '/events?featured=yes' },
  { path: '/events?post_parent=0' },
  { path: `/events?post_parent=${id.event}` },
  { path: '/events?categories=music' },
  { path: `/events?categories[]=${id.music}&categories[]=music` },
  { path: '/events?per_page=0' },
  { path: '/events?per_page=abc' },
  { path: '/events?per_page=10&page=1' },
  { path: '/events?geoloc=1&geoloc_lat=40.7&geoloc_lng=-74' },
  { path: '/events?status=draft,publish', as: 'admin' },
  { path: '/events?status=bogus', as: 'admin' },
  { path: '/events?include=0' },
  { path: `/events?include=${id.event},${id.withVenue}` },
  { path: `/events?venue=${id.venue}` },
  { path: '/events?venue=x' },
  { path: '/events?strict_dates=' },
  { path: '/categories?parent=0' },
  { path: `/categories?parent=${id.music}` },
  { path: '/categories?hide_empty=0' },
  { path: '/categories?hide_empty=maybe' },
  { path: '/tags?include=a' },
  { path: `/venues?event=${id.withVenue}` },
  { path: '/venues?event=0' },
  { path: '/organizers?status=publish' },
  { method: 'POST', path: '/events', as: 'admin', body: { title: 'Nested', ...event, venue: { venue: 'Grand Hall' } } },
  { method: 'POST', path: '/events', as: 'admin', body: { title: 'Nested organizer', ...event, organizer: { organizer: 'Bob', email: 'bob@example.org' } } },
  { method: 'POST', path: '/events', as: 'admin', body: { title: 'Many', ...event, venue: [id.venue, { venue: 'Annex' }], organizer: [{ id: id.organizer }] } },
  { method: 'POST', path: '/events', as: 'admin', body: { title: 'Named terms', ...event, categories: ['Music', 'Theatre'], tags: ['jazz', id.tag] } },
  { method: 'POST', path: '/events', as: 'admin', body: { title: 'Flags', ...event, featured: 1, all_day: 'true', cost: ['5', 10] } },
  { method: 'POST', path: '/events', as: 'admin', body: { title: 'Bad venue', ...event, venue: { address: 'no name' } } },
  { method: 'POST', path: '/events', as: 'admin', body: { title: 'Bad flag', ...event, featured: 'yes' } },
  { method: 'POST', path: '/events', as: 'admin', body: { title: 'Bad cost', ...event, cost: { a: 1 } } },
  { method: 'POST', path: '/events', as: 'admin', body: { ...event } },
  { method: 'POST', path: '/events', as: 'admin', body: { title: '', ...event } },
  { method: 'POST', path: '/events', as: 'admin', body: { title: 'Bad status', ...event, status: 'gone' } },
  { method: 'POST', path: '/events', as: 'admin', body: { title: 'Bad author', ...event, author: 0 } },
  { method: 'POST', path: '/venues', as: 'admin', body: { venue: 'Site', website: 'https://example.org/', show_map: 'true' } },
  { method: 'POST', path: '/venues', as: 'admin', body: { venue: 'Bad site', website: 'not a url' } },
  { method: 'POST', path: '/venues', as: 'admin', body: { venue: 'Blank image', image: ' ' } },
  { method: 'POST', path: '/venues', as: 'admin', body: { venue: 'Map flag', show_map: true } },
  { method: 'POST', path: '/organizers', as: 'admin', body: { organizer: 'Carla', email: 'c@example.org' } },
  { method: 'POST', path: '/categories', as: 'admin', body: { name: 'Root', parent: 0 } },
  { method: 'POST', path: '/categories', as: 'admin', body: { name: 'Child', parent: id.music } },
  { method: 'POST', path: '/categories', as: 'admin', body: { name: 'Negative', parent: -1 } },
  { method: 'POST', path: '/tags', as: 'admin', body: { name: 'blues', slug: '' } },
  { method: 'PATCH', path: `/events/${id.edited}`, as: 'admin', body: { venue: '' } },
  { method: 'PUT', path: `/events/${id.edited}`, as: 'admin', body: { sticky: 'nope' } },
];

async function agree(prefix: string, c: Case) {
  const url = new URL(`${s.base}${prefix}/wp-json/cal/events/v1${c.path}`);
  const problems = requestProblems(doc, c.method ?? 'GET', url, c.body);
  expect(problems, c.path).not.toBeNull();
  const r = await s.request(`${prefix}/wp-json/cal/events/v1${c.path}`, { method: c.method, as: c.as, body: c.body });
  const accepted = r.status < 400;
  // The service refuses parameters with 400; any other status is about the records, not the request.
  expect([r.status < 400 || r.status === 400, `${c.method ?? 'GET'} ${c.path}`]).toEqual([true, `${c.method ?? 'GET'} ${c.path}`]);
  expect({ request: `${c.method ?? 'GET'} ${c.path} ${JSON.stringify(c.body ?? '')}`, documentAccepts: problems!.length === 0 }).toEqual({
    request: `${c.method ?? 'GET'} ${c.path} ${JSON.stringify(c.body ?? '')}`,
    documentAccepts: accepted,
  });
}

describe('the document accepts what the service accepts, and refuses what it refuses', () => {
  it('in English', async () => {
    for (const c of cases()) await agree('', c);
  });
  it('in a language variant', async () => {
    for (const c of cases().filter((x) => (x.method ?? 'GET') === 'GET')) await agree('/fr', c);
  });
});

describe('what TEC’s description had wrong, as the document now says it', () => {
  it('is valid OpenAPI 3.1, the same in every language but for its texts', async () => {
    await SwaggerParser.validate(structuredClone(doc) as never);
    const shape = (d: unknown): unknown => JSON.parse(JSON.stringify(d, (k, v) => (k === 'description' || k === 'servers' ? undefined : v)));
    for (const lang of LANGS.filter((l) => l !== 'en')) {
      const variant = await s.request(`/${lang}/wp-json/cal/events/v1/openapi.json`);
      expect(variant.status).toBe(200);
      expect(shape(variant.body)).toEqual(shape(doc));
    }
  });

  it('records: author as text, image false, details objects, venue [] when none, term urls an object', async () => {
    const alone = (await s.api(`/events/${id.event}`)).body;
    expect([typeof alone.author, alone.image, alone.venue, typeof alone.start_date_details, Array.isArray(alone.cost_details)]).toEqual(['string', false, [], 'object', false]);
    const placed = (await s.api(`/events/${id.withVenue}`)).body;
    expect([placed.venue.id, placed.categories[0].urls.self]).toEqual([id.venue, `${s.base}/wp-json/cal/events/v1/categories/${id.music}`]);
    const schemas = doc.components.schemas;
    expect(schemas.Event.properties.author.type).toBe('string');
    expect(schemas.Event.properties.image.oneOf).toEqual([{ const: false }, { $ref: '#/components/schemas/Image' }]);
    expect(schemas.Event.properties.start_date_details).toMatchObject({ $ref: '#/components/schemas/DateDetails' });
    expect(schemas.DateDetails.type).toBe('object');
    expect(schemas.CostDetails.type).toBe('object');
    expect(schemas.TermUrls.type).toBe('object');
    // One type per member: no `type: string` beside a `$ref` to an object.
    for (const kind of ['Venue', 'Organizer']) expect(schemas[kind].properties.image.type).toBeUndefined();
  });

  it('errors: params listed when missing, 404 past the last page, 410 deleting the trashed', async () => {
    const missing = await s.api('/events', { method: 'POST', as: 'admin', body: { title: 'No dates' } });
    expect([missing.status, missing.body.code, missing.body.data.params]).toEqual([400, 'rest_missing_callback_param', ['start_date', 'end_date']]);
    for (const list of ['/events', '/venues']) expect((await s.api(`${list}?page=999`)).status).toBe(404);
    const gone = (await s.create('/events', { title: 'Twice', ...event })).id;
    expect((await s.api(`/events/${gone}`, { method: 'DELETE', as: 'admin' })).status).toBe(200);
    expect((await s.api(`/events/${gone}`, { method: 'DELETE', as: 'admin' })).status).toBe(410);
    expect(Object.keys(doc.paths['/events/{id}'].delete.responses)).toContain('410');
    expect(Object.keys(doc.paths['/events'].get.responses)).toContain('404');
  });

  it('headers: X-TEC-Total and X-TEC-TotalPages on lists, as sent', async () => {
    for (const [path, op] of Object.entries<any>(doc.paths)) if (op.get?.operationId.startsWith('list')) expect([path, Object.keys(op.get.responses['200'].headers)]).toEqual([path, ['X-TEC-Total', 'X-TEC-TotalPages']]);
    const r = await s.api('/events');
    expect([r.headers.get('x-tec-total'), r.headers.get('x-tec-totalpages'), r.headers.get('x-wp-total'), r.headers.get('link')?.includes('rel="next"') ?? false]).toEqual([String(r.body.total), String(r.body.total_pages), null, false]);
  });

  it('parameters: typed defaults, no format "string", numeric coordinates, geoloc explained', () => {
    const query = (path: string, name: string) => doc.paths[path].get.parameters.find((p: any) => p.name === name).schema;
    expect([query('/events', 'per_page').default, query('/categories', 'hide_empty').default]).toEqual([10, true]);
    expect(JSON.stringify(doc)).not.toContain('"format":"string"');
    expect(query('/events', 'geoloc_lat').anyOf[0]).toEqual({ type: 'number' });
    expect(query('/events', 'geoloc').description).toContain('nothing on its own');
  });
});
