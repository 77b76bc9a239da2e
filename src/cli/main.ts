/**
 * Operator CLI over the same core as the server: `npm run cal -- <command> [options]`.
 * Opens the database the server uses (DATABASE_URL, or the embedded one in CAL_DATA_DIR), applies
 * pending migrations, and calls the services as a synthetic administrator.
 */
import { createWriteStream, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import type { UserRole } from '../../prisma/generated/client/client.ts';
import { ConfigError, loadConfig } from '../server/config.ts';
import { createContext, type Context, type Viewer } from '../services/context.ts';
import { openSharedGeneration } from '../server/cache/freshness.ts';
import { createPurger } from '../server/cache/purge.ts';
import { DatabaseConfigError, openDatabase, type Database } from '../db/database.ts';
import { applyMigrations, MigrationError, resolveFailedMigration } from '../db/migrate.ts';
import { DomainError } from '../domain/errors.ts';
import {
  createApplicationPassword,
  createUser,
  deleteUser,
  findUserByLogin,
  listApplicationPasswords,
  listUsers,
  revokeApplicationPassword,
  updateUser,
  USER_ROLES,
} from '../services/users.ts';
import { addWebhookEndpoint, listWebhookEndpoints, removeWebhookEndpoint, WEBHOOK_TYPES, type WebhookType } from '../services/webhooks.ts';
import { CHANGE_ACTIONS, createLocalChangeBus, type ChangeAction } from '../services/changes.ts';
import { exportAll } from '../transfer/export.ts';
import { importFromIcs } from '../transfer/ics-import.ts';
import { importFromFile, importFromSource, KINDS, type Summary } from '../transfer/import.ts';
import { createProgress } from '../transfer/progress.ts';

/**
 * The CLI acts as this administrator. Its ID matches no user, so services never treat it as the
 * owner of anything: application passwords always name their user explicitly.
 */
export const CLI_VIEWER: Viewer = { id: 0, login: 'cli', role: 'ADMINISTRATOR' };

export const EXIT_OK = 0;
/** Refused by the core (validation, not found, conflict) or the database failed. */
export const EXIT_FAILURE = 1;
/** Bad command line. */
export const EXIT_USAGE = 2;

const USAGE = `Usage: npx cal <command> [options]      (or: npm run -s cal -- <command> [options])

Commands:
  user:create --login L (--password P | --password-stdin) --role R [--email E] [--display-name N]
  user:list [--role R] [--json]
  user:password --login L (--password P | --password-stdin)     reset a user's password
  user:delete --login L
  app-password:create --login L --name N [--json]                prints the password once
  app-password:list --login L [--json]
  app-password:revoke --uuid U
  webhook:add --url U [--types T,…] [--actions A,…] [--description D] [--json]
                                       register a webhook endpoint; prints its signing secret
                                       (types: ${WEBHOOK_TYPES.map((t) => t.toLowerCase()).join(', ')};
                                       actions: ${CHANGE_ACTIONS.map((a) => a.toLowerCase()).join(', ')}; none: all)
  webhook:list [--json]                the endpoints, enabled or why not, their pending deliveries
  webhook:remove --id N                remove an endpoint with its queue and attempts
  migrate:resolve (--applied NAME | --rolled-back NAME)           record how a failed migration ended
  import --from URL [--login L --password P] [--author LOGIN] [--prune] [--dry-run] [--json] [--concurrency N]
                                       from a site (https://site.example/: its REST API is found as
                                       WordPress clients find it) or a REST root (…/wp-json/tribe/events/v1,
                                       …/wp-json/cal/events/v1, …/?rest_route=/tribe/events/v1)
  import --file F [--owner LOGIN] [--dry-run] [--json]
                                       restore an export; into a fresh database too (migrations
                                       applied, accounts restored from the file first); --owner:
                                       the account (here or in the file) that gets records whose
                                       author is not in the file (default: the first administrator)
  import --ics URL|FILE [--category SLUG] [--author LOGIN] [--login L --password P] [--prune] [--dry-run] [--json]
                                       an iCalendar feed (Google, Outlook, Nextcloud, cal-events' /events.ics;
                                       http, https or webcal): events, series and overrides, kept by UID
  export [--out F] [--with-users]      the whole calendar as JSON lines (stdout by default): series,
                                       image files, users; --with-users adds their password and
                                       application-password hashes (without: no one can sign in
                                       after a restore until user:password sets a password)

Roles: ${USER_ROLES.map((r) => r.toLowerCase()).join(', ')} (any case).
--password-stdin reads the password from the first line of standard input (keeps it out of ps and shell history).

Environment: DATABASE_URL (postgres://…, memory:, or unset for the embedded database in
CAL_DATA_DIR, default ./data). Stop the server first when it uses the embedded database.

A migration that failed is applied again at the next start when it left no changes; otherwise the
start stops and names it: repair the database, then migrate:resolve --applied NAME (its changes are
in place) or --rolled-back NAME (they are not; the next start applies it again).

Exit codes: 0 done, 1 refused or failed, 2 bad command line.`;

export interface Io {
  out: (line: string) => void;
  err: (line: string) => void;
  env: NodeJS.ProcessEnv;
  readStdin: () => string;
  /** Where progress goes (default: standard error). */
  progress?: NodeJS.WriteStream;
}

class UsageError extends Error {}

type Options = NonNullable<ParseArgsConfig['options']>;
type Values = Record<string, string | boolean | undefined>;

interface Command {
  options: Options;
  required: string[];
  /** false: run on the database as it is, without applying pending migrations first. */
  migrate?: boolean;
  run(ctx: Context, v: Values, io: Io, db: Database): Promise<void>;
}

const str = { type: 'string' } as const;
const flag = { type: 'boolean' } as const;

function parseRole(value: string): UserRole {
  const role = value.toUpperCase() as UserRole;
  if (!USER_ROLES.includes(role)) throw new UsageError(`unknown role "${value}"; use one of ${USER_ROLES.map((r) => r.toLowerCase()).join(', ')}`);
  return role;
}

function password(v: Values, io: Io): string {
  if (v['password-stdin']) {
    const line = io.readStdin().split(/\r?\n/)[0] ?? '';
    if (!line) throw new UsageError('--password-stdin: nothing on standard input');
    return line;
  }
  if (typeof v.password !== 'string') throw new UsageError('missing --password (or --password-stdin)');
  return v.password;
}

const fmtDate = (d: Date | null) => (d ? d.toISOString() : '-');

function table(rows: string[][]): string[] {
  const widths = (rows[0] ?? []).map((_, i) => Math.max(...rows.map((r) => r[i]?.length ?? 0)));
  return rows.map((r) => r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  '));
}

function parseList<T extends string>(value: unknown, allowed: readonly T[], option: string): T[] {
  if (typeof value !== 'string') return [];
  const list = value.split(',').map((v) => v.trim().toUpperCase()).filter(Boolean);
  const bad = list.find((v) => !(allowed as readonly string[]).includes(v));
  if (bad !== undefined) throw new UsageError(`--${option}: unknown "${bad.toLowerCase()}"; use ${allowed.map((a) => a.toLowerCase()).join(', ')}`);
  return list as T[];
}

const commands: Record<string, Command> = {
  'webhook:add': {
    options: { url: str, types: str, actions: str, description: str, json: flag },
    required: ['url'],
    async run(ctx, v, io) {
      const endpoint = await addWebhookEndpoint(ctx, {
        url: v.url as string,
        types: parseList<WebhookType>(v.types, WEBHOOK_TYPES, 'types'),
        actions: parseList<ChangeAction>(v.actions, CHANGE_ACTIONS, 'actions'),
        description: v.description as string | undefined,
      });
      if (v.json) return io.out(JSON.stringify({ id: endpoint.id, url: endpoint.url, secret: endpoint.secret, types: endpoint.types, actions: endpoint.actions }));
      io.out(`added webhook endpoint ${endpoint.id}: ${endpoint.url}`);
      io.out(`secret: ${endpoint.secret}`);
      io.err('Verify deliveries with this secret (docs/webhooks.md).');
    },
  },
  'webhook:list': {
    options: { json: flag },
    required: [],
    async run(ctx, v, io) {
      const endpoints = await listWebhookEndpoints(ctx);
      const pending = await ctx.prisma.webhookDelivery.groupBy({ by: ['endpointId'], where: { status: 'PENDING' }, _count: { _all: true } });
      const pendingOf = (id: number) => pending.find((p) => p.endpointId === id)?._count._all ?? 0;
      if (v.json) return io.out(JSON.stringify(endpoints.map(({ secret: _s, ...e }) => ({ ...e, pending: pendingOf(e.id) }))));
      if (!endpoints.length) return io.out('no webhook endpoints');
      const all = (list: string[]) => (list.length ? list.map((x) => x.toLowerCase()).join(',') : 'all');
      const rows = endpoints.map((e) => [
        String(e.id),
        e.url,
        all(e.types),
        all(e.actions),
        String(pendingOf(e.id)),
        e.enabled ? 'enabled' : `disabled: ${e.disabledReason ?? ''}`,
      ]);
      for (const line of table([['ID', 'URL', 'TYPES', 'ACTIONS', 'PENDING', 'STATE'], ...rows])) io.out(line);
    },
  },
  'webhook:remove': {
    options: { id: str },
    required: ['id'],
    async run(ctx, v, io) {
      const id = Number(v.id);
      if (!Number.isInteger(id) || id < 1) throw new UsageError('--id: a positive whole number (see webhook:list)');
      const endpoint = await removeWebhookEndpoint(ctx, id);
      io.out(`removed webhook endpoint ${endpoint.id}: ${endpoint.url}`);
    },
  },
  'user:create': {
    options: { login: str, password: str, 'password-stdin': flag, role: str, email: str, 'display-name': str },
    required: ['login', 'role'],
    async run(ctx, v, io) {
      const role = parseRole(v.role as string);
      const id = await createUser(ctx, {
        login: v.login as string,
        password: password(v, io),
        role,
        email: v.email as string | undefined,
        displayName: v['display-name'] as string | undefined,
      });
      io.out(`created user ${v.login as string} (id ${id}, ${role.toLowerCase()})`);
    },
  },
  'user:list': {
    options: { role: str, json: flag },
    required: [],
    async run(ctx, v, io) {
      const users = await listUsers(ctx, { role: v.role ? parseRole(v.role as string) : undefined });
      if (v.json) return io.out(JSON.stringify(users.map((u) => ({ ...u, role: u.role.toLowerCase() }))));
      if (!users.length) return io.out('no users');
      const rows = users.map((u) => [String(u.id), u.login, u.role.toLowerCase(), u.email || '-', u.displayName]);
      for (const line of table([['ID', 'LOGIN', 'ROLE', 'EMAIL', 'NAME'], ...rows])) io.out(line);
    },
  },
  'user:password': {
    options: { login: str, password: str, 'password-stdin': flag },
    required: ['login'],
    async run(ctx, v, io) {
      const pw = password(v, io);
      const user = await findUserByLogin(ctx, v.login as string);
      await updateUser(ctx, user.id, { password: pw });
      io.out(`password of ${user.login} changed`);
    },
  },
  'user:delete': {
    options: { login: str },
    required: ['login'],
    async run(ctx, v, io) {
      const user = await findUserByLogin(ctx, v.login as string);
      await deleteUser(ctx, user.id);
      io.out(`deleted user ${user.login} (id ${user.id})`);
    },
  },
  'app-password:create': {
    options: { login: str, name: str, json: flag },
    required: ['login', 'name'],
    async run(ctx, v, io) {
      const user = await findUserByLogin(ctx, v.login as string);
      const app = await createApplicationPassword(ctx, v.name as string, user.id);
      if (v.json) return io.out(JSON.stringify({ login: user.login, uuid: app.uuid, name: app.name, password: app.password }));
      io.out(`created application password "${app.name}" for ${user.login}`);
      io.out(`uuid:     ${app.uuid}`);
      io.out(`password: ${app.password}`);
      io.err('The password is shown this once; store it now.');
    },
  },
  'app-password:list': {
    options: { login: str, json: flag },
    required: ['login'],
    async run(ctx, v, io) {
      const user = await findUserByLogin(ctx, v.login as string);
      const apps = await listApplicationPasswords(ctx, user.id);
      if (v.json) return io.out(JSON.stringify(apps.map(({ userId: _u, ...a }) => a)));
      if (!apps.length) return io.out(`${user.login} has no application passwords`);
      const rows = apps.map((a) => [a.uuid, a.name, fmtDate(a.createdAt), fmtDate(a.lastUsedAt), a.lastIp ?? '-']);
      for (const line of table([['UUID', 'NAME', 'CREATED', 'LAST USED', 'LAST IP'], ...rows])) io.out(line);
    },
  },
  'app-password:revoke': {
    options: { uuid: str },
    required: ['uuid'],
    async run(ctx, v, io) {
      const revoked = await revokeApplicationPassword(ctx, v.uuid as string);
      io.out(`revoked application password "${revoked.name}" (${revoked.uuid})`);
    },
  },
  'migrate:resolve': {
    options: { applied: str, 'rolled-back': str },
    required: [],
    migrate: false,
    async run(_ctx, v, io, db) {
      const applied = v.applied as string | undefined;
      const rolledBack = v['rolled-back'] as string | undefined;
      if ((applied === undefined) === (rolledBack === undefined)) throw new UsageError('give --applied NAME or --rolled-back NAME');
      const name = (applied ?? rolledBack)!;
      if (!(await resolveFailedMigration(db, name, applied !== undefined ? 'applied' : 'rolled-back'))) {
        throw new UsageError(`no failed migration named "${name}"`);
      }
      io.out(`migration ${name} recorded as ${applied !== undefined ? 'applied' : 'rolled back'}`);
    },
  },
};

function printSummary(summary: Summary, v: Values, io: Io) {
  if (v.json) return io.out(JSON.stringify(summary));
  const rows = KINDS.map((k) => [k, ...(['created', 'updated', 'unchanged', 'skipped', 'failed'] as const).map((c) => String(summary.kinds[k][c]))]);
  for (const line of table([['KIND', 'CREATED', 'UPDATED', 'UNCHANGED', 'SKIPPED', 'FAILED'], ...rows])) io.out(line);
  io.out(`images: ${summary.images.imported} imported, ${summary.images.failed} failed${summary.pruned ? `; pruned: ${summary.pruned}` : ''}`);
  io.out(`authors: ${Object.entries(summary.authors).map(([from, to]) => `${from === '*' ? 'others' : `#${from}`} → ${to}`).join(', ')}`);
  io.out(`${summary.seconds} s, ${summary.rate} records/s${v['dry-run'] ? ' (dry run: nothing written)' : ''}`);
  for (const r of summary.repairs ?? []) io.out(`repaired: ${r.uid ? `UID ${r.uid}: ` : ''}${r.note}`);
  for (const f of summary.failures) io.out(`failed: ${f.kind} ${f.id ?? ''}: ${f.reason}`);
}

Object.assign(commands, {
  import: {
    options: { from: str, file: str, ics: str, category: str, login: str, password: str, author: str, owner: str, prune: flag, 'dry-run': flag, json: flag, concurrency: str },
    required: [],
    async run(ctx, v, io) {
      if ([v.from, v.file, v.ics].filter((x) => x !== undefined).length !== 1) throw new UsageError('give --from URL, --file F or --ics URL|FILE');
      if (v.category !== undefined && v.ics === undefined) throw new UsageError('--category goes with --ics');
      if ((v.login === undefined) !== (v.password === undefined)) throw new UsageError('--login and --password go together');
      if (v.owner !== undefined && !v.file) throw new UsageError('--owner goes with --file (an import from a site takes --author)');
      if (v.from) {
        try {
          const u = new URL(v.from as string);
          if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error();
        } catch {
          throw new UsageError(`--from: not an http(s) URL: ${v.from as string}`);
        }
      }
      const concurrency = v.concurrency === undefined ? undefined : Number(v.concurrency);
      if (concurrency !== undefined && !(Number.isInteger(concurrency) && concurrency >= 1 && concurrency <= 32)) throw new UsageError('--concurrency: a whole number from 1 to 32');
      const progress = createProgress(io.progress ?? process.stderr);
      const opts = {
        source: concurrency ? { concurrency } : undefined,
        from: v.from as string | undefined,
        file: v.file as string | undefined,
        login: v.login as string | undefined,
        password: v.password as string | undefined,
        author: (v.owner ?? v.author) as string | undefined,
        prune: v.prune === true,
        dryRun: v['dry-run'] === true,
      };
      let summary: Summary;
      try {
        summary = v.ics
          ? await importFromIcs(ctx, { ...opts, ics: v.ics as string, category: v.category as string | undefined }, progress)
          : opts.from
            ? await importFromSource(ctx, opts, progress)
            : await importFromFile(ctx, opts, progress);
      } finally {
        // On a terminal the bars redraw on a timer: stopped, they release the process and end their
        // line, so a failure is printed on a line of its own.
        progress.stop();
      }
      printSummary(summary, v, io);
    },
  },
  export: {
    options: { out: str, 'with-users': flag },
    required: [],
    async run(ctx, v, io) {
      const out = v.out ? createWriteStream(v.out as string) : process.stdout;
      const counts = await exportAll(ctx, out, { withUsers: v['with-users'] === true });
      if (v.out) await new Promise<void>((resolve, reject) => out.end((e?: Error | null) => (e ? reject(e) : resolve())));
      io.err(`exported ${Object.entries(counts).filter(([k]) => k !== 'meta').map(([k, n]) => `${n} ${k}`).join(', ')}`);
    },
  },
} satisfies Record<string, Command>);

function parse(argv: string[]): { name: string; command: Command; values: Values } | 'help' {
  const [name, ...rest] = argv;
  if (name === undefined || name === '--help' || name === '-h' || name === 'help') return 'help';
  const command = commands[name];
  if (!command) throw new UsageError(`unknown command "${name}"`);
  if (rest.includes('--help') || rest.includes('-h')) return 'help';
  let values: Values;
  try {
    values = parseArgs({ args: rest, options: command.options, strict: true, allowPositionals: false }).values as Values;
  } catch (e) {
    throw new UsageError(`${name}: ${(e as Error).message.split('\n')[0]}`);
  }
  const missing = command.required.filter((k) => values[k] === undefined);
  if ('password-stdin' in command.options && values.password === undefined && !values['password-stdin']) missing.push('password (or --password-stdin)');
  if (missing.length) throw new UsageError(`${name}: missing ${missing.map((k) => `--${k}`).join(', ')}`);
  if (values.password !== undefined && values['password-stdin']) throw new UsageError(`${name}: give --password or --password-stdin, not both`);
  if (typeof values.role === 'string') {
    try {
      parseRole(values.role);
    } catch (e) {
      throw new UsageError(`${name}: ${(e as Error).message}`);
    }
  }
  return { name, command, values };
}

/** Runs one command; returns the exit code. Never throws for expected failures. */
export async function main(argv: string[], io: Io = defaultIo()): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    io.err(`cal: ${e.message}`);
    io.err('Run `npx cal --help` for usage.');
    return EXIT_USAGE;
  }
  if (parsed === 'help') {
    io.out(USAGE);
    return EXIT_OK;
  }

  let db: Database | undefined;
  try {
    const { imageImport, site, purgeUrls, webhooks } = loadConfig(io.env);
    db = await openDatabase(io.env.DATABASE_URL, { dataDir: io.env.CAL_DATA_DIR || undefined });
    if (parsed.command.migrate !== false) await applyMigrations(db);
    // Its writes purge the shared cache in front too (CAL_PURGE_URL), as a server's do.
    const changes = createLocalChangeBus();
    const purger = purgeUrls.length ? createPurger({ urls: purgeUrls, logger: { warn: (_o, m) => io.err(`cal: ${m}`), info: () => {} }, repeatAfterMs: 0, autoFlush: false }) : null;
    if (purger) changes.onPublish(purger.hook);
    const ctx = createContext({ prisma: db.prisma, settings: site, viewer: CLI_VIEWER, imageImport, webhookUrls: webhooks.urls, changes });
    try {
      await parsed.command.run(ctx, parsed.values, io, db);
    } finally {
      await invalidateServerCaches(io.env.DATABASE_URL);
      await purger?.settled(10_000);
      await purger?.close();
    }
    return EXIT_OK;
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(`cal: ${parsed.name}: ${e.message}`);
      return EXIT_USAGE;
    }
    if (e instanceof DomainError) io.err(`cal: ${parsed.name}: ${e.message}`);
    else if (e instanceof DatabaseConfigError) io.err(`cal: ${e.message}`);
    else if (e instanceof ConfigError) io.err(`cal: invalid configuration: ${e.message}`);
    else if (e instanceof MigrationError) io.err(`cal: database setup failed: ${e.message}`);
    else io.err(`cal: ${parsed.name} failed: ${firstLine(e)}`);
    return EXIT_FAILURE;
  } finally {
    await db?.close().catch(() => {});
  }
}

/**
 * Servers on the same PostgreSQL answer reads from their caches: moving the shared generation on
 * after a command (it may have written, even if it failed halfway) makes their next reads fresh.
 * The embedded database has no other process to tell.
 */
async function invalidateServerCaches(databaseUrl: string | undefined): Promise<void> {
  const generation = openSharedGeneration(databaseUrl, { warn: () => {} });
  if (!generation) return;
  await generation.bump().catch(() => {}); // e.g. a database not migrated yet: no server runs on it
  await generation.close().catch(() => {});
}

function firstLine(e: unknown): string {
  return (e instanceof Error ? e.message : String(e)).split('\n').find((l) => l.trim())?.trim() ?? 'unknown error';
}

function defaultIo(): Io {
  return {
    out: (line) => process.stdout.write(line + '\n'),
    err: (line) => process.stderr.write(line + '\n'),
    env: process.env,
    readStdin: () => readFileSync(0, 'utf8'),
  };
}

/**
 * Runs the CLI as this process (`npx cal`, `npm run cal --`): the exit code is main's, and the
 * process ends once the command has; should anything still hold the event loop by then (a
 * connection a driver keeps alive, a library's timer), it is not left to wait for it.
 */
export async function runAsProcess(argv: string[]): Promise<void> {
  const code = await main(argv);
  process.exitCode = code;
  setTimeout(() => process.exit(code), 500).unref();
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await runAsProcess(process.argv.slice(2));
}
