import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { clearCredentialCache, verifyCredentials } from '../../src/services/users.ts';
import { createGraphQLHarness } from '../helpers/graphql.ts';

let h: Awaited<ReturnType<typeof createGraphQLHarness>>;
beforeAll(async () => {
  h = await createGraphQLHarness();
});
afterAll(() => h.close());
beforeEach(async () => {
  clearCredentialCache();
  await h.reset();
});

const ERR = `... on Error { __typename code message } ... on ValidationError { field } ... on ConflictError { conflictField: field existingId existingDatabaseId }`;
const USER = (payload: string) => `... on ${payload} { user { id databaseId login email displayName role } } ${ERR}`;
const NEW_APP = `... on CreateApplicationPasswordSuccess { applicationPassword { password uuid name createdAt userId } } ${ERR}`;
const APP = `... on RevokeApplicationPasswordSuccess { applicationPassword { uuid name createdAt lastUsedAt lastIp } } ${ERR}`;
/** A write's payload record (user, deleted account, application password), or the typed error. */
const written = (r: { user?: any; deleted?: any; applicationPassword?: any }): any => r.user ?? r.deleted ?? r.applicationPassword ?? r;
const userGid = (databaseId: number) => Buffer.from(`User:${databaseId}`).toString('base64');

const createUserM = `mutation($i: CreateUserInput!) { createUser(input: $i) { ${USER('CreateUserSuccess')} } }`;
const updateUserM = `mutation($id: ID!, $i: UpdateUserInput!) { updateUser(id: $id, input: $i) { ${USER('UpdateUserSuccess')} } }`;
const deleteUserM = `mutation($id: ID!) { deleteUser(id: $id) { ... on DeleteUserSuccess { deletedId deleted { databaseId login } } ${ERR} } }`;
const createAppM = `mutation($name: String!, $userId: ID) { createApplicationPassword(name: $name, userId: $userId) { ${NEW_APP} } }`;
const revokeAppM = `mutation($uuid: String!) { revokeApplicationPassword(uuid: $uuid) { ${APP} } }`;
const usersQ = `query($role: UserRole, $page: Int, $perPage: Int) { users(role: $role, page: $page, perPage: $perPage) {
  ... on UserConnection { totalCount totalPages edges { node { login role email } } } ... on Error { __typename code } } }`;

type As = NonNullable<Parameters<typeof h.gql>[2]>;
const createUser = async (input: object, as?: As['as']) => written((await h.ok(createUserM, { i: input }, { as })).createUser);
const updateUser = async (id: number | string, input: object, as?: As['as']) => written((await h.ok(updateUserM, { id, i: input }, { as })).updateUser);
const deleteUser = async (id: number | string, as?: As['as']) => (await h.ok(deleteUserM, { id }, { as })).deleteUser;
const createApp = async (name: string, userId?: number | string, as?: As['as']) =>
  written((await h.ok(createAppM, { name, userId }, { as })).createApplicationPassword);
const revokeApp = async (uuid: string, as?: As['as']) => written((await h.ok(revokeAppM, { uuid }, { as })).revokeApplicationPassword);

describe('createUser', () => {
  it('creates an account usable to sign in; the payload is the User', async () => {
    const u = await createUser({ login: 'alice', password: 'correct horse', role: 'EDITOR', email: 'alice@example.com' });
    expect(u).toMatchObject({ login: 'alice', role: 'EDITOR', email: 'alice@example.com', displayName: 'alice' });
    expect(typeof u.id).toBe('string');
    expect(u.databaseId).toBeGreaterThan(0);
    expect(await verifyCredentials(h.db.prisma, 'alice', 'correct horse')).toEqual({ id: u.databaseId, login: 'alice', role: 'EDITOR' });
    expect(await verifyCredentials(h.db.prisma, 'alice', 'wrong horse')).toBeNull();
    expect(await verifyCredentials(h.db.prisma, 'nobody', 'correct horse')).toBeNull();
    const stored = await h.db.prisma.user.findUniqueOrThrow({ where: { login: 'alice' } });
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);
  });

  it('refuses bad inputs with typed errors', async () => {
    expect(await createUser({ login: 'bad login', password: 'long enough', role: 'AUTHOR' })).toMatchObject({
      __typename: 'ValidationError',
      code: 'INVALID_LOGIN',
      field: 'login',
    });
    expect(await createUser({ login: '', password: 'long enough', role: 'AUTHOR' })).toMatchObject({ field: 'login', code: 'REQUIRED' });
    expect(await createUser({ login: 'bob', password: 'short', role: 'AUTHOR' })).toMatchObject({ field: 'password', code: 'WEAK_PASSWORD' });
    expect(await createUser({ login: 'bob', password: 'long enough', role: 'AUTHOR', email: 'nope' })).toMatchObject({ field: 'email', code: 'INVALID_EMAIL' });
    expect(await createUser({ login: 'x'.repeat(61), password: 'long enough', role: 'AUTHOR' })).toMatchObject({ code: 'INVALID_LOGIN' });

    const bob = await createUser({ login: 'bob', password: 'long enough', role: 'AUTHOR', email: 'bob@example.com' });
    expect(await createUser({ login: 'bob', password: 'long enough', role: 'AUTHOR' })).toMatchObject({
      __typename: 'ConflictError',
      code: 'LOGIN_EXISTS',
      conflictField: 'login',
      existingId: bob.id,
      existingDatabaseId: bob.databaseId,
    });
    expect(await createUser({ login: 'bob2', password: 'long enough', role: 'AUTHOR', email: 'BOB@example.com' })).toMatchObject({
      __typename: 'ConflictError',
      code: 'EMAIL_EXISTS',
    });
    // An unknown role is refused by GraphQL itself.
    const bad = await h.gql(createUserM, { i: { login: 'carol', password: 'long enough', role: 'ROOT' } });
    expect(bad.errors?.[0].message).toMatch(/UserRole/);
  });

  it('is for administrators only', async () => {
    const input = { login: 'eve', password: 'long enough', role: 'ADMINISTRATOR' };
    expect(await createUser(input, 'EDITOR')).toMatchObject({ __typename: 'ForbiddenError' });
    expect(await createUser(input, 'SUBSCRIBER')).toMatchObject({ __typename: 'ForbiddenError' });
    expect(await createUser(input, null)).toMatchObject({ __typename: 'UnauthenticatedError' });
    expect(await h.db.prisma.user.count({ where: { login: 'eve' } })).toBe(0);
  });
});

describe('updateUser', () => {
  it('lets administrators change anything and users their own password, email and name', async () => {
    const u = await createUser({ login: 'dave', password: 'first password', role: 'AUTHOR' });
    const dave = { id: u.databaseId, login: 'dave', role: 'AUTHOR' as const };

    expect(await updateUser(u.databaseId, { role: 'EDITOR', displayName: 'Dave D.' })).toMatchObject({ role: 'EDITOR', displayName: 'Dave D.' });
    const self = await updateUser(u.databaseId, { password: 'second password', email: 'dave@example.com' }, { ...dave, role: 'EDITOR' });
    expect(self).toMatchObject({ login: 'dave', email: 'dave@example.com' });
    expect(await verifyCredentials(h.db.prisma, 'dave', 'first password')).toBeNull();
    expect(await verifyCredentials(h.db.prisma, 'dave', 'second password')).toMatchObject({ login: 'dave', role: 'EDITOR' });
  });

  it('takes effect on cached credentials at once', async () => {
    const u = await createUser({ login: 'cached', password: 'first password', role: 'AUTHOR' });
    expect(await verifyCredentials(h.db.prisma, 'cached', 'first password')).not.toBeNull();
    await updateUser(u.databaseId, { password: 'second password' });
    expect(await verifyCredentials(h.db.prisma, 'cached', 'first password')).toBeNull();
    await updateUser(u.databaseId, { role: 'SUBSCRIBER' });
    expect(await verifyCredentials(h.db.prisma, 'cached', 'second password')).toMatchObject({ role: 'SUBSCRIBER' });
  });

  it('refuses role changes and other users to non-administrators; bad inputs; unknown IDs', async () => {
    const u = await createUser({ login: 'frank', password: 'long enough', role: 'AUTHOR' });
    const frank = { id: u.databaseId, login: 'frank', role: 'AUTHOR' as const };
    expect(await updateUser(u.databaseId, { role: 'ADMINISTRATOR' }, frank)).toMatchObject({ __typename: 'ForbiddenError' });
    const editor = await h.userFor('EDITOR');
    expect(await updateUser(editor.id, { displayName: 'x' }, frank)).toMatchObject({ __typename: 'ForbiddenError' });
    expect(await updateUser(u.databaseId, { displayName: 'x' }, null)).toMatchObject({ __typename: 'UnauthenticatedError' });
    expect(await updateUser(u.databaseId, { password: 'short' }, frank)).toMatchObject({ __typename: 'ValidationError', field: 'password' });
    expect(await updateUser(u.databaseId, { email: 'not an email' })).toMatchObject({ __typename: 'ValidationError', field: 'email' });
    expect(await updateUser(424242, { displayName: 'x' })).toMatchObject({ __typename: 'NotFoundError' });
  });

  it('never leaves the site without an administrator', async () => {
    const admin = await h.userFor('ADMINISTRATOR');
    expect(await updateUser(admin.id, { role: 'EDITOR' })).toMatchObject({ __typename: 'ForbiddenError', code: 'LAST_ADMINISTRATOR' });
    await createUser({ login: 'second-admin', password: 'long enough', role: 'ADMINISTRATOR' });
    expect(await updateUser(admin.id, { role: 'EDITOR' })).toMatchObject({ role: 'EDITOR' });
  });
});

describe('deleteUser', () => {
  it('deletes an account (and its application passwords); events lose their author', async () => {
    const u = await createUser({ login: 'gone', password: 'long enough', role: 'AUTHOR' });
    const gone = { id: u.databaseId, login: 'gone', role: 'AUTHOR' as const };
    await createApp('laptop', undefined, gone);
    const ev = await h.ok(`mutation { createEvent(input: { title: "By gone", startDate: "2026-12-20", endDate: "2026-12-20" }) { ... on CreateEventSuccess { event { databaseId authorId } } } }`, {}, { as: gone });
    expect(ev.createEvent.event.authorId).toBe(u.databaseId);

    expect(await deleteUser(u.id)).toEqual({ deletedId: u.id, deleted: { databaseId: u.databaseId, login: 'gone' } });
    expect(await h.db.prisma.user.count({ where: { login: 'gone' } })).toBe(0);
    expect(await h.db.prisma.applicationPassword.count()).toBe(0);
    const event = await h.db.prisma.event.findUniqueOrThrow({ where: { id: ev.createEvent.event.databaseId } });
    expect(event.authorId).toBeNull();
    expect(await deleteUser(u.databaseId)).toMatchObject({ __typename: 'NotFoundError' });
  });

  it('is for administrators only, never oneself', async () => {
    const u = await createUser({ login: 'kept', password: 'long enough', role: 'AUTHOR' });
    expect(await deleteUser(u.databaseId, 'EDITOR')).toMatchObject({ __typename: 'ForbiddenError' });
    expect(await deleteUser(u.databaseId, null)).toMatchObject({ __typename: 'UnauthenticatedError' });
    const admin = await h.userFor('ADMINISTRATOR');
    expect(await deleteUser(admin.id)).toMatchObject({ __typename: 'ForbiddenError', code: 'SELF_DELETE' });
    expect(await h.db.prisma.user.count({ where: { login: 'kept' } })).toBe(1);
  });
});

describe('users and me', () => {
  it('lists users for administrators only, filtered by role and paged', async () => {
    await h.userFor('ADMINISTRATOR');
    await createUser({ login: 'a-author', password: 'long enough', role: 'AUTHOR', email: 'a@example.com' });
    await createUser({ login: 'b-author', password: 'long enough', role: 'AUTHOR' });
    await createUser({ login: 'c-sub', password: 'long enough', role: 'SUBSCRIBER' });
    const all = (await h.ok(usersQ)).users;
    expect(all.totalCount).toBe(4);
    expect(all.edges.map((e: any) => e.node.login)).toEqual(['a-author', 'administrator', 'b-author', 'c-sub']);
    expect(all.edges[0].node.email).toBe('a@example.com');
    const authors = (await h.ok(usersQ, { role: 'AUTHOR', perPage: 1, page: 2 })).users;
    expect(authors).toMatchObject({ totalCount: 2, totalPages: 2, edges: [{ node: { login: 'b-author' } }] });
    expect((await h.ok(usersQ, {}, { as: 'EDITOR' })).users).toMatchObject({ __typename: 'ForbiddenError' });
    expect((await h.ok(usersQ, {}, { as: null })).users).toMatchObject({ __typename: 'UnauthenticatedError' });
  });

  it('me: the caller with their application passwords; null when anonymous', async () => {
    const me = `{ me { login role email applicationPasswords { uuid name createdAt lastUsedAt } } }`;
    expect((await h.ok(me, {}, { as: null })).me).toBeNull();
    const author = await h.userFor('AUTHOR');
    await createApp('phone', undefined, author);
    const data = (await h.ok(me, {}, { as: author })).me;
    expect(data).toMatchObject({ login: 'author', role: 'AUTHOR', email: '', applicationPasswords: [{ name: 'phone', lastUsedAt: null }] });
    expect(Object.keys(data.applicationPasswords[0]).sort()).toEqual(['createdAt', 'lastUsedAt', 'name', 'uuid']);
  });

  it("hides others' email, role and application passwords from non-administrators", async () => {
    const u = await createUser({ login: 'private', password: 'long enough', role: 'AUTHOR', email: 'private@example.com' });
    await createApp('laptop', u.databaseId);
    const q = `query($id: ID!) { node(id: $id) { ... on User { login role email applicationPasswords { name } } } }`;
    expect((await h.ok(q, { id: u.id }, { as: 'EDITOR' })).node).toEqual({ login: 'private', role: null, email: null, applicationPasswords: null });
    expect((await h.ok(q, { id: u.id }, { as: null })).node).toMatchObject({ role: null, email: null, applicationPasswords: null });
    expect((await h.ok(q, { id: u.id })).node).toMatchObject({ role: 'AUTHOR', email: 'private@example.com', applicationPasswords: [{ name: 'laptop' }] });
    const self = { id: u.databaseId, login: 'private', role: 'AUTHOR' as const };
    expect((await h.ok(q, { id: u.id }, { as: self })).node).toMatchObject({ role: 'AUTHOR', email: 'private@example.com', applicationPasswords: [{ name: 'laptop' }] });
  });
});

describe('application passwords', () => {
  it('shows the password once; it signs in (with or without spaces) until revoked', async () => {
    const author = await h.userFor('AUTHOR');
    const created = await createApp('  CI bot ', undefined, author);
    expect(created).toMatchObject({ name: 'CI bot', userId: userGid(author.id) });
    expect(created.password).toMatch(/^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
    expect(created.uuid).toMatch(/^[0-9a-f-]{36}$/);

    // Never shown again, never stored in clear.
    const stored = await h.db.prisma.applicationPassword.findUniqueOrThrow({ where: { uuid: created.uuid } });
    expect(stored.hash).not.toContain(created.password.replace(/ /g, ''));
    const listed = (await h.ok(`{ me { applicationPasswords { uuid name } } }`, {}, { as: author })).me.applicationPasswords;
    expect(listed).toEqual([{ uuid: created.uuid, name: 'CI bot' }]);
    expect(JSON.stringify(listed)).not.toContain(created.password);

    const now = new Date('2026-03-01T10:00:00Z');
    expect(await verifyCredentials(h.db.prisma, 'author', created.password, { ip: '203.0.113.7', now })).toEqual(author);
    expect(await verifyCredentials(h.db.prisma, 'author', created.password.replace(/ /g, ''))).toEqual(author);
    expect(await verifyCredentials(h.db.prisma, 'editor', created.password)).toBeNull();
    const used = (await h.ok(`{ me { applicationPasswords { lastUsedAt lastIp } } }`, {}, { as: author })).me.applicationPasswords[0];
    expect(used.lastIp).toBeNull(); // the later sign-in had no address
    expect(new Date(used.lastUsedAt).getTime()).toBeGreaterThan(now.getTime());

    const revoked = await revokeApp(created.uuid, author);
    expect(revoked).toMatchObject({ uuid: created.uuid, name: 'CI bot' });
    expect(await verifyCredentials(h.db.prisma, 'author', created.password)).toBeNull(); // cached before, refused now
    expect(await revokeApp(created.uuid, author)).toMatchObject({ __typename: 'NotFoundError' });
    // The account password still works.
    expect(await verifyCredentials(h.db.prisma, 'author', 'password-author')).toEqual(author);
  });

  it('records the time and address of use', async () => {
    const author = await h.userFor('AUTHOR');
    const created = await createApp('script', undefined, author);
    const now = new Date('2026-03-01T10:00:00Z');
    await verifyCredentials(h.db.prisma, 'author', created.password, { ip: '198.51.100.1', now });
    const row = await h.db.prisma.applicationPassword.findUniqueOrThrow({ where: { uuid: created.uuid } });
    expect(row).toMatchObject({ lastUsedAt: now, lastIp: '198.51.100.1' });
  });

  it('lets administrators manage anyone’s, users only their own', async () => {
    const author = await h.userFor('AUTHOR');
    const editor = await h.userFor('EDITOR');
    const forAuthor = await createApp('by admin', author.id);
    expect(forAuthor.userId).toBe(userGid(author.id));
    expect(await verifyCredentials(h.db.prisma, 'author', forAuthor.password)).toEqual(author);
    expect(await createApp('sneaky', author.id, editor)).toMatchObject({ __typename: 'ForbiddenError' });
    expect(await revokeApp(forAuthor.uuid, editor)).toMatchObject({ __typename: 'ForbiddenError' });
    expect(await createApp('anon', undefined, null)).toMatchObject({ __typename: 'UnauthenticatedError' });
    expect(await revokeApp(forAuthor.uuid, null)).toMatchObject({ __typename: 'UnauthenticatedError' });
    expect(await revokeApp(forAuthor.uuid)).toMatchObject({ uuid: forAuthor.uuid });
  });

  it('refuses bad names, duplicates, unknown users and unknown IDs', async () => {
    expect(await createApp('   ')).toMatchObject({ __typename: 'ValidationError', field: 'name' });
    expect(await createApp('x'.repeat(201))).toMatchObject({ __typename: 'ValidationError', field: 'name' });
    expect(await createApp('orphan', 424242)).toMatchObject({ __typename: 'NotFoundError' });
    await createApp('twice');
    expect(await createApp('twice')).toMatchObject({ __typename: 'ConflictError', code: 'NAME_EXISTS' });
    expect(await revokeApp('not-a-uuid')).toMatchObject({ __typename: 'NotFoundError', code: 'NOT_FOUND' });
    expect(await revokeApp('00000000-0000-4000-8000-000000000000')).toMatchObject({ __typename: 'NotFoundError' });
  });
});
