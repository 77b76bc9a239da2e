/**
 * Role × route × method matrix: one test per (row, caller) cell of test/auth/matrix.table.ts,
 * against the real app (REST facade and /graphql over HTTP), on PGlite and, with
 * TEST_DATABASE_URL, on PostgreSQL. Every cell gets fresh fixtures, created in bulk up front.
 */
import { encodeGlobalID } from '@pothos/plugin-relay';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resetThrottle } from '../../src/services/throttle.ts';
import { hashPassword } from '../../src/services/users.ts';
import { ADMIN_LOGIN, startTestServer, type TestRole, type TestServer } from '../helpers/server.ts';
import { CALLERS, ROWS, type Caller, type Effect, type Fixture, type Row } from './matrix.table.ts';

interface Made {
  kind: Fixture['kind'];
  id: number;
  slug: string;
  title: string;
  gid: string;
}

interface Cell {
  row: Row;
  caller: Caller;
  /** Unique per cell: titles carry it, list rows search for it. */
  token: string;
  made: Record<string, Made>;
}

const cells: Cell[][] = ROWS.map((row, r) => CALLERS.map((caller, c) => ({ row, caller, token: `mx${r}q${c}z`, made: {} })));

let s: TestServer;
/** The user who owns every `other` fixture, and one more; neither ever calls. */
let otherId = 0;
let assigneeId = 0;

beforeAll(async () => {
  s = await startTestServer();
  const other = await s.db.prisma.user.create({
    data: { login: 'matrix-owner', displayName: 'matrix-owner', role: 'AUTHOR', passwordHash: await hashPassword('password-matrix-owner') },
  });
  otherId = other.id;
  const assignee = await s.db.prisma.user.create({
    data: { login: 'matrix-assignee', displayName: 'matrix-assignee', role: 'AUTHOR', passwordHash: other.passwordHash },
  });
  assigneeId = assignee.id;
  await createFixtures(cells.flat());
}, 120_000);

afterAll(async () => {
  await s?.close();
});

// ------------------------------------------------------------------------------------ fixtures

const POST_TYPE = { event: 'EVENT', venue: 'VENUE', organizer: 'ORGANIZER' } as const;
const PUBLISHED_UTC = new Date('2026-11-01T12:00:00Z');
const PUBLISHED_LOCAL = new Date('2026-11-01T07:00:00Z');
const FUTURE_UTC = new Date('2027-01-10T15:00:00Z');
const FUTURE_LOCAL = new Date('2027-01-10T10:00:00Z');

const authorOf = (cell: Cell, spec: Fixture) =>
  (spec.owner ?? 'other') === 'own' && cell.caller !== 'anonymous' ? s.users[cell.caller as TestRole] : otherId;

interface Pending {
  cell: Cell;
  name: string;
  spec: Fixture;
}

/**
 * Gives fixtures of one ID space their IDs (`insert` takes them from the shared allocator, in
 * insertion order), titles and slugs, and records them in their cells, global IDs of the GraphQL
 * type `typename` names.
 */
async function allocate(list: Pending[], insert: (list: Pending[]) => Promise<{ id: number }[]>, typename: (spec: Fixture) => string) {
  const ids = list.length ? (await insert(list)).map((r) => r.id).sort((a, b) => a - b) : [];
  return list.map((f, i) => {
    const made = { kind: f.spec.kind, id: ids[i], slug: `${f.cell.token}-${f.name.toLowerCase()}`, title: `${f.cell.token} ${f.name}` };
    f.cell.made[f.name] = { ...made, gid: encodeGlobalID(typename(f.spec), made.id) };
    return { ...f, ...made };
  });
}

/** Inserts every cell's fixtures with a handful of bulk statements. */
async function createFixtures(all: Cell[]) {
  const prisma = s.db.prisma;
  const postSpecs: Pending[] = [];
  const termSpecs: Pending[] = [];
  for (const cell of all) {
    for (const [name, spec] of Object.entries(cell.row.fixtures ?? {})) {
      (spec.kind === 'category' || spec.kind === 'tag' ? termSpecs : postSpecs).push({ cell, name, spec });
    }
  }

  const posts = await allocate(
    postSpecs,
    (list) => prisma.post.createManyAndReturn({ data: list.map((p) => ({ type: POST_TYPE[p.spec.kind as keyof typeof POST_TYPE] })), select: { id: true } }),
    (spec) => spec.kind[0].toUpperCase() + spec.kind.slice(1),
  );
  const terms = await allocate(
    termSpecs,
    (list) => prisma.term.createManyAndReturn({ data: list.map((t) => ({ taxonomy: t.spec.kind === 'category' ? 'CATEGORY' : 'TAG' })), select: { id: true } }),
    (spec) => (spec.kind === 'category' ? 'EventCategory' : 'EventTag'),
  );

  const events: object[] = [];
  const venues: object[] = [];
  const organizers: object[] = [];
  for (const p of posts) {
    const { id, title, slug: baseSlug } = p;
    const status = p.spec.status ?? 'publish';
    const trashed = status === 'trash';
    const everPublished = !['draft', 'pending'].includes(trashed ? (p.spec.trashedFrom ?? 'publish') : status);
    const common = {
      id,
      authorId: authorOf(p.cell, p.spec),
      status,
      trashedFromStatus: trashed ? (p.spec.trashedFrom ?? 'publish') : null,
      slug: trashed ? `${baseSlug}__trashed` : baseSlug,
      password: p.spec.password ?? '',
      dateUtc: status === 'future' ? FUTURE_UTC : everPublished ? PUBLISHED_UTC : null,
      dateLocal: status === 'future' ? FUTURE_LOCAL : PUBLISHED_LOCAL,
      modifiedUtc: PUBLISHED_UTC,
      modifiedLocal: PUBLISHED_LOCAL,
    };
    if (p.spec.kind === 'event') {
      events.push({
        ...common,
        title,
        content: 'Body of the event.',
        excerpt: 'Summary.',
        cost: ['$10'],
        currencySymbol: '$',
        currencyPosition: 'prefix',
        startLocal: new Date('2026-12-01T19:00:00Z'),
        endLocal: new Date('2026-12-01T21:00:00Z'),
        startUtc: new Date('2026-12-02T00:00:00Z'),
        endUtc: new Date('2026-12-02T02:00:00Z'),
        timezone: 'America/New_York',
      });
    } else if (p.spec.kind === 'venue') {
      venues.push({ ...common, name: title, content: 'About the venue.', address: 'Main Street 1', city: 'Springfield', phone: '555-1234' });
    } else {
      organizers.push({ ...common, name: title, content: 'About the organizer.', phone: '555-1234', email: 'org@example.com' });
    }
  }
  if (events.length) await prisma.event.createMany({ data: events as never });
  if (venues.length) await prisma.venue.createMany({ data: venues as never });
  if (organizers.length) await prisma.organizer.createMany({ data: organizers as never });

  const eventVenues: { eventId: number; venueId: number; position: number }[] = [];
  const eventOrganizers: { eventId: number; organizerId: number; position: number }[] = [];
  for (const p of posts) {
    const self = p.cell.made[p.name];
    p.spec.venues?.forEach((v, position) => eventVenues.push({ eventId: self.id, venueId: p.cell.made[v].id, position }));
    p.spec.organizers?.forEach((o, position) => eventOrganizers.push({ eventId: self.id, organizerId: p.cell.made[o].id, position }));
    if (p.spec.parent) await prisma.event.update({ where: { id: self.id }, data: { parentId: p.cell.made[p.spec.parent].id } });
  }
  if (eventVenues.length) await prisma.eventVenue.createMany({ data: eventVenues });
  if (eventOrganizers.length) await prisma.eventOrganizer.createMany({ data: eventOrganizers });

  const categories: object[] = [];
  const tags: object[] = [];
  for (const { spec, id, title, slug } of terms) (spec.kind === 'category' ? categories : tags).push({ id, name: title, slug });
  if (categories.length) await prisma.category.createMany({ data: categories as never });
  if (tags.length) await prisma.tag.createMany({ data: tags as never });
}

// ----------------------------------------------------------------------------------- templates

function fillString(text: string, cell: Cell): string {
  return text.replace(/\{(@other|@assignee|token|[A-Za-z]+)(?:\.(slug|title|gid))?\}/g, (whole, name: string, prop?: string) => {
    if (name === 'token') return cell.token;
    if (name === '@other') return String(otherId);
    if (name === '@assignee') return String(assigneeId);
    const made = cell.made[name];
    if (!made) throw new Error(`row "${cell.row.name}": no fixture ${whole}`);
    return String(prop ? made[prop as 'slug' | 'title' | 'gid'] : made.id);
  });
}

/** A whole-string `{x}` / `{@other}` becomes a number; other strings are filled; structures recurse. */
function fill(value: unknown, cell: Cell): unknown {
  if (typeof value === 'string') {
    if (/^\{(@other|@assignee|[A-Za-z]+)\}$/.test(value) && value !== '{token}') return Number(fillString(value, cell));
    return fillString(value, cell);
  }
  if (Array.isArray(value)) return value.map((v) => fill(v, cell));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, cell)]));
  return value;
}

// ------------------------------------------------------------------------------------ outcomes

interface Outcome {
  head: string;
  code?: string;
  effect?: 'changed' | 'unchanged';
  checks: { key: string; negate: boolean; names?: string[]; value?: string }[];
}

function parseOutcome(text: string): Outcome {
  const [head, ...rest] = text.split(/\s+/);
  const out: Outcome = { head, checks: [] };
  for (const token of rest) {
    const m = /^([A-Za-z_-]+)(!?)=(.*)$/.exec(token);
    if (token === 'changed' || token === 'unchanged') out.effect = token;
    else if (!m) out.code = token;
    else {
      const [, key, bang, raw] = m;
      const set = /^\{(.*)\}$/.exec(raw);
      out.checks.push({ key, negate: bang === '!', names: set ? set[1].split(',').filter(Boolean).sort() : undefined, value: set ? undefined : raw });
    }
  }
  return out;
}

/** Fixture names for IDs (unknown IDs as `#id`), sorted. */
function names(cell: Cell, ids: unknown[]): string[] {
  const byId = new Map(Object.entries(cell.made).map(([n, m]) => [m.id, n]));
  return ids.map((id) => byId.get(Number(id)) ?? `#${String(id)}`).sort();
}

/** IDs of linked records however they are shaped: [] / object / array / connection / null. */
function linkedIds(value: unknown): unknown[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value.map((v) => (v as { id?: unknown; databaseId?: unknown }).id ?? (v as { databaseId?: unknown }).databaseId);
  if (typeof value === 'object' && 'edges' in value) return (value as { edges: { node: { databaseId: number } }[] }).edges.map((e) => e.node.databaseId);
  const v = value as { id?: unknown; databaseId?: unknown };
  return [v.id ?? v.databaseId];
}

async function effectObserved(cell: Cell, effect: Effect): Promise<boolean> {
  const prisma = s.db.prisma;
  const to = typeof effect.to === 'string' ? String(fill(effect.to, cell)) : effect.to;
  if (effect.fixture === 'created') {
    const where = { [effect.model === 'event' ? 'title' : 'name']: { contains: cell.token } };
    const model = effect.model === 'event' ? prisma.event : effect.model === 'venue' ? prisma.venue : prisma.organizer;
    return ((await (model as typeof prisma.event).count({ where: where as never })) > 0) === to;
  }
  const made = cell.made[effect.fixture];
  const row: Record<string, unknown> | null =
    made.kind === 'event'
      ? await prisma.event.findUnique({ where: { id: made.id } })
      : made.kind === 'venue'
        ? await prisma.venue.findUnique({ where: { id: made.id } })
        : made.kind === 'organizer'
          ? await prisma.organizer.findUnique({ where: { id: made.id } })
          : made.kind === 'category'
            ? await prisma.category.findUnique({ where: { id: made.id } })
            : await prisma.tag.findUnique({ where: { id: made.id } });
  if (effect.field === 'exists') return (row !== null) === to;
  return row !== null && String(row[effect.field]) === String(to);
}

const roleOf = (caller: Caller): TestRole | undefined => (caller === 'anonymous' ? undefined : caller);

function wrongCredentials(caller: Caller) {
  const login = caller === 'anonymous' ? 'nobody' : caller === 'admin' ? ADMIN_LOGIN : caller;
  return 'Basic ' + Buffer.from(`${login}:wrong-password`).toString('base64');
}

// --------------------------------------------------------------------------------------- cells

async function runRest(cell: Cell, row: Extract<Row, { api: 'rest' }>, outcome: Outcome) {
  const wrong = row.credentials === 'wrong';
  if (wrong) resetThrottle();
  const res = await s.api(fillString(row.path, cell), {
    method: row.method,
    as: wrong ? undefined : roleOf(cell.caller),
    headers: wrong ? { Authorization: wrongCredentials(cell.caller) } : undefined,
    body: row.body ? fill(row.body, cell) : undefined,
  });
  const status = Number(outcome.head);
  const body = res.body as Record<string, any>;
  const got: Record<string, unknown> = { http: res.status };
  const want: Record<string, unknown> = { http: status };
  if (outcome.code) {
    got.code = body?.code;
    want.code = outcome.code;
  }
  if (res.status !== status) got.message = body?.message ?? res.text.slice(0, 300);
  else {
    const collection = /^\/?([a-z]+)/.exec(row.path.split('?')[0])?.[1] ?? '';
    const isList = row.method === 'GET' && body && Array.isArray(body[collection]);
    const items: Record<string, any>[] = isList ? body[collection] : [body];
    for (const check of outcome.checks) {
      if (check.key === 'ids') {
        got.ids = names(cell, items.map((i) => i.id));
        want.ids = check.names;
        got.total = [body.total, res.headers.get('x-tec-total')];
        want.total = [check.names!.length, String(check.names!.length)];
      } else if (check.names && check.negate) {
        got[`${check.key}!=`] = items.map((i) => names(cell, [i[check.key]])[0]).filter((n) => check.names!.includes(n));
        want[`${check.key}!=`] = [];
      } else if (check.names) {
        got[check.key] = items.map((i) => names(cell, linkedIds(Array.isArray(i[check.key]) && i[check.key].length === 0 ? [] : i[check.key])));
        want[check.key] = items.map(() => check.names);
      } else {
        got[check.key] = items.map((i) => String(i[check.key]));
        want[check.key] = items.map(() => check.value);
      }
    }
  }
  await checkEffect(cell, outcome, res.status >= 200 && res.status < 300, got, want);
  expect(got, `${row.method} ${fillString(row.path, cell)} as ${cell.caller}`).toEqual(want);
}

async function runGraphQL(cell: Cell, row: Extract<Row, { api: 'graphql' }>, outcome: Outcome) {
  const wrong = row.credentials === 'wrong';
  if (wrong) resetThrottle();
  const res = await s.request('/graphql', {
    method: 'POST',
    as: wrong ? undefined : roleOf(cell.caller),
    headers: wrong ? { Authorization: wrongCredentials(cell.caller) } : undefined,
    body: { query: row.query, variables: fill(row.variables ?? {}, cell) },
  });
  if (outcome.head === 'http401') {
    expect({ http: res.status }).toEqual({ http: 401 });
    return;
  }
  const body = res.body as { data?: { r: Record<string, any> | null }; errors?: { message: string; extensions?: { code?: string } }[] };
  expect({ http: res.status }, res.text.slice(0, 500)).toEqual({ http: 200 });
  const value = body.data?.r ?? null;
  // A refused read is a GraphQL error: `error:<extensions.code>` (with a null field).
  const raised = body.errors?.length ? `error:${body.errors.map((e) => e.extensions?.code).join(',')}` : null;
  const typename = raised ?? (value === null ? 'null' : String(value.__typename));
  const got: Record<string, unknown> = { typename };
  const want: Record<string, unknown> = { typename: outcome.head };
  if (typename !== outcome.head) got.error = raised ? body.errors!.map((e) => e.message) : value && 'code' in value ? `${value.code}: ${value.message}` : undefined;
  else if (raised) expect(value, 'a refused read answers null').toBeNull();
  else {
    // A write's payload holds its record as `record` (matrix.table.ts): the checks read that.
    const subject = value?.record ?? value;
    for (const check of outcome.checks) {
      if (check.key === 'ids') {
        got.ids = names(cell, linkedIds(value));
        want.ids = check.names;
        got.totalCount = value!.totalCount;
        want.totalCount = check.names!.length;
      } else if (check.names) {
        got[check.key] = names(cell, linkedIds(subject![check.key]));
        want[check.key] = check.names;
      } else {
        const field = subject![check.key];
        got[check.key] = typeof field === 'object' && field !== null ? JSON.stringify(field) : String(field);
        want[check.key] = check.value;
      }
    }
  }
  const success = typename !== 'null' && !typename.endsWith('Error') && !raised;
  await checkEffect(cell, outcome, success, got, want);
  expect(got, `${row.name} as ${cell.caller}`).toEqual(want);
}

/** The row's effect is in the database exactly when the call succeeded (or as the cell says). */
async function checkEffect(cell: Cell, outcome: Outcome, success: boolean, got: Record<string, unknown>, want: Record<string, unknown>) {
  const effect = cell.row.effect;
  if (!effect) return;
  const expected = outcome.effect ?? (success ? 'changed' : 'unchanged');
  got.effect = (await effectObserved(cell, effect)) ? 'changed' : 'unchanged';
  want.effect = expected;
}

// ------------------------------------------------------------------------------------ the table

for (const [r, row] of ROWS.entries()) {
  describe(`${row.api === 'rest' ? 'REST' : 'GraphQL'} ${row.name}`, () => {
    for (const [c, caller] of CALLERS.entries()) {
      const expected = row.expect[c];
      // MATRIX_STRICT=1 runs known gaps as ordinary tests (to see how they fail).
      const gap = process.env.MATRIX_STRICT ? undefined : row.knownGaps?.[caller];
      const test = gap ? it.fails : it;
      test(`${caller} → ${expected}${gap ? ` (known gap: ${gap})` : ''}`, async () => {
        const cell = cells[r][c];
        const outcome = parseOutcome(expected);
        if (row.api === 'rest') await runRest(cell, row, outcome);
        else await runGraphQL(cell, row, outcome);
      });
    }
  });
}
