import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

/**
 * A PostgreSQL server of the script's own, in a directory of its own (initdb, pg_ctl) on a port of
 * its own: restarting it never touches the machine's PostgreSQL. As root (CI), the binaries run as
 * the `postgres` user, which PostgreSQL requires.
 */
export interface PostgresServer {
  /** postgres://… of the database `cal`. */
  url: string;
  /** `pg_ctl restart -m fast`: connections are ended, the server is back when this resolves. */
  restart(): Promise<void>;
  /** Immediate stop (no checkpoint: the directory is thrown away after). */
  stop(): void;
}

/** The binaries of the newest PostgreSQL installed (PG_BIN to choose). */
function pgBin(): string | null {
  if (process.env.PG_BIN) return process.env.PG_BIN;
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => existsSync(path.join(root, v, 'bin/initdb')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? path.join(root, versions[0], 'bin') : null;
}

const isRoot = () => process.getuid?.() === 0;

function postgresUser(): { uid: number; gid: number } | null {
  try {
    return { uid: Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' })), gid: Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' })) };
  } catch {
    return null;
  }
}

/** Why no PostgreSQL of our own can run here; null when it can. */
export function postgresMissing(): string | null {
  const bin = pgBin();
  if (!bin || !existsSync(path.join(bin, 'pg_ctl'))) return 'no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin (apt-get install postgresql; or set PG_BIN)';
  if (isRoot() && (!postgresUser() || !existsSync('/usr/sbin/runuser'))) return 'running as root without a `postgres` user and runuser to run initdb as';
  return null;
}

export async function startPostgres(dir: string, port: number): Promise<PostgresServer> {
  const bin = pgBin()!;
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'postgres.log');
  mkdirSync(dir, { recursive: true });
  const owner = isRoot() ? postgresUser() : null;
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const command = (tool: string, args: string[]) => (owner ? ['/usr/sbin/runuser', '-u', 'postgres', '--', path.join(bin, tool), ...args] : [path.join(bin, tool), ...args]);
  const failure = (tool: string, args: string[], output: string) => {
    const tail = existsSync(log) ? readFileSync(log, 'utf8').split('\n').slice(-15).join('\n') : '';
    return new Error(`${tool} ${args.join(' ')} failed: ${output}\n${tail}`);
  };
  // Asynchronous: the load goes on while PostgreSQL restarts.
  const run = (tool: string, args: string[]) =>
    new Promise<void>((resolve, reject) => {
      const [file, ...rest] = command(tool, args);
      const child = spawn(file!, rest, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
      let output = '';
      child.stdout.on('data', (d) => (output += d));
      child.stderr.on('data', (d) => (output += d));
      child.on('error', reject);
      child.on('exit', (code) => (code === 0 ? resolve() : reject(failure(tool, args, output))));
    });
  await run('initdb', ['-D', data, '-U', 'postgres', '--auth=trust', '-E', 'UTF8', '--no-instructions', '--no-sync']);
  // Unix socket in the directory too: nothing shared with the machine's server (its socket, its lock).
  await run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '120', '-o', `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c max_connections=200`, 'start']);
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query('CREATE DATABASE cal');
  await admin.end();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/cal`,
    // pg_ctl keeps the start options (postmaster.opts) for the restart.
    restart: () => run('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '120', '-m', 'fast', 'restart']),
    // Synchronous: also called from an exit handler.
    stop: () => {
      const [file, ...rest] = command('pg_ctl', ['-D', data, '-w', '-m', 'immediate', 'stop']);
      spawnSync(file!, rest, { cwd: dir, stdio: 'ignore' });
    },
  };
}
