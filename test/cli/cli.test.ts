import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/db/database.ts';
import { main } from '../../src/cli/main.ts';
import { clearCredentialCache, verifyCredentials } from '../../src/services/users.ts';
import { pgliteTemplateImage, testBackend } from '../helpers/database.ts';
import { runCli, type CliRun } from '../helpers/process.ts';

let dataDir: string;

function embeddedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CAL_DATA_DIR: dataDir };
  delete env.DATABASE_URL;
  return env;
}

/** `npm run cal -- …` as a process (what the exit code and the streams are), embedded database in a temporary directory. */
function calProcess(args: string[]): Promise<CliRun> {
  return runCli(args, embeddedEnv());
}

/**
 * The same command through the CLI's `main()` in this process, with the lines it writes captured:
 * a process per command costs a Node start and a TypeScript load each (most of this file's time),
 * and what a command does to the database does not depend on it.
 */
async function cal(args: string[], stdin = ''): Promise<CliRun> {
  let stdout = '';
  let stderr = '';
  const code = await main(args, { out: (l) => (stdout += l + '\n'), err: (l) => (stderr += l + '\n'), env: embeddedEnv(), readStdin: () => stdin });
  return { code, stdout, stderr };
}

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cal-cli-'));
  // Start from the migrated empty database, as the built server does: from the TypeScript sources
  // the first command would otherwise run every migration through the schema engine (most of this
  // file's CPU time).
  const loadDataDir = await pgliteTemplateImage();
  if (loadDataDir) await (await openDatabase(undefined, { dataDir, loadDataDir })).close();
});
afterAll(async () => {
  await rm(dataDir, { recursive: true, force: true, maxRetries: 5 });
});

/**
 * Budgets: measured with the machine's 2 cores under a load average of ~25 (other test runs and
 * builds beside it): the two CLI processes 12–21 s, the in-process scenario (19 commands, each
 * opening the embedded database) 40 s, one process 6 s; each budget is 3–7× that.
 */
const PROCESS_PAIR_BUDGET_MS = 60_000;
const SCENARIO_BUDGET_MS = 160_000;
const ONE_PROCESS_BUDGET_MS = 45_000;

// The CLI runs on the embedded database here (DATABASE_URL unset): the PostgreSQL project would run
// the very same thing a second time.
describe.skipIf(testBackend === 'postgres')('cal CLI', () => {
  it('prints help without touching the database; refuses bad command lines with exit code 2', async () => {
    const help = await calProcess(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('user:create --login L');
    expect(help.stdout).toContain('app-password:revoke --uuid U');
    const bad = await calProcess(['frobnicate']);
    expect(bad.code).toBe(2);
    expect(bad.stderr.split('\n')[0]).toBe('cal: unknown command "frobnicate"');
    expect(bad.stdout).toBe('');

    for (const args of [['user:create', '--login', 'x', '--role', 'author'], ['user:list', '--bogus'], ['user:create', '--login', 'x', '--password', 'long enough', '--role', 'king']]) {
      const r = await cal(args);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.stderr.split('\n')[0]).toMatch(/^cal: /);
      expect(r.stdout).toBe('');
    }
  }, PROCESS_PAIR_BUDGET_MS);

  it('manages users and application passwords end to end', async () => {
    // create (password on the command line, then one from stdin)
    let r = await cal(['user:create', '--login', 'alice', '--password', 'first password', '--role', 'editor', '--email', 'alice@example.com']);
    expect(r.stderr).toBe('');
    expect(r).toMatchObject({ code: 0 });
    expect(r.stdout).toMatch(/^created user alice \(id \d+, editor\)\n$/);
    r = await cal(['user:create', '--login', 'bob', '--password-stdin', '--role', 'ADMINISTRATOR'], 'bob password\n');
    expect(r.code).toBe(0);

    // core refusals: exit code 1 and a one-line message
    r = await cal(['user:create', '--login', 'alice', '--password', 'another one', '--role', 'author']);
    expect(r.code).toBe(1);
    expect(r.stderr.trim()).toBe('cal: user:create: A user with that login exists.');
    r = await cal(['user:create', '--login', 'carol', '--password', 'short', '--role', 'author']);
    expect(r).toMatchObject({ code: 1, stderr: 'cal: user:create: password must have 8 to 200 characters.\n' });

    // list
    r = await cal(['user:list']);
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^ID\s+LOGIN\s+ROLE\s+EMAIL\s+NAME$/);
    expect(r.stdout).toMatch(/alice\s+editor\s+alice@example\.com\s+alice/);
    r = await cal(['user:list', '--json', '--role', 'administrator']);
    expect(JSON.parse(r.stdout)).toMatchObject([{ login: 'bob', role: 'administrator' }]);

    // reset password
    r = await cal(['user:password', '--login', 'alice', '--password', 'second password']);
    expect(r).toMatchObject({ code: 0, stdout: 'password of alice changed\n' });
    r = await cal(['user:password', '--login', 'nobody', '--password', 'second password']);
    expect(r).toMatchObject({ code: 1, stderr: 'cal: user:password: No user has the login "nobody".\n' });

    // application passwords: shown once at creation, listed without it, revoked
    r = await cal(['app-password:create', '--login', 'alice', '--name', 'deploy']);
    expect(r.code).toBe(0);
    const appPassword = /^password: (.+)$/m.exec(r.stdout)![1];
    const uuid = /^uuid:\s+(\S+)$/m.exec(r.stdout)![1];
    expect(appPassword).toMatch(/^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/);
    expect(r.stderr).toContain('shown this once');
    r = await cal(['app-password:create', '--login', 'alice', '--name', 'second', '--json']);
    const second = JSON.parse(r.stdout) as { uuid: string; password: string; name: string };
    expect(second).toMatchObject({ login: 'alice', name: 'second' });

    r = await cal(['app-password:list', '--login', 'alice']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(uuid);
    expect(r.stdout).toContain('deploy');
    expect(r.stdout).not.toContain(appPassword);
    r = await cal(['app-password:list', '--login', 'alice', '--json']);
    expect(JSON.parse(r.stdout).map((a: { name: string }) => a.name)).toEqual(['deploy', 'second']);

    r = await cal(['app-password:revoke', '--uuid', second.uuid]);
    expect(r).toMatchObject({ code: 0, stdout: `revoked application password "second" (${second.uuid})\n` });
    r = await cal(['app-password:revoke', '--uuid', second.uuid]);
    expect(r).toMatchObject({ code: 1, stderr: 'cal: app-password:revoke: No application password has that ID.\n' });

    // delete
    r = await cal(['user:create', '--login', 'temp', '--password', 'long enough', '--role', 'subscriber']);
    r = await cal(['user:delete', '--login', 'temp']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^deleted user temp \(id \d+\)\n$/);
    r = await cal(['user:delete', '--login', 'temp']);
    expect(r.code).toBe(1);

    // What the CLI wrote is what the server would read.
    const db = await openDatabase(undefined, { dataDir });
    try {
      clearCredentialCache();
      expect(await verifyCredentials(db.prisma, 'alice', 'first password')).toBeNull();
      expect(await verifyCredentials(db.prisma, 'alice', 'second password')).toMatchObject({ login: 'alice', role: 'EDITOR' });
      expect(await verifyCredentials(db.prisma, 'bob', 'bob password')).toMatchObject({ role: 'ADMINISTRATOR' });
      expect(await verifyCredentials(db.prisma, 'alice', appPassword)).toMatchObject({ login: 'alice' });
      expect(await verifyCredentials(db.prisma, 'alice', second.password)).toBeNull();
      expect(await db.prisma.user.count({ where: { login: 'temp' } })).toBe(0);
    } finally {
      await db.close();
    }
  }, SCENARIO_BUDGET_MS);

  it('explains a database it cannot open in one line', async () => {
    const env = { ...process.env, DATABASE_URL: 'mysql://nope' };
    const r = await runCli(['user:list'], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe('cal: DATABASE_URL: unsupported scheme "mysql:"; use postgres://…, memory: or leave it unset\n');
  }, ONE_PROCESS_BUDGET_MS);
});
