/**
 * Verified Basic credentials are cached (argon2 is not run on every request), yet
 * a revoked application password, a password change, a role change and a deleted user take effect
 * on the very next request — in the process that made the change and in any other process on the
 * same database (PostgreSQL: two real server processes). Over HTTP against real servers.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testBackend } from '../helpers/database.ts';
import { startServerProcess, stopServerProcesses } from '../helpers/process.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

interface Site {
  base: string;
  admin: string;
}

async function graphql(site: Site, auth: string, query: string, variables: Record<string, unknown> = {}) {
  const r = await fetch(`${site.base}/graphql`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  const body = (await r.json()) as { data?: Record<string, Record<string, unknown>>; errors?: unknown[] };
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data!;
}

/** A signed-in write (creates a tag): 201, or the status of the refusal. */
let tagCounter = 0;
async function write(site: Site, auth: string): Promise<number> {
  const r = await fetch(`${site.base}/wp-json/cal/events/v1/tags`, {
    method: 'POST',
    headers: { authorization: auth, 'content-type': 'application/json' },
    body: JSON.stringify({ name: `cache-${process.pid}-${++tagCounter}` }),
  });
  await r.text();
  return r.status;
}

/**
 * Changes are made through `writer`, checked through `checker` (the same server, or another
 * process on the same database), each check right after the change and after the checker has
 * verified (and so cached) the credentials it then refuses.
 */
async function revocationTakesEffectAtOnce(writer: Site, checker: Site) {
  const login = `ed${++tagCounter}`;
  const created = await graphql(writer, writer.admin, 'mutation ($i: CreateUserInput!) { createUser(input: $i) { ... on CreateUserSuccess { user { databaseId } } } }', {
    i: { login, password: 'first-password', role: 'EDITOR' },
  });
  const id = (created.createUser as { user: { databaseId: number } }).user.databaseId;
  const first = basic(login, 'first-password');
  const app = await graphql(writer, first, 'mutation { createApplicationPassword(name: "deploy") { ... on CreateApplicationPasswordSuccess { applicationPassword { password } } } }');
  const appAuth = basic(login, (app.createApplicationPassword as { applicationPassword: { password: string } }).applicationPassword.password);

  // Both credentials work, twice (the second time from the cache).
  for (let i = 0; i < 2; i++) {
    expect(await write(checker, first)).toBe(201);
    expect(await write(checker, appAuth)).toBe(201);
  }

  // Revoking the application password: refused at once; the account password still works.
  const mine = await graphql(writer, first, '{ me { applicationPasswords { uuid } } }');
  const [{ uuid }] = mine.me.applicationPasswords as { uuid: string }[];
  await graphql(writer, writer.admin, 'mutation ($u: String!) { revokeApplicationPassword(uuid: $u) { ... on RevokeApplicationPasswordSuccess { applicationPassword { uuid } } } }', { u: uuid });
  expect(await write(checker, appAuth)).toBe(401);
  expect(await write(checker, first)).toBe(201);

  // A role change: a subscriber may not create tags, from the next request on.
  await graphql(writer, writer.admin, 'mutation ($id: ID!) { updateUser(id: $id, input: { role: SUBSCRIBER }) { ... on UpdateUserSuccess { user { role } } } }', { id });
  expect(await write(checker, first)).toBe(403);
  await graphql(writer, writer.admin, 'mutation ($id: ID!) { updateUser(id: $id, input: { role: EDITOR }) { ... on UpdateUserSuccess { user { role } } } }', { id });
  expect(await write(checker, first)).toBe(201);

  // A password change: the old password is refused at once, the new one works.
  await graphql(writer, writer.admin, 'mutation ($id: ID!) { updateUser(id: $id, input: { password: "second-password" }) { ... on UpdateUserSuccess { user { login } } } }', { id });
  expect(await write(checker, first)).toBe(401);
  const second = basic(login, 'second-password');
  expect(await write(checker, second)).toBe(201);
  expect(await write(checker, second)).toBe(201);

  // A deleted user: refused at once.
  await graphql(writer, writer.admin, 'mutation ($id: ID!) { deleteUser(id: $id) { __typename } }', { id });
  expect(await write(checker, second)).toBe(401);
}

describe('credential cache', () => {
  let s: TestServer | undefined;
  afterAll(async () => {
    await s?.close();
  });

  it('one server: revocation, role change, password change and deletion take effect on the next request', async () => {
    s = await startTestServer();
    const site = { base: s.base, admin: s.authHeader('admin') };
    await revocationTakesEffectAtOnce(site, site);
  }, 120_000);
});

describe.runIf(testBackend === 'postgres')('credential cache across server processes on one PostgreSQL', () => {
  let drop: (() => Promise<void>) | undefined;
  afterEach(async () => {
    stopServerProcesses();
    await drop?.();
  });

  it('a change made through one process takes effect at once in the other, whose cache holds the credentials', async () => {
    const db = await createPostgresDatabase();
    drop = db.drop;
    const env = { DATABASE_URL: db.url, CAL_ADMIN_LOGIN: 'admin', CAL_ADMIN_PASSWORD: 'process-admin-pass' };
    const a = await startServerProcess(env); // migrates
    const b = await startServerProcess(env);
    const admin = basic('admin', 'process-admin-pass');
    await revocationTakesEffectAtOnce({ base: a.base, admin }, { base: b.base, admin });
  }, 300_000);
});
