import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { Redis } from 'ioredis';

/** Debian's redis-server, for the tests and scripts that need a Redis of their own to kill. */
export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** Why no Redis of our own can run here; null when it can. */
export function redisServerMissing(): string | null {
  return existsSync(REDIS_SERVER) ? null : `no ${REDIS_SERVER} (apt-get install redis-server)`;
}

/** A throwaway redis-server (no persistence) on `port`; resolves once it answers PING. */
export async function startRedis(port: number): Promise<ChildProcess> {
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
  const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => {});
  for (let i = 0; i < 100; i++) {
    try {
      await client.connect();
      await client.ping();
      client.disconnect();
      return child;
    } catch {
      client.disconnect();
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  child.kill('SIGKILL');
  throw new Error(`redis-server did not start on port ${port}`);
}

/** SIGKILL, resolved once it is gone. */
export async function killRedis(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}
