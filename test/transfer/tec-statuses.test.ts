/**
 * Import from a generated The Events Calendar site holding every status: a cal-events "origin"
 * seeded with published, future, draft, pending, private, password-protected and trashed events is
 * served as WordPress serves it (`tribe/events/v1`, drafts and pending events with an empty `slug`
 * and GMT dates of `0000-00-00 00:00:00`, `?post_type=tribe_events&p=ID` URLs, the REST root
 * found from the site root's `Link: <…/wp-json/>; rel="https://api.w.org/"` header), imported with
 * `--from http://site/`, and every record compared with the origin through the REST API.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createContext } from '../../src/services/context.ts';
import { defaultSiteSettings } from '../../src/server/config.ts';
import { importFromSource, reasonOf, type Summary } from '../../src/transfer/import.ts';
import { createProgress } from '../../src/transfer/progress.ts';
import { readSample } from '../helpers/samples.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

interface Recorded {
  response: { body: Record<string, unknown> };
}
const PROTECTED_SAMPLE = readSample<Recorded>('source/GET_wp-v2_tribe_events_id_context_edit_protected.json');
const DRAFT_SAMPLE = readSample<Recorded>('source/GET_tribe_events_id_draft_never_edited.json');

const ZERO = '0000-00-00 00:00:00';
const STATUSES = 'publish,future,draft,pending,private,trash';
const quiet = createProgress({ write: () => true }, true);

let origin: TestServer;
let target: TestServer;
let site: http.Server;
let siteBase = '';
/** `plain`: the site has no pretty permalinks (REST root `/?rest_route=/`). */
let plain = false;
const requested: string[] = [];

/** Our REST output → WordPress's: the tribe namespace and post type, unpublished posts without slug or GMT date. */
function wordpressify(text: string, originBase: string): string {
  const body = text
    .split(originBase).join(siteBase)
    .split('cal/events/v1').join('tribe/events/v1')
    .split('post_type=cal_events').join('post_type=tribe_events')
    .split('cal_events_cat').join('tribe_events_cat');
  const json = JSON.parse(body);
  const fix = (e: Record<string, unknown>) => {
    if (e && typeof e === 'object' && 'start_date' in e && (e.status === 'draft' || e.status === 'pending')) {
      // Never published: no slug, no GMT dates (WordPress fills post_modified_gmt at the next save).
      e.slug = '';
      e.date_utc = ZERO;
      e.modified_utc = ZERO;
      // esc_html() of the event's own `?post_type=…&p=ID` link, shown when no website was stored.
      if (typeof e.website === 'string') e.website = e.website.replace(/&/g, '&#038;');
    }
  };
  if (Array.isArray(json?.events)) json.events.forEach(fix);
  else fix(json);
  return JSON.stringify(json);
}

async function seed() {
  const venue = (await origin.create('/venues', { venue: 'Salle Pleyel', city: 'Paris' })).id as number;
  const cat = (await origin.create('/categories', { name: 'Concerts' })).id as number;
  const base = { start_date: '2027-02-01 19:00', end_date: '2027-02-01 21:00', venue, categories: [cat] };
  await origin.create('/events', { ...base, title: 'Published one', cost: '€10 – €20' });
  await origin.create('/events', { ...base, title: 'Future post', date: '2031-01-01 10:00:00' });
  await origin.create('/events', { ...base, title: 'A draft', status: 'draft' });
  await origin.create('/events', { ...base, title: 'Another draft', status: 'draft' });
  await origin.create('/events', { ...base, title: 'A draft', status: 'pending' });
  await origin.create('/events', { title: 'Pending by a contributor', start_date: '2027-03-01 10:00', end_date: '2027-03-01 11:00' }, 'contributor');
  await origin.create('/events', { ...base, title: 'Private one', status: 'private', description: 'Members only' });
  const locked = await origin.create('/events', { ...base, title: 'Protected one', description: '<p>Secret words</p>', excerpt: 'Secret' });
  await origin.db.prisma.event.update({ where: { id: locked.id }, data: { password: 'sesame' } });
  const trashed = await origin.create('/events', { ...base, title: 'Trashed one' });
  expect((await origin.api(`/events/${trashed.id}`, { method: 'DELETE', as: 'admin' })).status).toBe(200);
  const draftTrashed = await origin.create('/events', { ...base, title: 'Trashed draft', status: 'draft' });
  expect((await origin.api(`/events/${draftTrashed.id}`, { method: 'DELETE', as: 'admin' })).status).toBe(200);
}

beforeAll(async () => {
  // The site's zone is not UTC, so the GMT dates WordPress leaves unset must be computed in it.
  origin = await startTestServer({ now: null, env: { CAL_TIMEZONE: 'America/New_York' } });
  target = await startTestServer({ now: null, env: { CAL_TIMEZONE: 'America/New_York' } });
  await seed();
  site = http.createServer(async (req, res) => {
    requested.push(req.url!);
    const url = new URL(req.url!, 'http://site');
    const route = url.pathname.startsWith('/wp-json/') ? url.pathname.slice('/wp-json'.length) : url.searchParams.get('rest_route');
    const root = plain ? `${siteBase}/?rest_route=/` : `${siteBase}/wp-json/`;
    if (!route) {
      // The home page: WordPress names its REST root in a Link header (and in the HTML head).
      res.writeHead(200, { 'Content-Type': 'text/html; charset=UTF-8', Link: `<${root}>; rel="https://api.w.org/"` });
      res.end('<html><head><link rel="https://api.w.org/" href="' + root + '"></head><body>Home</body></html>');
      return;
    }
    if (plain && url.pathname.startsWith('/wp-json/')) {
      res.writeHead(404, { 'Content-Type': 'text/html' });
      res.end('<html>Not Found</html>');
      return;
    }
    url.searchParams.delete('rest_route');
    const path = route.replace(/^\/tribe\/events\/v1/, '/cal/events/v1').replace(/\/$/, '') || '/';
    const query = url.searchParams.toString();
    const upstream = await fetch(`${origin.base}/wp-json${path}${query ? `?${query}` : ''}`, {
      headers: req.headers.authorization ? { Authorization: req.headers.authorization } : {},
    });
    let text = await upstream.text();
    let status = upstream.status;
    if (path === '/' && upstream.ok) {
      // The index names every namespace the site serves; TEC's is tribe/events/v1.
      const index = JSON.parse(text);
      index.namespaces = ['oembed/1.0', 'tribe/events/v1', 'wp/v2'];
      text = JSON.stringify(index);
    } else if (/^\/wp\/v2\/tribe_events(\/\d+)?$/.test(path)) {
      // WordPress's own REST API, in the edit context: the recorded answer
      // (GET_wp-v2_tribe_events_id_context_edit_protected) with each event's ID, status and password.
      const edit = (e: { id: number; status: string; password: string; title: string }) => ({
        ...PROTECTED_SAMPLE.response.body,
        id: e.id,
        status: e.status,
        password: e.password,
        title: { raw: e.title, rendered: e.title },
      });
      const rows = await origin.db.prisma.event.findMany({ select: { id: true, status: true, password: true, title: true }, orderBy: { id: 'asc' } });
      const one = /\/(\d+)$/.exec(path);
      const fields = url.searchParams.get('_fields')?.split(',');
      const only = (o: Record<string, unknown>) => (fields ? Object.fromEntries(fields.map((f) => [f, o[f]])) : o);
      if (one) {
        const row = rows.find((r) => r.id === Number(one[1]));
        text = JSON.stringify(row ? only(edit(row)) : { code: 'rest_post_invalid_id' });
        status = row ? 200 : 404;
      } else {
        text = JSON.stringify(rows.map((r) => only(edit(r))));
        status = 200;
      }
    } else if (path === '/wp/v2/users') {
      // WordPress names each author's login (context=edit): the import gives their records to the same login here.
      const users = await origin.db.prisma.user.findMany({ select: { id: true, login: true }, orderBy: { id: 'asc' } });
      text = JSON.stringify(users.map((u) => ({ id: u.id, username: u.login, slug: u.login })));
      status = 200;
    } else if ((upstream.headers.get('content-type') ?? '').includes('json')) {
      text = wordpressify(text, origin.base);
    }
    const headers: Record<string, string> = { 'Content-Type': 'application/json; charset=UTF-8' };
    for (const h of ['x-wp-total', 'x-wp-totalpages']) {
      const v = upstream.headers.get(h);
      if (v) headers[h] = v;
    }
    res.writeHead(status, headers);
    res.end(text);
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  siteBase = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  site?.closeAllConnections?.();
  site?.close();
  await origin?.close();
  await target?.close();
});

const ctxOf = (s: TestServer) => createContext({ prisma: s.db.prisma, settings: defaultSiteSettings, viewer: { id: 0, login: 'cli', role: 'ADMINISTRATOR' } });
const importSite = (from: string) => importFromSource(ctxOf(target), { from, login: 'admin', password: 'password-admin' }, quiet);

/** What the REST API says of every event to an administrator (host stripped). */
async function events(s: TestServer) {
  const strip = (text: string) => JSON.parse(JSON.stringify(JSON.parse(text)).split(s.base).join('HOST'));
  const ids = (await s.db.prisma.event.findMany({ select: { id: true }, orderBy: { id: 'asc' } })).map((e) => e.id);
  const singles: Record<number, unknown> = {};
  for (const id of ids) singles[id] = strip((await s.api(`/events/${id}?context=edit`, { as: 'admin' })).text);
  const list = strip((await s.api(`/events?per_page=50&status=${STATUSES}&start_date=1900-01-01&end_date=2999-01-01&context=edit`, { as: 'admin' })).text);
  const venues = strip((await s.api(`/venues?per_page=50&status=${STATUSES}`, { as: 'admin' })).text);
  return { singles, list, venues };
}

describe('import from a WordPress site with every status', { timeout: 120_000 }, () => {
  let summary: Summary;

  it('finds the REST root from the site root and imports every event, drafts and pending ones included', async () => {
    summary = await importSite(`${siteBase}/`);
    expect(summary.failures).toEqual([]);
    expect(summary.kinds.events.created).toBe(10);
    expect(requested.some((u) => u.startsWith('/wp-json/tribe/events/v1/events?'))).toBe(true);
  });

  it('every record compares equal through the REST API', async () => {
    const ours = await events(target);
    const theirs = await events(origin);
    expect(Object.keys(ours.singles)).toEqual(Object.keys(theirs.singles));
    // A draft never edited since it was created answers modified_utc 0000-00-00 00:00:00 in WordPress
    // (the site serves it so): kept so by the import, where the origin, a cal-events, has a time.
    const asWordPress = (e: Record<string, any>) => (e.status === 'draft' || e.status === 'pending' ? { ...e, modified_utc: ZERO } : e);
    for (const [id, theirsOne] of Object.entries(theirs.singles) as [string, Record<string, any>][]) {
      // The protected event stays protected (its password came through wp/v2): "Protected: " JSON-LD name and all.
      expect(ours.singles[Number(id)], `event ${id}`).toEqual(asWordPress(theirsOne));
    }
    expect(ours.list).toEqual({ ...theirs.list, events: theirs.list.events.map(asWordPress) });
    expect(ours.venues).toEqual(theirs.venues);
  });

  it('a protected event keeps its password (read from wp/v2 in the edit context), as the recorded answer shows it', async () => {
    expect(PROTECTED_SAMPLE.response.body).toMatchObject({ password: 'tecbench-secret', content: { protected: true } });
    expect(requested.some((u) => u.startsWith('/wp-json/wp/v2/tribe_events?') && u.includes('context=edit'))).toBe(true);
    const row = await target.db.prisma.event.findFirstOrThrow({ where: { title: 'Protected one' }, select: { id: true, password: true } });
    expect(row.password).toBe('sesame');
    const closed = await target.api(`/events/${row.id}`);
    expect([closed.status, closed.body.code]).toEqual([403, 'event-password-protected']);
    const open = await target.api(`/events/${row.id}?password=sesame`);
    expect(open.status).toBe(200);
    expect(open.body.description).toContain('Secret words');
    expect(open.body.json_ld.name).toBe('Protected: Protected one');
  });

  it('a draft never edited keeps modified_utc 0000-00-00 00:00:00, as the recorded answer shows it, until it is edited here', async () => {
    const recorded = DRAFT_SAMPLE.response.body;
    expect(recorded).toMatchObject({ status: 'draft', date_utc: ZERO, modified_utc: ZERO, slug: '' });
    const draft = await target.db.prisma.event.findFirstOrThrow({ where: { title: 'Another draft' }, select: { id: true } });
    const answer = (await target.api(`/events/${draft.id}?context=edit`, { as: 'admin' })).body;
    const shape = (e: Record<string, unknown>) => ({ status: e.status, date_utc: e.date_utc, modified_utc: e.modified_utc, slug: e.slug, modified: /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/.test(String(e.modified)) });
    expect(shape(answer)).toEqual(shape(recorded));
    expect(answer.modified).not.toBe(ZERO);
    const gql = await target.graphql(`query($id: ID) { event(id: $id) { editedDateUtc modifiedDateUtc } }`, { id: draft.id });
    expect(gql.data.event.editedDateUtc).toBeNull();
    expect(gql.data.event.modifiedDateUtc).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect((await target.api(`/events/${draft.id}`, { method: 'POST', as: 'admin', body: { title: 'Another draft, edited' } })).status).toBe(200);
    const edited = (await target.api(`/events/${draft.id}?context=edit`, { as: 'admin' })).body;
    expect(edited.modified_utc).not.toBe(ZERO);
    // Put back, so the next runs find the source's record unchanged.
    await target.db.prisma.event.update({ where: { id: draft.id }, data: { title: 'Another draft', modifiedUtc: null } });
  });

  it('drafts keep no slug, as in WordPress', async () => {
    const drafts = await target.db.prisma.event.findMany({ where: { status: { in: ['draft', 'pending'] } }, select: { slug: true, dateUtc: true } });
    expect(drafts.length).toBe(4);
    for (const d of drafts) expect(d).toEqual({ slug: null, dateUtc: null });
  });

  it('a second run finds everything unchanged', async () => {
    const again = await importSite(`${siteBase}/`);
    expect(again.failures).toEqual([]);
    expect(again.kinds.events).toMatchObject({ created: 0, updated: 0, unchanged: 10, failed: 0 });
  });

  it('finds the REST root of a site without pretty permalinks (?rest_route=)', async () => {
    plain = true;
    requested.length = 0;
    try {
      const again = await importSite(siteBase);
      expect(again.failures).toEqual([]);
      expect(again.kinds.events.unchanged).toBe(10);
      expect(requested.some((u) => u.startsWith('/?rest_route=%2Ftribe%2Fevents%2Fv1%2Fevents') || u.startsWith('/?rest_route=/tribe/events/v1/events'))).toBe(true);
    } finally {
      plain = false;
    }
  });
});

describe('failure reasons', () => {
  it('a database error gets its cause, never an empty reason', async () => {
    // Prisma's messages open with a blank line: the first line alone was empty (`failed: event 1112:`).
    const error = await target.db.prisma.venue.update({ where: { id: 999_999 }, data: { city: 'x' } }).catch((e: unknown) => e);
    expect((error as Error).message.split('\n')[0]).toBe('');
    const reason = reasonOf(error);
    expect(reason).toMatch(/\S/);
    expect(reason).not.toMatch(/^Invalid `/);
    for (const thrown of [new Error(''), new Error('\n\n'), '', null, undefined, { code: 'E42' }, 42]) expect(reasonOf(thrown), String(thrown)).toMatch(/\S/);
    expect(reasonOf(new Error('\nfirst line\nsecond'))).toBe('first line');
  });
});
