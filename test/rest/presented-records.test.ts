import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testBackend } from '../helpers/database.ts';
import { useDeafServerPair } from '../helpers/server-pair.ts';
import { ADMIN_LOGIN, startTestServer, type TestServer } from '../helpers/server.ts';

// Presented records (rest-facade/presenters/presented.ts): an anonymous `GET /events` page takes the
// REST form of events an earlier page presented, with the surrogate keys they were read with. The
// response cache and byte cache are off here (CAL_CACHE_TTL_S=0), so every read reaches the facade.
// Checked: a page from kept records is byte for byte the page presented from scratch, with the same
// headers and keys, under every query shape; every kind of write is seen by the next page; signed-in
// reads never use it; and across two processes on PostgreSQL the shared generation keeps it exact.

const NS = '/wp-json/cal/events/v1';

interface Raw {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** node:http: no `Accept-Encoding` added, nothing decompressed. */
function raw(base: string, path: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = http.request(base + path, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('latin1') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

const keySet = (r: Raw) => String(r.headers.xkey ?? '').split(' ').filter(Boolean).sort();
const meaning = (r: Raw) => {
  const { date: _d, connection: _c, 'keep-alive': _k, ...rest } = r.headers;
  return rest;
};

describe('presented records of anonymous event lists', { timeout: 120_000 }, () => {
  let s: TestServer;
  let venueId = 0;
  let tagId = 0;
  let firstId = 0;

  beforeAll(async () => {
    s = await startTestServer({ env: { CAL_CACHE_TTL_S: '0' } });
    for (let i = 1; i <= 12; i++) {
      const day = String(i).padStart(2, '0');
      const created = await s.create('/events', {
        title: i === 3 ? 'Caf\u00e9 / Kaffee \u2615 night' : `Event ${i}`,
        description: `<p>Description of event ${i}, with a <a href="https://example.org/x">link</a>.</p>`,
        start_date: `2026-12-${day} 18:00:00`,
        end_date: `2026-12-${day} 20:00:00`,
        status: 'publish',
        categories: i % 2 ? ['Music', 'Jazz'] : ['Theatre'],
        tags: i % 3 ? ['evening'] : ['family', 'free'],
        venue: { venue: i % 2 ? 'Town Hall' : 'Harbour Stage', city: 'Lyon' },
        organizer: [{ organizer: i % 4 ? 'Arts Club' : 'City Council' }],
      });
      // Password protection has no REST or GraphQL input (WordPress sets it in its editor).
      if (i === 5) await s.db.prisma.event.update({ where: { id: created.id }, data: { password: 'secret' } });
      if (i === 1) {
        firstId = created.id;
        venueId = created.venue.id;
        tagId = created.tags[0].id;
      }
    }
  });
  afterAll(() => s?.close());
  beforeAll(() => s.cache.clear()); // the password was set behind the service's back

  const QUERIES = [
    '/events?per_page=50',
    '/events?per_page=4&page=2',
    '/events?per_page=4&page=3',
    '/events?categories=music',
    '/events?tags=free&per_page=10',
    '/events?venue=VENUE',
    '/events?search=Caf%C3%A9',
    '/events?per_page=5&_fields=events.id,events.title,events.venue.venue,events.categories.name,total',
    '/events?per_page=2&_pretty=1',
    '/events?per_page=2&_envelope=1',
    '/events?per_page=2&_jsonp=cb',
    '/events?start_date=2026-12-05&end_date=2026-12-09',
  ];

  it('a page from kept records is the page presented from scratch: body, headers, surrogate keys', async () => {
    const presented = s.presented!;
    expect(presented).not.toBeNull();
    for (const lang of ['', '/fr']) {
      for (const q of QUERIES) {
        const path = `${lang}${NS}${q.replace('VENUE', String(venueId))}`;
        s.cache.clear(); // a new generation: this page is presented from scratch and kept
        const before = { hits: presented.hits, misses: presented.misses };
        const fresh = await raw(s.base, path);
        expect(fresh.status, path).toBe(200);
        expect(presented.hits, path).toBe(before.hits); // nothing kept yet under this generation
        const kept = await raw(s.base, path);
        const listed = (JSON.parse(fresh.body.replace(/^\/\*\*\/cb\(|\)$/g, '')) as { events?: unknown[]; body?: { events: unknown[] } });
        const count = (listed.events ?? listed.body?.events ?? []).length;
        expect(count, path).toBeGreaterThan(0);
        expect(presented.hits - before.hits, path).toBe(count); // every event of the second page was kept
        expect(kept.body, path).toBe(fresh.body);
        expect(meaning(kept), path).toEqual(meaning(fresh));
        expect(keySet(kept), path).toEqual(keySet(fresh));
      }
    }
  });

  it('a page mixing kept and new events: the kept ones taken, the others fetched, the page unchanged', async () => {
    s.cache.clear();
    const presented = s.presented!;
    await raw(s.base, `${NS}/events?per_page=4`); // events 1-4 kept
    const before = { hits: presented.hits, misses: presented.misses };
    const mixed = await raw(s.base, `${NS}/events?per_page=8`);
    expect([presented.hits - before.hits, presented.misses - before.misses]).toEqual([4, 4]);
    s.cache.clear();
    const scratch = await raw(s.base, `${NS}/events?per_page=8`);
    expect(mixed.body).toBe(scratch.body);
    expect(keySet(mixed)).toEqual(keySet(scratch));
    // Each kept record carries its own keys, not its whole first page's: a page of one event names
    // only that event's venue, organizer and terms.
    const one = await raw(s.base, `${NS}/events?per_page=1`);
    const event = JSON.parse(one.body).events[0];
    const records = keySet(one).filter((k) => /^(venue|organizer)-/.test(k));
    expect(records.sort()).toEqual([`venue-${event.venue.id}`, ...event.organizer.map((o: { id: number }) => `organizer-${o.id}`)].sort());
  });

  it('the password-protected event stays redacted for anonymous readers, and signed-in reads never use the kept records', async () => {
    const path = `${NS}/events?per_page=50`;
    await raw(s.base, path);
    const anonymous = JSON.parse((await raw(s.base, path)).body).events as { title: string; description: string }[];
    const locked = anonymous.find((e) => e.title === 'Event 5')!;
    expect(locked.description).toBe('');
    const presented = s.presented!;
    const before = { hits: presented.hits, misses: presented.misses };
    const admin = await s.api(`/events?per_page=50`, { as: 'admin' });
    expect(admin.status).toBe(200);
    expect([presented.hits, presented.misses]).toEqual([before.hits, before.misses]);
    expect((await s.api('/events?per_page=50&password=secret')).body.events.find((e: { title: string }) => e.title === 'Event 5').description).toContain('Description of event 5');
    expect([presented.hits, presented.misses]).toEqual([before.hits, before.misses]);
  });

  it('every kind of write is seen by the next page: event, venue, organizer, category, tag, deletion, creation', async () => {
    const path = `${NS}/events?per_page=50`;
    const page = async () => {
      await raw(s.base, path); // keeps whatever it presents
      return JSON.parse((await raw(s.base, path)).body).events as Record<string, any>[];
    };
    const first = () => page().then((events) => events.find((e) => e.id === firstId)!);
    await page();

    expect((await s.api(`/events/${firstId}`, { method: 'POST', as: 'admin', body: { title: 'Event 1 renamed' } })).status).toBe(200);
    expect((await first()).title).toBe('Event 1 renamed');

    expect((await s.api(`/venues/${venueId}`, { method: 'POST', as: 'admin', body: { venue: 'Town Hall (new wing)' } })).status).toBe(200);
    expect((await first()).venue.venue).toBe('Town Hall (new wing)');

    const organizerId = (await first()).organizer[0].id;
    const renamed = await s.graphql(`mutation($id: ID) { updateOrganizer(id: $id, input: { name: "Arts Club Lyon" }) { __typename } }`, { id: organizerId });
    expect(renamed.errors).toBeUndefined();
    expect((await first()).organizer[0].organizer).toBe('Arts Club Lyon');

    const music = (await first()).categories.find((c: { slug: string }) => c.slug === 'music');
    expect((await s.api(`/categories/${music.id}`, { method: 'POST', as: 'admin', body: { name: 'Live music' } })).status).toBe(200);
    expect((await first()).categories.find((c: { id: number }) => c.id === music.id).name).toBe('Live music');

    // A tag's count moves when another event takes it: every event showing the tag shows the new count.
    const countBefore = (await first()).tags.find((t: { id: number }) => t.id === tagId).count;
    const other = (await page()).find((e) => !e.tags.some((t: { id: number }) => t.id === tagId))!;
    expect((await s.api(`/events/${other.id}`, { method: 'POST', as: 'admin', body: { tags: [...other.tags.map((t: { id: number }) => t.id), tagId] } })).status).toBe(200);
    expect((await first()).tags.find((t: { id: number }) => t.id === tagId).count).toBe(countBefore + 1);

    expect((await s.api(`/events/${other.id}`, { method: 'DELETE', as: 'admin' })).status).toBe(200);
    expect((await page()).some((e) => e.id === other.id)).toBe(false);

    const created = await s.create('/events', { title: 'Late addition', start_date: '2026-12-01 08:00:00', end_date: '2026-12-01 09:00:00', status: 'publish' });
    expect((await page())[0].id).toBe(created.id);
  });
});

describe.runIf(testBackend === 'postgres')('presented records across two server processes on one PostgreSQL', { timeout: 600_000 }, () => {
  const password = 'presented-pass';
  const auth = `Basic ${Buffer.from(`${ADMIN_LOGIN}:${password}`).toString('base64')}`;
  // Response and byte caches off: the presented records alone must follow the shared generation.
  const pair = useDeafServerPair('presented', { CAL_ADMIN_LOGIN: ADMIN_LOGIN, CAL_ADMIN_PASSWORD: password, CAL_CACHE_TTL_S: '0' });

  const write = async (base: string, path: string, body: unknown, method = 'POST') => {
    const r = await fetch(base + path, { method, headers: { authorization: auth, 'content-type': 'application/json' }, body: JSON.stringify(body) });
    expect(r.status).toBeLessThan(300);
    return r.json();
  };
  const titles = async (base: string, path: string) => ((JSON.parse((await raw(base, path)).body).events as { title: string; venue: { venue?: string } }[]).map((e) => `${e.title} @ ${e.venue.venue ?? '-'}`));

  it("a page on B after a write acknowledged by A is fresh, though B's kept records were presented before it", async () => {
    const list = `${NS}/events?per_page=50&start_date=2030-01-01&end_date=2030-12-31`;
    const one = await write(pair.a.base, `${NS}/events`, { title: 'One', start_date: '2030-06-01 10:00:00', end_date: '2030-06-01 11:00:00', status: 'publish', venue: { venue: 'Hall' } });
    await titles(pair.b.base, list);
    expect(await titles(pair.b.base, list)).toEqual(['One @ Hall']);

    await write(pair.a.base, `${NS}/venues/${one.venue.id}`, { venue: 'Great Hall' });
    expect(await titles(pair.b.base, list)).toEqual(['One @ Great Hall']);

    await write(pair.a.base, '/graphql', { query: `mutation($id: ID) { updateEvent(id: $id, input: { title: "One renamed" }) { __typename } }`, variables: { id: one.id } });
    expect(await titles(pair.b.base, list)).toEqual(['One renamed @ Great Hall']);

    // And the other way round.
    await titles(pair.a.base, list);
    await write(pair.b.base, `${NS}/events/${one.id}`, { title: 'One again' });
    expect(await titles(pair.a.base, list)).toEqual(['One again @ Great Hall']);
  });
});
