/**
 * How this service talks to Redis (REDIS_URL: the sign-in throttle's shared counters and the change
 * bus), so that a Redis outage costs requests nothing: every command either runs on a ready
 * connection or fails at once, and the caller falls back (local counters, a dropped change).
 *
 * - `enableOfflineQueue: false`: no command waits for a reconnection; while the connection is down
 *   they fail immediately instead of being queued (the queue is what made each signed-in request
 *   wait seconds during an outage).
 * - `commandTimeout`: a Redis that hangs (connection up, no answers) fails a command after this.
 * - `maxRetriesPerRequest: 0`: a command caught by a dropped connection is not resent later.
 * - `retryStrategy`: reconnection forever, backing off to one attempt every 2 s; subscriptions are
 *   restored on reconnection (ioredis's `autoResubscribe`).
 */
import type { RedisOptions } from 'ioredis';

export const REDIS_COMMAND_TIMEOUT_MS = 250;

export function redisOptions(overrides: RedisOptions = {}): RedisOptions {
  return {
    enableOfflineQueue: false,
    commandTimeout: REDIS_COMMAND_TIMEOUT_MS,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    retryStrategy: (times) => Math.min(100 * 2 ** Math.min(times, 5), 2_000),
    ...overrides,
  };
}

/** What the outage reporting needs of a logger (pino's `Logger` fits). */
export interface OutageLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/** The events of an ioredis client this needs. */
interface RedisEvents {
  on(event: 'error', listener: (err: Error) => void): unknown;
  on(event: 'ready', listener: () => void): unknown;
  on(event: 'reconnecting', listener: () => void): unknown;
}

/**
 * Logs a lost Redis connection once (not once per reconnection attempt or per request) and its
 * return once, naming what the outage means for `what` (e.g. "sign-in throttling counts locally").
 * The loss is reported as soon as ioredis schedules a reconnection (a Redis that shuts down closes
 * the socket cleanly, so the first `error` comes only with the first failed reconnection attempt),
 * or at the first error (a Redis unreachable from the start).
 */
export function reportOutages(client: RedisEvents, logger: OutageLogger | undefined, name: string, meanwhile: string): void {
  let down = false;
  let since = 0;
  const lost = (message: string) => {
    if (down) return;
    down = true;
    since = Date.now();
    logger?.warn({ err: { message } }, `${name}: Redis connection lost; ${meanwhile} until it is back`);
  };
  client.on('error', (err) => lost(err.message));
  client.on('reconnecting', () => lost('connection closed'));
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger?.info({ downMs: Date.now() - since }, `${name}: Redis connection back`);
  });
}
