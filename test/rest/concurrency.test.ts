/**
 * Every uniqueness rule of the API holds under concurrent writes, through
 * real parallel HTTP requests, and a clash is answered with the contract's error, never a 500.
 * - term names (§7.8): per taxonomy, and per parent for categories; one 201, the rest `term_exists`
 *   naming the winner (`data.term_id`, `additional_data`), also for terms created by name inside
 *   event writes (§7.4: exactly one term, every event linked to it);
 * - venues and organizers reused by name (§7.7): one record, every answer 201 with it;
 * - slugs of every kind (§7.5): N parallel writes wanting one slug get N distinct slugs, all 201.
 * On PostgreSQL the server's pool runs them really in parallel; the last block does the same across
 * two server processes on one database. PGlite (one connection) must give the same answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testBackend } from '../helpers/database.ts';
import { startServerProcess, type ServerProcess } from '../helpers/process.ts';
import { ADMIN_LOGIN, startTestServer, type TestServer } from '../helpers/server.ts';

const NS = '/wp-json/cal/events/v1';
const N = 10;

interface Reply {
  status: number;
  body: any;
}
/** POSTs (or another method) to a REST path as `auth`, answering status and parsed JSON. */
type Send = (path: string, body?: unknown, method?: string) => Promise<Reply>;

function sender(bases: string[], auth: string): Send {
  let next = 0;
  return async (path, body, method = body === undefined ? 'GET' : 'POST') => {
    const base = bases[next++ % bases.length]; // round robin over the servers
    const res = await fetch(`${base}${NS}${path}`, {
      method,
      headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed };
  };
}

/** `n` requests started together. */
const burst = (n: number, request: (i: number) => Promise<Reply>) => Promise.all(Array.from({ length: n }, (_, i) => request(i)));
const statuses = (replies: Reply[]) => replies.map((r) => r.status).sort();
const unique = <T>(values: T[]) => [...new Set(values)];
const eventBody = (title: string, extra: Record<string, unknown> = {}) => ({
  title,
  start_date: '2027-03-01 19:00',
  end_date: '2027-03-01 21:00',
  status: 'publish',
  ...extra,
});

/** Every check below, against the servers `target` names (one server, or several on one database). */
function uniquenessChecks(target: () => { bases: string[]; auth: string }) {
  let cached: Send | undefined;
  const send = () => (cached ??= sender(target().bases, target().auth));
  /** One 201, the others the contract's `term_exists` naming the created term (§7.8, §8.2). */
  const expectOneCreated = (replies: Reply[], message: string) => {
    const created = replies.filter((r) => r.status === 201);
    expect(statuses(replies), JSON.stringify(replies.filter((r) => r.status !== 201 && r.status !== 400))).toEqual([201, ...Array(replies.length - 1).fill(400)]);
    const id = created[0]!.body.id as number;
    for (const r of replies.filter((x) => x.status === 400)) {
      expect(r.body).toEqual({ code: 'term_exists', message, data: { status: 400, term_id: id }, additional_data: [id, id] });
    }
    return created[0]!.body;
  };

  it('categories: N parallel creates of one name → one category, N-1 term_exists', async () => {
    const replies = await burst(N, () => send()('/categories', { name: 'Concurrent Category' }));
    const created = expectOneCreated(replies, 'A term with the name provided already exists with this parent.');
    const listed = (await send()('/categories?search=Concurrent%20Category&hide_empty=false')).body.categories;
    expect(listed.map((c: { id: number }) => c.id)).toEqual([created.id]);
  });

  it('categories: the name rule holds per parent, ignoring case', async () => {
    const parent = (await send()('/categories', { name: 'Concurrent Parent' })).body;
    const replies = await burst(N, (i) => send()('/categories', { name: i % 2 ? 'Child Name' : 'CHILD NAME', parent: parent.id }));
    const created = expectOneCreated(replies, 'A term with the name provided already exists with this parent.');
    expect(created.parent).toBe(parent.id);
    // The same name under another parent (the root) is another term.
    expect((await send()('/categories', { name: 'Child Name' })).status).toBe(201);
  });

  it('tags: N parallel creates of one name → one tag, N-1 term_exists (no 500 from the unique index)', async () => {
    const replies = await burst(N, (i) => send()('/tags', { name: i % 3 ? 'Concurrent Tag' : 'concurrent tag' }));
    const created = expectOneCreated(replies, 'A term with the name provided already exists in this taxonomy.');
    const listed = (await send()('/tags?search=concurrent%20tag&hide_empty=false')).body.tags;
    expect(listed.map((t: { id: number }) => t.id)).toEqual([created.id]);
  });

  it('terms named in parallel event writes are created once and linked to every event', async () => {
    const replies = await burst(N, (i) => send()('/events', eventBody(`Inline terms ${i}`, { categories: ['Inline Category'], tags: ['Inline Tag', 'Second Inline Tag'] })));
    expect(statuses(replies)).toEqual(Array(N).fill(201));
    const categories = unique(replies.flatMap((r) => r.body.categories.map((c: { id: number }) => c.id)));
    const tags = unique(replies.flatMap((r) => r.body.tags.map((t: { id: number }) => t.id)));
    expect([categories.length, tags.length]).toEqual([1, 2]);
    const category = (await send()(`/categories/${categories[0]}`)).body;
    expect([category.name, category.count]).toEqual(['Inline Category', N]);
    const inlineTags = (await send()('/tags?search=inline%20tag&hide_empty=false')).body.tags;
    expect(inlineTags.map((t: { name: string; count: number }) => [t.name, t.count]).sort()).toEqual([
      ['Inline Tag', N],
      ['Second Inline Tag', N],
    ]);
  });

  it('terms wanting one slug under different names get distinct slugs, all 201', async () => {
    const replies = await burst(N, (i) => send()('/categories', { name: `Slug Clash ${i}`, slug: 'slug-clash' }));
    expect(statuses(replies)).toEqual(Array(N).fill(201));
    const slugs = replies.map((r) => r.body.slug as string);
    expect(unique(slugs)).toHaveLength(N);
    expect(slugs.every((s) => /^slug-clash(-\d+)?$/.test(s))).toBe(true);
    // Names that slugify alike ("Rock & Roll", "Rock Roll", …) likewise.
    const tags = await burst(N, (i) => send()('/tags', { name: `Rock ${'&'.repeat(i)} Roll` }));
    expect(statuses(tags)).toEqual(Array(N).fill(201));
    expect(unique(tags.map((r) => r.body.slug))).toHaveLength(N);
  });

  it('venues and organizers of one name are reused: one record, every answer 201 with it', async () => {
    for (const [path, field] of [['/venues', 'venue'], ['/organizers', 'organizer']] as const) {
      const replies = await burst(N, () => send()(path, { [field]: `Concurrent ${field}` }));
      expect(statuses(replies)).toEqual(Array(N).fill(201));
      expect(unique(replies.map((r) => r.body.id))).toHaveLength(1);
    }
    // Created inline by parallel event writes: one venue, linked to every event.
    const events = await burst(N, (i) => send()('/events', eventBody(`Inline venue ${i}`, { venue: { venue: 'Inline Hall', city: 'Lyon' } })));
    expect(statuses(events)).toEqual(Array(N).fill(201));
    expect(unique(events.map((r) => r.body.venue.id))).toHaveLength(1);
  });

  it('venues and organizers of one name with different descriptions: N records, N distinct slugs', async () => {
    for (const [path, field] of [['/venues', 'venue'], ['/organizers', 'organizer']] as const) {
      const replies = await burst(N, (i) => send()(path, { [field]: `Shared ${field} name`, description: `Description ${i}` }));
      expect(statuses(replies)).toEqual(Array(N).fill(201));
      expect(unique(replies.map((r) => r.body.id))).toHaveLength(N);
      expect(unique(replies.map((r) => r.body.slug))).toHaveLength(N);
    }
  });

  it('events: N parallel creates of one title → N distinct slugs, all 201; renames to one slug too', async () => {
    const replies = await burst(2 * N, () => send()('/events', eventBody('Same Title Concert')));
    expect(statuses(replies)).toEqual(Array(2 * N).fill(201));
    const slugs = replies.map((r) => r.body.slug as string);
    expect(unique(slugs)).toHaveLength(2 * N);
    expect(slugs.sort()).toEqual(['same-title-concert', ...Array.from({ length: 2 * N - 1 }, (_, i) => `same-title-concert-${i + 2}`)].sort());

    const renamed = await burst(N, (i) => send()(`/events/${replies[i]!.body.id}`, { slug: 'renamed-concert' }));
    expect(statuses(renamed)).toEqual(Array(N).fill(200));
    expect(unique(renamed.map((r) => r.body.slug))).toHaveLength(N);
  });

  // Trashing suffixes the slug `__trashed` (wp_add_trashed_suffix_to_post_name_for_post); when a
  // record trashed earlier holds that slug, wp_unique_post_slug makes it `__trashed-2`, and so on.
  it('a category deleted (twice at once) while events naming it are written: one 200 and a 400 for the deletions, every write 200, never a 500', async () => {
    for (let round = 0; round < 3; round++) {
      const doomed = await send()('/categories', { name: `Doomed ${round}` });
      expect(doomed.status, JSON.stringify(doomed.body)).toBe(201);
      const events = await burst(4, (i) => send()('/events', eventBody(`Doomed ${round} ${i}`, { categories: [`Doomed ${round}`, 'Kept'], tags: ['kept'] })));
      expect(statuses(events)).toEqual(Array(4).fill(201));
      const [first, second, ...writes] = await Promise.all([
        send()(`/categories/${doomed.body.id}?force=true`, undefined, 'DELETE'),
        send()(`/categories/${doomed.body.id}?force=true`, undefined, 'DELETE'),
        // Named again, with a term swap and a status change: the write links the category or, when
        // it went meanwhile, creates it anew.
        ...events.map((e, i) =>
          send()(`/events/${e.body.id}`, { categories: [`Doomed ${round}`, `Fresh ${round} ${i}`], tags: [`swap ${i % 2}`], status: i % 2 ? 'draft' : 'publish' }),
        ),
      ]);
      expect(statuses([first!, second!]), JSON.stringify([first, second])).toEqual([200, 400]);
      expect(writes.map((w) => w.status), JSON.stringify(writes.filter((w) => w.status !== 200))).toEqual(Array(4).fill(200));
    }
  });

  it('categories reparented at once into a ring (A under B, B under C, C under A): one refused, no cycle; a parent deleted under a new child: 201 or 400, never a 500', async () => {
    for (let round = 0; round < 3; round++) {
      const [a, b, c] = (await burst(3, (i) => send()('/categories', { name: `Ring ${round} ${i}` }))).map((r) => r.body.id as number);
      const replies = await Promise.all([
        send()(`/categories/${a}`, { parent: b }),
        send()(`/categories/${b}`, { parent: c }),
        send()(`/categories/${c}`, { parent: a }),
      ]);
      expect(statuses(replies), JSON.stringify(replies.map((r) => r.body))).toEqual([200, 200, 400]);
      expect(replies.find((r) => r.status === 400)!.body.code).toBe('rest_invalid_param');
      const parents = new Map<number, number>(
        (await send()('/categories?per_page=100&hide_empty=false')).body.categories.map((t: { id: number; parent: number }) => [t.id, t.parent]),
      );
      for (const id of [a, b, c]) {
        const seen = new Set<number>();
        for (let node: number | undefined = id; node; node = parents.get(node)) {
          expect(seen.has(node), `category ${id} reaches itself`).toBe(false);
          seen.add(node);
        }
      }
      const parent = (await send()('/categories', { name: `Doomed parent ${round}` })).body.id as number;
      const [removed, child] = await Promise.all([
        send()(`/categories/${parent}?force=true`, undefined, 'DELETE'),
        send()('/categories', { name: `Orphan ${round}`, parent }),
      ]);
      expect(removed.status).toBe(200);
      expect([201, 400], JSON.stringify(child.body)).toContain(child.status);
    }
  });

  it('users (GraphQL): N parallel creates of one email address → one user, EMAIL_EXISTS for the others; a user deleted twice at once → NOT_FOUND, never an error', async () => {
    const { bases, auth } = target();
    const gql = async (query: string, variables: Record<string, unknown>, i: number) => {
      const res = await fetch(`${bases[i % bases.length]}/graphql`, {
        method: 'POST',
        headers: { authorization: auth, 'content-type': 'application/json' },
        body: JSON.stringify({ query, variables }),
      });
      return (await res.json()) as { data?: any; errors?: unknown[] };
    };
    const create = (login: string, email: string, i: number) =>
      gql(`mutation($i: CreateUserInput!) { createUser(input: $i) { __typename ... on CreateUserSuccess { user { databaseId } } ... on Error { code } } }`, {
        i: { login, email, password: 'concurrency-password', role: 'AUTHOR' },
      }, i);
    const created = await Promise.all(Array.from({ length: N }, (_, i) => create(`same-address-${i}`, i % 2 ? 'Same.Address@example.org' : 'same.address@example.org', i)));
    expect(created.map((r) => r.errors ?? null)).toEqual(Array(N).fill(null));
    expect(created.map((r) => `${r.data.createUser.__typename} ${r.data.createUser.code ?? ''}`.trim()).sort()).toEqual([...Array(N - 1).fill('ConflictError EMAIL_EXISTS'), 'CreateUserSuccess']);
    const id = created.find((r) => r.data.createUser.__typename === 'CreateUserSuccess')!.data.createUser.user.databaseId as number;
    const deleted = await Promise.all([0, 1, 2].map((i) => gql(`mutation($id: ID!) { deleteUser(id: $id) { __typename ... on Error { code } } }`, { id }, i)));
    expect(deleted.map((r) => r.errors ?? null)).toEqual([null, null, null]);
    expect(deleted.map((r) => `${r.data.deleteUser.__typename} ${r.data.deleteUser.code ?? ''}`.trim()).sort()).toEqual(['DeleteUserSuccess', 'NotFoundError NOT_FOUND', 'NotFoundError NOT_FOUND']);
  });

  it('trashing records of one slug one after another: `__trashed`, `__trashed-2`, `__trashed-3`, never a 500', async () => {
    for (const [path, body, base] of [
      ['/events', (n: number) => eventBody('Trash Twice', { description: `Copy ${n}` }), 'trash-twice'],
      ['/venues', (n: number) => ({ venue: 'Trash Twice Hall', description: `Copy ${n}` }), 'trash-twice-hall'],
      ['/organizers', (n: number) => ({ organizer: 'Trash Twice Org', description: `Copy ${n}` }), 'trash-twice-org'],
    ] as const) {
      const trashed: string[] = [];
      for (let n = 1; n <= 3; n++) {
        const created = await send()(path, body(n));
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        expect(created.body.slug).toBe(base); // the trashed ones do not hold the slug
        const gone = await send()(`${path}/${created.body.id}`, undefined, 'DELETE');
        expect(gone.status, JSON.stringify(gone.body)).toBe(200);
        trashed.push(gone.body.slug);
      }
      expect(trashed).toEqual([`${base}__trashed`, `${base}__trashed-2`, `${base}__trashed-3`]);
    }
  });
}

describe('uniqueness under concurrent requests, one server', { timeout: 300_000 }, () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer();
  });
  afterAll(async () => {
    await s?.close();
  });
  uniquenessChecks(() => ({ bases: [s.base], auth: s.authHeader('admin') }));
});

describe.runIf(testBackend === 'postgres')('uniqueness under concurrent requests, two server processes on one PostgreSQL', { timeout: 600_000 }, () => {
  const password = 'concurrency-pass';
  let db: { url: string; drop(): Promise<void> };
  const procs: ServerProcess[] = [];
  beforeAll(async () => {
    db = await createPostgresDatabase();
    const env = { DATABASE_URL: db.url, CAL_ADMIN_LOGIN: ADMIN_LOGIN, CAL_ADMIN_PASSWORD: password, CAL_CHANGES_CHANNEL: `cal_test_unique_${process.pid}` };
    procs.push(await startServerProcess(env)); // migrates
    procs.push(await startServerProcess(env));
  }, 240_000);
  afterAll(async () => {
    for (const p of procs) p.stop();
    await Promise.all(procs.map((p) => p.exited));
    await db?.drop();
  });
  uniquenessChecks(() => ({ bases: procs.map((p) => p.base), auth: `Basic ${Buffer.from(`${ADMIN_LOGIN}:${password}`).toString('base64')}` }));
});
