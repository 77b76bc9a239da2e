import { createHmac, randomBytes, randomInt } from 'node:crypto';
import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';
import type { UserRole } from '../../prisma/generated/client/client.ts';
import type { DatabaseClient } from '../db/input-guard.ts';
import type { Context, Viewer } from './context.ts';
import { canManageUsers } from '../domain/capabilities.ts';
import { ConflictError, ForbiddenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { lockKeys, type TransactionClient } from '../db/transactions.ts';
import { requireViewer } from './authz.ts';
import { recordChanges } from './change-log.ts';
import { publishChange, type ChangeAction } from './changes.ts';

/** Account writes publish on the change bus like calendar writes: caches of every process follow. */
const userChanged = (ctx: Context, id: number, action: ChangeAction) => publishChange(ctx, { kind: 'USER', id, action });

/**
 * argon2 (a native addon, CommonJS) is loaded on the first password hashed or checked, not at start:
 * a process serving anonymous reads never needs it (start time and memory).
 */
const requireHere = createRequire(import.meta.url);
let argon2: typeof import('@node-rs/argon2') | undefined;
const loadArgon2 = () => (argon2 ??= requireHere('@node-rs/argon2') as typeof import('@node-rs/argon2'));
const hash = (password: string) => loadArgon2().hash(password);
const verify = (hashed: string, password: string) => loadArgon2().verify(hashed, password);

export const hashPassword = (password: string) => hash(password);

export const USER_ROLES: readonly UserRole[] = ['ADMINISTRATOR', 'EDITOR', 'AUTHOR', 'CONTRIBUTOR', 'SUBSCRIBER'];

const APP_PASSWORD_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const APP_PASSWORD_LENGTH = 24;

/** A WordPress-format application password: 24 characters, shown in groups of four. */
export function generateApplicationPassword(): string {
  const raw = Array.from({ length: APP_PASSWORD_LENGTH }, () => APP_PASSWORD_ALPHABET[randomInt(APP_PASSWORD_ALPHABET.length)]).join('');
  return raw.match(/.{4}/g)!.join(' ');
}

/**
 * Verified credentials are remembered for a minute (argon2 costs tens of milliseconds of CPU, on
 * every Basic request otherwise), keyed by an HMAC of login and password under a key drawn at
 * start-up and never stored, so the cache holds nothing that could be checked against a guess
 * outside this process. The entry names the stored hash that matched; a hit counts only while
 * that hash is still the user's password hash or one of their application passwords' hashes,
 * read from the database on every request like the user's role, so a password change, a revoked
 * application password, a role change or a deleted user takes effect at once, in every process.
 */
const verified = new LRUCache<string, string>({ max: 10_000, ttl: 60_000 });
const cacheSecret = randomBytes(32);

function cacheKey(login: string, password: string) {
  return createHmac('sha256', cacheSecret).update(login).update('\0').update(password).digest('base64');
}

/** Forgets every remembered verification (tests; never needed for correctness). */
export function clearCredentialCache(): void {
  verified.clear();
}

/**
 * Last-use bookkeeping of an application password is written when the address changes or the
 * recorded time is older than this, so a client authenticating on every request does not write
 * on every request.
 */
const LAST_USED_GRANULARITY_MS = 60_000;

export interface VerifyOptions {
  now?: Date;
  /** The client address, recorded as an application password's `lastIp`. */
  ip?: string | null;
}

/**
 * HTTP Basic credentials → the user, or null when they are wrong. Accepts the account password or
 * any of the user's application passwords (24 characters; spaces ignored). Hashes are compared by
 * argon2 `verify`, which compares in constant time.
 */
export async function verifyCredentials(
  prisma: DatabaseClient,
  login: string,
  password: string,
  opts: VerifyOptions = {},
): Promise<Viewer | null> {
  const now = opts.now ?? new Date();
  const ip = opts.ip ? opts.ip.slice(0, 64) : null;
  const user = await prisma.user.findUnique({
    where: { login },
    select: {
      id: true,
      login: true,
      role: true,
      passwordHash: true,
      applicationPasswords: { select: { id: true, hash: true, lastUsedAt: true, lastIp: true } },
    },
  });
  if (!user) {
    await hash(password); // same cost as a real check: no timing hint that the login does not exist
    return null;
  }
  const viewer: Viewer = { id: user.id, login: user.login, role: user.role };
  const key = cacheKey(login, password);

  let matched: string | null = null;
  const hit = verified.get(key);
  if (hit !== undefined && (hit === user.passwordHash || user.applicationPasswords.some((a) => a.hash === hit))) matched = hit;
  if (matched === null) {
    if (await verify(user.passwordHash, password).catch(() => false)) {
      matched = user.passwordHash;
    } else {
      const compact = password.replace(/\s+/g, '');
      if (compact.length === APP_PASSWORD_LENGTH) {
        for (const app of user.applicationPasswords) {
          if (await verify(app.hash, compact).catch(() => false)) {
            matched = app.hash;
            break;
          }
        }
      }
    }
    if (matched === null) {
      verified.delete(key);
      return null;
    }
    verified.set(key, matched);
  }

  const app = user.applicationPasswords.find((a) => a.hash === matched);
  if (app && (app.lastIp !== ip || !app.lastUsedAt || now.getTime() - app.lastUsedAt.getTime() >= LAST_USED_GRANULARITY_MS)) {
    // The password may have been revoked meanwhile: updateMany does not throw on a missing row.
    await prisma.applicationPassword.updateMany({ where: { id: app.id }, data: { lastUsedAt: now, lastIp: ip } });
  }
  return viewer;
}

/** Creates the bootstrap administrator unless a user with that login exists (never overwrites). */
export async function ensureAdmin(prisma: DatabaseClient, login: string, password: string): Promise<'created' | 'exists'> {
  const existing = await prisma.user.findUnique({ where: { login }, select: { id: true } });
  if (existing) return 'exists';
  try {
    await prisma.user.create({ data: { login, displayName: login, role: 'ADMINISTRATOR', passwordHash: await hashPassword(password) } });
    return 'created';
  } catch (e) {
    if ((e as { code?: string }).code === 'P2002') return 'exists';
    throw e;
  }
}

function requireAdmin(ctx: Context): Viewer {
  const viewer = requireViewer(ctx);
  if (!canManageUsers(viewer)) throw new ForbiddenError('Only administrators manage users.');
  return viewer;
}

/** May the caller see the private parts (email, application passwords) of this user? */
export function canSeePrivate(ctx: Context, userId: number): boolean {
  return ctx.viewer !== null && (ctx.viewer.id === userId || canManageUsers(ctx.viewer));
}

export interface UserInput {
  login?: string | null;
  password?: string | null;
  role?: UserRole | null;
  email?: string | null;
  displayName?: string | null;
}

function validateUser(input: UserInput, creating: boolean) {
  if (creating && !input.login?.trim()) throw new ValidationError('login is required.', 'login', 'REQUIRED');
  if (input.login != null && !/^[A-Za-z0-9_.@-]{1,60}$/.test(input.login)) {
    throw new ValidationError('login may use letters, digits and _ . @ - (60 at most).', 'login', 'INVALID_LOGIN');
  }
  if (creating && !input.password) throw new ValidationError('password is required.', 'password', 'REQUIRED');
  if (input.password != null && (input.password.length < 8 || input.password.length > 200)) {
    throw new ValidationError('password must have 8 to 200 characters.', 'password', 'WEAK_PASSWORD');
  }
  if (input.role != null && !USER_ROLES.includes(input.role)) {
    throw new ValidationError(`role must be one of ${USER_ROLES.join(', ')}.`, 'role', 'INVALID_ROLE');
  }
  if (input.email != null && input.email !== '' && (input.email.length > 100 || !/^[^@\s]+@[^@\s]+$/.test(input.email))) {
    throw new ValidationError('email is not valid.', 'email', 'INVALID_EMAIL');
  }
  if (input.displayName != null && input.displayName.length > 250) {
    throw new ValidationError('displayName may have 250 characters at most.', 'displayName', 'TOO_LONG');
  }
}

/**
 * The email rule (unique among users, ignoring case), checked under the address's lock in the
 * transaction that writes it: two concurrent writes of one address each passed a check made
 * outside it (17 of 18 parallel creates kept one address).
 */
async function assertEmailFree(tx: TransactionClient, email: string | null | undefined, exceptId?: number) {
  if (!email) return;
  await lockKeys(tx, [['user-email', email.toLowerCase()]]);
  const clash = await tx.user.findFirst({
    where: { email: { equals: email, mode: 'insensitive' }, ...(exceptId ? { id: { not: exceptId } } : {}) },
    select: { id: true },
  });
  if (clash) throw new ConflictError('Another user has that email address.', 'EMAIL_EXISTS', 'email', clash.id, 'User');
}

/**
 * Refuses to leave the site without an administrator (delete or demotion of the last one), counted
 * under one lock in the transaction that writes: two concurrent demotions of the last two
 * administrators would each see the other one.
 */
async function assertNotLastAdmin(tx: TransactionClient, user: { id: number; role: UserRole }) {
  if (user.role !== 'ADMINISTRATOR') return;
  await lockKeys(tx, [['users', 'administrators']]);
  const others = await tx.user.count({ where: { role: 'ADMINISTRATOR', id: { not: user.id } } });
  if (others === 0) throw new ForbiddenError('The site needs at least one administrator.', 'LAST_ADMINISTRATOR');
}

const isUniqueViolation = (e: unknown) => (e as { code?: string }).code === 'P2002';

export async function createUser(ctx: Context, input: UserInput): Promise<number> {
  requireAdmin(ctx);
  validateUser(input, true);
  const clash = await ctx.prisma.user.findUnique({ where: { login: input.login! }, select: { id: true } });
  if (clash) throw new ConflictError('A user with that login exists.', 'LOGIN_EXISTS', 'login', clash.id, 'User');
  const passwordHash = await hashPassword(input.password!);
  try {
    // The row and its change-log row in one transaction (change-log.ts); the hash is made before it.
    const user = await recordChanges(ctx, async (ctx) => {
      await assertEmailFree(ctx.prisma, input.email);
      const created = await ctx.prisma.user.create({
        data: {
          login: input.login!,
          role: input.role ?? 'SUBSCRIBER',
          email: input.email ?? '',
          displayName: input.displayName?.trim() || input.login!,
          passwordHash,
        },
        select: { id: true },
      });
      userChanged(ctx, created.id, 'CREATED');
      return created;
    });
    return user.id;
  } catch (e) {
    if (isUniqueViolation(e)) throw new ConflictError('A user with that login exists.', 'LOGIN_EXISTS', 'login');
    throw e;
  }
}

/**
 * Users may change their own password, email and display name; administrators change anyone's,
 * and alone change roles and logins.
 */
export async function updateUser(ctx: Context, id: number, input: UserInput): Promise<number> {
  const viewer = requireViewer(ctx);
  const user = await ctx.prisma.user.findUnique({ where: { id }, select: { id: true, login: true, role: true } });
  const loginChange = input.login != null && input.login !== user?.login;
  const roleChange = input.role != null && input.role !== user?.role;
  if (viewer.id !== id || input.role != null || loginChange) requireAdmin(ctx);
  validateUser(input, false);
  if (!user) throw new NotFoundError(`No user has the ID ${id}.`, 'NOT_FOUND', 'id');
  if (loginChange) {
    const clash = await ctx.prisma.user.findUnique({ where: { login: input.login! }, select: { id: true } });
    if (clash) throw new ConflictError('A user with that login exists.', 'LOGIN_EXISTS', 'login', clash.id, 'User');
  }
  const passwordHash = input.password ? await hashPassword(input.password) : undefined;
  try {
    await recordChanges(ctx, async (ctx) => {
      if (roleChange) await assertNotLastAdmin(ctx.prisma, user);
      await assertEmailFree(ctx.prisma, input.email, id);
      await ctx.prisma.user.update({
        where: { id },
        data: {
          login: loginChange ? input.login! : undefined,
          role: input.role ?? undefined,
          email: input.email ?? undefined,
          displayName: input.displayName ?? undefined,
          passwordHash,
        },
      });
      userChanged(ctx, id, 'UPDATED');
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw new ConflictError('A user with that login exists.', 'LOGIN_EXISTS', 'login');
    throw e;
  }
  return id;
}

/** Deletes the account and its application passwords; their events, venues and organizers lose their author. */
export async function deleteUser(ctx: Context, id: number): Promise<{ id: number; login: string }> {
  const viewer = requireAdmin(ctx);
  if (viewer.id === id) throw new ForbiddenError('You cannot delete your own account.', 'SELF_DELETE');
  const user = await ctx.prisma.user.findUnique({ where: { id }, select: { id: true, login: true, role: true } });
  if (!user) throw new NotFoundError(`No user has the ID ${id}.`, 'NOT_FOUND', 'id');
  await recordChanges(ctx, async (ctx) => {
    await assertNotLastAdmin(ctx.prisma, user);
    await ctx.prisma.user.delete({ where: { id } });
    userChanged(ctx, id, 'DELETED');
  }).catch((e: unknown) => {
    // Deleted meanwhile by another request: answered as a missing user is.
    if ((e as { code?: string }).code === 'P2025') throw new NotFoundError(`No user has the ID ${id}.`, 'NOT_FOUND', 'id');
    throw e;
  });
  return { id: user.id, login: user.login };
}

export interface UserSummary {
  id: number;
  login: string;
  email: string;
  displayName: string;
  role: UserRole;
  createdAt: Date;
}

const summarySelect = { id: true, login: true, email: true, displayName: true, role: true, createdAt: true } as const;

/** Every user by login (administrators only). */
export async function listUsers(ctx: Context, filter: { role?: UserRole | null } = {}): Promise<UserSummary[]> {
  requireAdmin(ctx);
  return ctx.prisma.user.findMany({ where: filter.role ? { role: filter.role } : {}, orderBy: { login: 'asc' }, select: summarySelect });
}

/** One user by login: administrators, or the user themself. */
export async function findUserByLogin(ctx: Context, login: string): Promise<UserSummary> {
  const viewer = requireViewer(ctx);
  if (viewer.login !== login) requireAdmin(ctx);
  const user = await ctx.prisma.user.findUnique({ where: { login }, select: summarySelect });
  if (!user) throw new NotFoundError(`No user has the login "${login}".`, 'NOT_FOUND', 'login');
  return user;
}

export interface ApplicationPasswordSummary {
  uuid: string;
  userId: number;
  name: string;
  createdAt: Date;
  lastUsedAt: Date | null;
  lastIp: string | null;
}

/** Never the hash. */
export const applicationPasswordSelect = {
  uuid: true,
  userId: true,
  name: true,
  createdAt: true,
  lastUsedAt: true,
  lastIp: true,
} as const;

async function assertUserExists(ctx: Context, userId: number) {
  const user = await ctx.prisma.user.findUnique({ where: { id: userId }, select: { id: true } });
  if (!user) throw new NotFoundError(`No user has the ID ${userId}.`, 'NOT_FOUND', 'userId');
}

/** A user's application passwords, oldest first: the user themself or administrators. */
export async function listApplicationPasswords(ctx: Context, userId?: number | null): Promise<ApplicationPasswordSummary[]> {
  const viewer = requireViewer(ctx);
  const owner = userId ?? viewer.id;
  if (owner !== viewer.id) requireAdmin(ctx);
  await assertUserExists(ctx, owner);
  return ctx.prisma.applicationPassword.findMany({ where: { userId: owner }, orderBy: [{ createdAt: 'asc' }, { id: 'asc' }], select: applicationPasswordSelect });
}

/**
 * A new application password for the caller (or, for administrators, for `userId`). The plaintext
 * is in the result only: just its hash is stored. Names are unique per user, as in WordPress.
 */
export async function createApplicationPassword(ctx: Context, name: string, userId?: number | null) {
  const viewer = requireViewer(ctx);
  const owner = userId ?? viewer.id;
  if (owner !== viewer.id) requireAdmin(ctx);
  const trimmed = name.trim();
  if (!trimmed || trimmed.length > 200) throw new ValidationError('name must have 1 to 200 characters.', 'name', 'INVALID_NAME');
  await assertUserExists(ctx, owner);
  const clash = await ctx.prisma.applicationPassword.findFirst({ where: { userId: owner, name: trimmed }, select: { id: true } });
  if (clash) throw new ConflictError('An application password with that name exists.', 'NAME_EXISTS', 'name', clash.id);
  const password = generateApplicationPassword();
  const passwordHash = await hash(password.replace(/\s+/g, ''));
  const record = await recordChanges(ctx, async (ctx) => {
    const created = await ctx.prisma.applicationPassword.create({ data: { userId: owner, name: trimmed, hash: passwordHash }, select: applicationPasswordSelect });
    userChanged(ctx, owner, 'UPDATED');
    return created;
  });
  return { ...record, password };
}

/** Revokes (deletes) an application password: its owner or administrators. Returns what was revoked. */
export async function revokeApplicationPassword(ctx: Context, uuid: string): Promise<ApplicationPasswordSummary> {
  requireViewer(ctx);
  const notFound = () => new NotFoundError('No application password has that ID.', 'NOT_FOUND', 'uuid');
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(uuid)) throw notFound();
  const record = await ctx.prisma.applicationPassword.findUnique({ where: { uuid: uuid.toLowerCase() }, select: { id: true, ...applicationPasswordSelect } });
  if (!record) throw notFound();
  if (record.userId !== ctx.viewer!.id) requireAdmin(ctx);
  await recordChanges(ctx, async (ctx) => {
    const deleted = await ctx.prisma.applicationPassword.deleteMany({ where: { id: record.id } });
    if (deleted.count === 0) throw notFound();
    userChanged(ctx, record.userId, 'UPDATED');
  });
  const { id: _id, ...summary } = record;
  return summary;
}

/** The `where` of a user list, after checking the caller may list users (administrators). */
export function userListWhere(ctx: Context, filter: { role?: UserRole | null } = {}) {
  requireAdmin(ctx);
  return filter.role ? { role: filter.role } : {};
}
