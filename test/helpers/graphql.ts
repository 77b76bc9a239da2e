import { afterAll, beforeAll, beforeEach } from 'vitest';
import { defaultSiteSettings, loadConfig } from '../../src/server/config.ts';
import { SAMPLE_TIMEZONE } from './server.ts';
import { createContext, type SiteSettings, type Viewer } from '../../src/services/context.ts';
import { hashPassword } from '../../src/services/users.ts';
import { createExecutor, createGraphQLServer } from '../../src/server/yoga.ts';
import { schema } from '../../schema/index.ts';
import { createTestDatabase } from './database.ts';

export type Role = Viewer['role'];

/**
 * In-process GraphQL against a real, migrated database (PGlite, or PostgreSQL when
 * TEST_DATABASE_URL is set): `gql(query, variables, { as })` runs an operation as a user.
 */
export async function createGraphQLHarness(opts: { settings?: Partial<SiteSettings>; now?: () => Date; onQuery?: (sql: string) => void } = {}) {
  const db = await createTestDatabase({ onQuery: (sql) => opts.onQuery?.(sql) });
  const yoga = createGraphQLServer(schema, {
    logger: { error: (o: { err?: unknown }, m: string) => console.error(m, o.err) },
    limits: loadConfig({}).graphql,
  });
  const settings = { ...defaultSiteSettings, timezone: SAMPLE_TIMEZONE, ...opts.settings };
  // Promises, not users: concurrent first calls for a role share one upsert (two would race on the login).
  const users = new Map<Role, Promise<Viewer>>();

  function userFor(role: Role): Promise<Viewer> {
    let viewer = users.get(role);
    if (!viewer) {
      const login = role.toLowerCase();
      viewer = (async () => {
        const u = await db.prisma.user.upsert({
          where: { login },
          create: { login, role, displayName: login, passwordHash: await hashPassword('password-' + login) },
          update: {},
        });
        return { id: u.id, login, role };
      })();
      viewer.catch(() => users.delete(role));
      users.set(role, viewer);
    }
    return viewer;
  }

  async function gql<T = any>(
    query: string,
    variables: Record<string, unknown> = {},
    options: { as?: Role | Viewer | null; now?: Date } = {},
  ): Promise<{ data?: T; errors?: { message: string; extensions?: Record<string, unknown> }[] }> {
    const as = options.as === undefined ? 'ADMINISTRATOR' : options.as;
    const viewer = as === null ? null : typeof as === 'string' ? await userFor(as) : as;
    const cal = createContext({ prisma: db.prisma, settings, viewer, now: options.now ?? opts.now?.() });
    const response = await yoga.fetch(
      'http://test/graphql',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, variables }) },
      { cal },
    );
    return (await response.json()) as never;
  }

  /** Like gql, but fails the test on any GraphQL error and returns `data`. */
  async function ok<T = any>(query: string, variables: Record<string, unknown> = {}, options: { as?: Role | Viewer | null; now?: Date } = {}) {
    const result = await gql<T>(query, variables, options);
    if (result.errors?.length) throw new Error(`GraphQL errors: ${JSON.stringify(result.errors)}`);
    return result.data as T;
  }

  /**
   * Runs an operation that must fail with exactly one GraphQL error (a read refused): returns the
   * error's `message` and `extensions` (`code`, `field`, `type`) in one object.
   */
  async function refused(query: string, variables: Record<string, unknown> = {}, options: { as?: Role | Viewer | null; now?: Date } = {}) {
    const result = await gql(query, variables, options);
    if (result.errors?.length !== 1) throw new Error(`expected one GraphQL error, got ${JSON.stringify(result)}`);
    const [error] = result.errors;
    return { message: error!.message, ...error!.extensions };
  }

  return {
    db,
    /** The in-process executor the REST facade and the pages run their operations with. */
    executor: createExecutor(yoga),
    /** The GraphQL context of a request by `as` (what the executor runs with). */
    async contextFor(as: Role | null = 'ADMINISTRATOR', now?: Date) {
      return createContext({ prisma: db.prisma, settings, viewer: as === null ? null : await userFor(as), now: now ?? opts.now?.() });
    },
    gql,
    ok,
    refused,
    userFor,
    async reset() {
      users.clear();
      await db.reset();
    },
    close: () => db.close(),
  };
}

export type GraphQLHarness = Awaited<ReturnType<typeof createGraphQLHarness>>;
type HarnessOptions = Parameters<typeof createGraphQLHarness>[0];

/** One harness for the file's tests (handed to `started`): an empty database before each test, closed after them all. */
export function useGraphQLHarness(started: (harness: GraphQLHarness) => void, opts?: HarnessOptions): void {
  let harness: GraphQLHarness | undefined;
  beforeAll(async () => {
    harness = await createGraphQLHarness(opts);
    started(harness);
  });
  afterAll(() => harness?.close());
  beforeEach(() => harness?.reset());
}
