import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { authenticate } from '../../src/server/auth.ts';
import { createContext } from '../../src/services/context.ts';
import { defaultSiteSettings } from '../../src/server/config.ts';
import { LoginThrottle } from '../../src/services/throttle.ts';
import { clearCredentialCache, createApplicationPassword, hashPassword } from '../../src/services/users.ts';
import { createTestDatabase, type TestDatabase } from '../helpers/database.ts';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

describe('authenticate (HTTP Basic)', () => {
  let db: TestDatabase;
  let userId: number;
  let throttle: LoginThrottle;

  beforeAll(async () => {
    db = await createTestDatabase();
    userId = (await db.prisma.user.create({ data: { login: 'bob', role: 'EDITOR', passwordHash: await hashPassword('pass: with colon') } })).id;
  });
  afterAll(() => db.close());
  beforeEach(() => {
    throttle = new LoginThrottle();
    clearCredentialCache();
  });

  it('no header → anonymous; account password → the user (a colon in the password is fine)', async () => {
    expect(await authenticate(db.prisma, { header: undefined, throttle })).toEqual({ viewer: null });
    expect(await authenticate(db.prisma, { header: basic('bob', 'pass: with colon'), throttle })).toEqual({ viewer: { id: userId, login: 'bob', role: 'EDITOR' } });
    expect(await authenticate(db.prisma, { header: `basic   ${Buffer.from('bob:pass: with colon').toString('base64')}`, throttle })).toMatchObject({ viewer: { login: 'bob' } });
    expect(await authenticate(db.prisma, { header: basic('bob', 'pass'), throttle })).toEqual({ error: 'invalid_credentials' });
    expect(await authenticate(db.prisma, { header: basic('', 'x'), throttle })).toEqual({ error: 'malformed_authorization' });
    expect(await authenticate(db.prisma, { header: 'Basic !!!', throttle })).toEqual({ error: 'malformed_authorization' });
  });

  it('accepts an application password with or without its spaces and records time and address', async () => {
    const ctx = createContext({ prisma: db.prisma, settings: defaultSiteSettings, viewer: { id: userId, login: 'bob', role: 'EDITOR' } });
    const app = await createApplicationPassword(ctx, 'deploy');
    const now = new Date('2026-05-01T12:00:00Z');
    expect(await authenticate(db.prisma, { header: basic('bob', app.password), ip: '2001:db8::1', throttle, now })).toMatchObject({ viewer: { id: userId } });
    let row = await db.prisma.applicationPassword.findUniqueOrThrow({ where: { uuid: app.uuid } });
    expect(row).toMatchObject({ lastUsedAt: now, lastIp: '2001:db8::1' });

    // Within a minute from the same address: no write (the recorded time stays).
    const soon = new Date(now.getTime() + 30_000);
    await authenticate(db.prisma, { header: basic('bob', app.password.replace(/ /g, '')), ip: '2001:db8::1', throttle, now: soon });
    row = await db.prisma.applicationPassword.findUniqueOrThrow({ where: { uuid: app.uuid } });
    expect(row.lastUsedAt).toEqual(now);
    // Another address is recorded at once.
    await authenticate(db.prisma, { header: basic('bob', app.password), ip: '203.0.113.9', throttle, now: soon });
    row = await db.prisma.applicationPassword.findUniqueOrThrow({ where: { uuid: app.uuid } });
    expect(row).toMatchObject({ lastUsedAt: soon, lastIp: '203.0.113.9' });

    // A 24-character string that is not one of the passwords is refused.
    expect(await authenticate(db.prisma, { header: basic('bob', 'abcd efgh ijkl mnop qrst uvwx'), throttle })).toEqual({ error: 'invalid_credentials' });
  });
});
