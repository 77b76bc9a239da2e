/**
 * A failed import on a terminal: progress bars (cli-progress redraws them on a timer) used to keep
 * the process alive for minutes after the failure, and the failure line was glued to the last bar.
 * Run on a pseudo-terminal (util-linux `script`), the CLI must print the failure on its own line
 * and exit non-zero promptly. And the `cal` bin (`npx cal`) prints `--json` output alone.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/process.ts';
import { startTecSite, type TecSite } from '../helpers/tec-site.ts';

const root = path.resolve(import.meta.dirname, '../..');
const hasScript = spawnSync('script', ['--version']).status === 0;
let dataDir: string;
let source: TecSite;

const env = (): NodeJS.ProcessEnv => {
  const e: NodeJS.ProcessEnv = { ...process.env, CAL_DATA_DIR: dataDir, TERM: 'xterm' };
  delete e.DATABASE_URL;
  return e;
};
const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'cal-tty-'));
  // A The Events Calendar site whose event lists are gone: the import fails on its first list.
  source = await startTecSite({});
  const admin = await runCli(['user:create', '--login', 'admin', '--password', 'long enough secret', '--role', 'administrator'], env());
  expect(admin.code, admin.stderr).toBe(0);
}, 300_000);
afterAll(async () => {
  await source?.close();
  await rm(dataDir, { recursive: true, force: true });
});

/** Runs a command on a pseudo-terminal; resolves with its exit code, output, and how long it lived after printing `marker`. */
function onTerminal(command: string, marker: string, giveUpMs: number): Promise<{ code: number | null; output: string; afterMarkerMs: number | null }> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qefc', command, '/dev/null'], { cwd: root, env: env(), stdio: ['pipe', 'pipe', 'pipe'] });
    let output = '';
    let seen: number | null = null;
    const onData = (d: Buffer) => {
      output += d;
      if (seen === null && output.includes(marker)) seen = Date.now();
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    // Never exiting is the failure under test: give up after a long while rather than hang the suite.
    const giveUp = setTimeout(() => child.kill('SIGKILL'), giveUpMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(giveUp);
      resolve({ code, output, afterMarkerMs: seen === null ? null : Date.now() - seen });
    });
  });
}

describe('import on a terminal', { timeout: 300_000 }, () => {
  it.skipIf(!hasScript)('a failed import prints its failure on its own line and exits non-zero at once', async () => {
    const cli = `${quote(process.execPath)} --import tsx src/cli/main.ts import --from ${source.root} --login admin --password x`;
    const run = await onTerminal(cli, 'cal: import failed', 120_000);
    const text = run.output.replace(/\u001b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
    expect(text).toMatch(/categories/); // the progress bars were drawn
    expect(text).toMatch(/^cal: import failed: .*answered 404/m);
    expect(run.code).toBe(1);
    // Measured from the failure line: the process used to stay until killed (minutes).
    expect(run.afterMarkerMs).not.toBeNull();
    expect(run.afterMarkerMs!).toBeLessThan(10_000);
  });

  it('`cal` bin: --json output is JSON alone, without npm banner', async () => {
    const child = spawnSync(process.execPath, [path.join(root, 'src/cli/cal.mjs'), 'user:list', '--json'], { cwd: root, env: env(), encoding: 'utf8', timeout: 240_000 });
    expect(child.status, child.stderr).toBe(0);
    const users = JSON.parse(child.stdout);
    expect(users.map((u: { login: string }) => u.login)).toEqual(['admin']);
  });
});
