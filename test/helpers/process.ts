import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const root = path.resolve(import.meta.dirname, '../..');

/** node itself with tsx's loader (not the tsx CLI, whose child would outlive a SIGKILL of it). */
const SERVER_COMMAND = [process.execPath, '--import', 'tsx', 'src/server/main.ts'] as const;

export interface LaunchedServer {
  child: ChildProcess;
  /** The base URL once the server says it listens; rejects when it exits first. */
  listening: Promise<string>;
  exited: Promise<number | null>;
  /** Everything it printed so far, both streams in arrival order, and each stream alone. */
  output: () => string;
  stdout: () => string;
  stderr: () => string;
  stop: () => void;
}

export interface ServerProcess extends Omit<LaunchedServer, 'listening'> {
  base: string;
}

/** A loopback port free at the time of asking. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const launched = new Set<ChildProcess>();

/**
 * Starts a server process on an ephemeral port (by default `src/server/main.ts`; `command` runs
 * another launcher, e.g. `npm start`) without waiting for it: tests that expect a refusal await
 * `exited`, the others `listening`.
 */
export function launchServerProcess(env: Record<string, string>, command: readonly string[] = SERVER_COMMAND): LaunchedServer {
  const child = spawn(command[0]!, command.slice(1), {
    cwd: root,
    env: { ...process.env, CAL_LOG_LEVEL: 'info', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  launched.add(child);
  let all = '';
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => ((stdout += d), (all += d)));
  child.stderr!.on('data', (d) => ((stderr += d), (all += d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => (launched.delete(child), resolve(code))));
  const listening = new Promise<string>((resolve, reject) => {
    const timer = setInterval(() => {
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(stdout);
      if (m) {
        clearInterval(timer);
        resolve(m[1]!);
      }
    }, 50);
    void exited.then((code) => {
      clearInterval(timer);
      reject(new Error(`exited (${code}) before listening: ${all}`));
    });
  });
  listening.catch(() => {}); // awaited only by tests that expect the server to come up
  const stop = () => void (child.exitCode === null && child.kill('SIGKILL'));
  return { child, listening, exited, output: () => all, stdout: () => stdout, stderr: () => stderr, stop };
}

/** Starts `src/server/main.ts` as a real process on an ephemeral port; resolves once it listens. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerProcess> {
  const { listening, ...server } = launchServerProcess(env);
  return { ...server, base: await listening };
}

/** Kills every server process the helpers started that still runs (an `afterEach`/`afterAll`). */
export function stopServerProcesses(): void {
  for (const child of launched) if (child.exitCode === null) child.kill('SIGKILL');
  launched.clear();
}

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** `npm run cal -- …` without npm: node with tsx's loader on `src/cli/main.ts`, waiting for it to exit. */
export function runCli(args: string[], env: NodeJS.ProcessEnv, stdin = ''): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'src/cli/main.ts'), ...args], { cwd: root, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}

/** A repository script run with tsx as CI runs it (`schema/print.ts --check`, …): its exit code and both streams together. */
export async function runScript(args: string[]): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(path.join(root, 'node_modules/.bin/tsx'), args, { cwd: root });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}
