import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import pino from 'pino';
import { afterAll, beforeAll } from 'vitest';
import { buildApp } from '../../src/server/app.ts';
import type { ChangeBus } from '../../src/services/changes.ts';
import { loadConfig, type Config } from '../../src/server/config.ts';
import { clearCredentialCache, ensureAdmin, hashPassword } from '../../src/services/users.ts';
import { resetThrottle } from '../../src/services/throttle.ts';
import { createTestDatabase, type TestDatabase } from './database.ts';
import type { WebhookDispatcher } from '../../src/services/webhook-delivery.ts';
import { answerChecker } from './openapi-check.ts';

export type TestRole = 'admin' | 'editor' | 'author' | 'contributor' | 'subscriber';
const ROLE: Record<Exclude<TestRole, 'admin'>, 'EDITOR' | 'AUTHOR' | 'CONTRIBUTOR' | 'SUBSCRIBER'> = {
  editor: 'EDITOR',
  author: 'AUTHOR',
  contributor: 'CONTRIBUTOR',
  subscriber: 'SUBSCRIBER',
};

export const ADMIN_LOGIN = 'admin';
export const passwordOf = (login: string) => `password-${login}`;

/** The site zone of the WordPress that recorded the reference samples (the server's default is UTC). */
export const SAMPLE_TIMEZONE = 'America/New_York';

/** The instant the reference samples were recorded (2026-11-21 07:12:40 in New York). */
export const SAMPLE_CLOCK = new Date('2026-11-21T12:12:40Z');

export interface RequestOptions {
  method?: string;
  /** Basic credentials of that role; anonymous when absent. */
  as?: TestRole;
  headers?: Record<string, string>;
  /** Objects and arrays are sent as JSON (Content-Type set unless given); strings, buffers and FormData as they are. */
  body?: unknown;
}

export interface TestResponse<T = any> {
  status: number;
  headers: Headers;
  /** Parsed JSON, or undefined when the body is not JSON. */
  body: T;
  text: string;
}

export interface TestServer {
  base: string;
  db: TestDatabase;
  config: Config;
  /** The app's byte cache (src/server/cache/byte-cache.ts): its counts (0 when off), and `clear` after a write behind the services' back. */
  cache: { readonly hits: number; readonly misses: number; clear(): void };
  /** The webhook dispatcher of the app (not started: tests run its passes, or start it). */
  webhooks: WebhookDispatcher;
  /** User IDs by role. */
  users: Record<TestRole, number>;
  /** `fetch` wrapper: path relative to the server (`/wp-json/...`), optional Basic auth by role. */
  request<T = any>(path: string, opts?: RequestOptions): Promise<TestResponse<T>>;
  /** `request` under `/wp-json/cal/events/v1`. */
  api<T = any>(path: string, opts?: RequestOptions): Promise<TestResponse<T>>;
  /** POST `body` to an `api` path as `as` (admin by default); throws unless the answer is 201, else returns the record. */
  create<T = any>(path: string, body: Record<string, unknown>, as?: TestRole): Promise<T>;
  /** POST /graphql; fails on transport errors, returns `{data, errors}`. */
  graphql<T = any>(query: string, variables?: Record<string, unknown>, as?: TestRole): Promise<{ data?: T; errors?: { message: string }[] }>;
  authHeader(role: TestRole): string;
  /** Empties the database and recreates the users (IDs restart). */
  reset(): Promise<void>;
  close(): Promise<void>;
}

export interface TestServerOptions {
  /** Environment overrides for loadConfig (CAL_*). */
  env?: Record<string, string>;
  /** Fixed request clock; default SAMPLE_CLOCK. `null` = real time. */
  now?: Date | null;
  /** Change bus of this server; default the process-wide in-process bus. */
  changes?: ChangeBus;
  /** Sees every SQL statement the server's database runs. */
  onQuery?: (sql: string) => void;
}

/**
 * One test server for the file's tests: started before them (handed to `started`, which may seed it
 * before the tests run), closed after them.
 */
export function useTestServer(started: (server: TestServer) => unknown, opts: TestServerOptions = {}): void {
  let server: TestServer | undefined;
  beforeAll(async () => {
    server = await startTestServer(opts);
    await started(server);
  });
  afterAll(async () => {
    await server?.close();
  });
}

/**
 * The real Koa app (`buildApp`) on an ephemeral port over a fresh test database (PGlite, or
 * PostgreSQL with TEST_BACKEND=postgres), with an administrator bootstrapped by `ensureAdmin` and
 * one user of every other role.
 */
/**
 * A request on a kept-alive connection the server closed while this process was busy (an import
 * running in the same process as the server) fails once with `fetch failed`: ask again on a new one.
 */
export async function retried<T>(ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (error) {
    if ((error as Error).message !== 'fetch failed') throw error;
    return ask();
  }
}

export async function startTestServer(opts: TestServerOptions = {}): Promise<TestServer> {
  const db = await createTestDatabase({ onQuery: opts.onQuery });
  const config = loadConfig({ CAL_TIMEZONE: SAMPLE_TIMEZONE, CAL_LOG_LEVEL: 'silent', CAL_ADMIN_LOGIN: ADMIN_LOGIN, CAL_ADMIN_PASSWORD: passwordOf(ADMIN_LOGIN), ...opts.env });
  const logger = pino({ level: process.env.TEST_LOG_LEVEL ?? 'silent' });
  const fixed = opts.now === undefined ? SAMPLE_CLOCK : opts.now;
  const { app, bytes, freshness, websockets, webhooks } = buildApp({ config, db, logger, now: fixed ? () => new Date(fixed) : undefined, changes: opts.changes });
  const users = {} as Record<TestRole, number>;

  async function createUsers() {
    await ensureAdmin(db.prisma, ADMIN_LOGIN, passwordOf(ADMIN_LOGIN));
    users.admin = (await db.prisma.user.findUniqueOrThrow({ where: { login: ADMIN_LOGIN } })).id;
    for (const [name, role] of Object.entries(ROLE) as [Exclude<TestRole, 'admin'>, (typeof ROLE)[keyof typeof ROLE]][]) {
      const u = await db.prisma.user.create({ data: { login: name, displayName: name, role, passwordHash: await hashPassword(passwordOf(name)) } });
      users[name] = u.id;
    }
  }
  await createUsers();

  const server: Server = app.listen(0, '127.0.0.1');
  websockets.attach(server);
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  webhooks.setOrigin(base);

  const authHeader = (role: TestRole) => {
    const login = role === 'admin' ? ADMIN_LOGIN : role;
    return 'Basic ' + Buffer.from(`${login}:${passwordOf(login)}`).toString('base64');
  };

  // Every REST answer is checked against the document the server publishes (openapi-check.ts).
  const checkAnswer = answerChecker(base);

  async function request<T>(path: string, o: RequestOptions = {}): Promise<TestResponse<T>> {
    const headers: Record<string, string> = { ...o.headers };
    if (o.as) headers.Authorization = authHeader(o.as);
    let body: BodyInit | undefined;
    let sent: unknown;
    let form = false;
    if (o.body !== undefined && o.body !== null) {
      if (typeof o.body === 'string' || o.body instanceof Uint8Array || o.body instanceof FormData || o.body instanceof URLSearchParams) {
        body = o.body as BodyInit;
        form = true;
      } else {
        body = JSON.stringify(o.body);
        sent = o.body;
        if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
      }
    }
    const res = await fetch(base + path, { method: o.method ?? 'GET', headers, body, redirect: 'manual' });
    const text = await res.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const method = o.method ?? 'GET';
    await checkAnswer({ method, url: path, requestHeaders: headers, sent, form, status: res.status, headers: res.headers, body: parsed, text });
    return { status: res.status, headers: res.headers, body: parsed as T, text };
  }
  const api = <T = any>(path: string, o?: RequestOptions) => request<T>(`/wp-json/cal/events/v1${path}`, o);

  return {
    base,
    db,
    config,
    cache: {
      get hits() {
        return bytes?.hits ?? 0;
      },
      get misses() {
        return bytes?.misses ?? 0;
      },
      clear: () => freshness?.clear(),
    },
    users,
    webhooks,
    request,
    api,
    async create(path, body, as = 'admin') {
      const r = await api(path, { method: 'POST', as, body });
      if (r.status !== 201) throw new Error(`POST ${path} → ${r.status} ${r.text}`);
      return r.body;
    },
    async graphql<T>(query: string, variables: Record<string, unknown> = {}, as: TestRole = 'admin') {
      const r = await request<{ data?: T; errors?: { message: string }[] }>('/graphql', { method: 'POST', as, body: { query, variables } });
      if (r.status !== 200) throw new Error(`GraphQL answered ${r.status}: ${r.text}`);
      return r.body;
    },
    authHeader,
    async reset() {
      await db.reset();
      freshness?.clear(); // the database was emptied behind the services' back: no change was published
      clearCredentialCache();
      resetThrottle();
      await createUsers();
    },
    async close() {
      await webhooks.stop();
      await websockets.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}
