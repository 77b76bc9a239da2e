import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import type { Redis } from 'ioredis';
import pg from 'pg';
import type { Logger } from 'pino';
import { ChangeListeners, createLocalChangeBus, type Change, type ChangeBus } from '../services/changes.ts';
import { redisOptions, reportOutages } from '../services/redis-client.ts';

export type ChangeTransport = 'local' | 'redis' | 'postgres';

/**
 * The change bus of this process, by configuration: Redis pub/sub when `REDIS_URL` is set,
 * PostgreSQL LISTEN/NOTIFY on a dedicated connection when the database is PostgreSQL, in-process
 * otherwise. With Redis or PostgreSQL, a process receives its own changes back through the
 * transport like everyone else's, so all processes see the same stream.
 */
export async function openChangeBus(opts: {
  redisUrl?: string;
  databaseUrl?: string;
  channel: string;
  logger: Logger;
}): Promise<ChangeBus & { transport: ChangeTransport }> {
  if (opts.redisUrl) return { ...(await redisBus(opts.redisUrl, opts.channel, opts.logger)), transport: 'redis' };
  if (opts.databaseUrl && /^postgres(ql)?:/i.test(opts.databaseUrl.trim())) {
    return { ...(await postgresBus(opts.databaseUrl.trim(), opts.channel, opts.logger)), transport: 'postgres' };
  }
  return { ...createLocalChangeBus(), transport: 'local' };
}

/** A change from another process is data from outside: only well-formed ones are passed on. */
function parseChange(value: unknown): Change | null {
  const c = value as Partial<Change> | null;
  if (!c || typeof c !== 'object' || typeof c.kind !== 'string' || typeof c.action !== 'string' || !Number.isInteger(c.id)) return null;
  return c as Change;
}

async function redisBus(url: string, channel: string, logger: Logger): Promise<ChangeBus> {
  // Commands fail at once while Redis is away (redis-client.ts): a publish never waits, and a
  // change published then is dropped (counted, reported when the connection is back) instead of
  // piling up. Responses stay correct meanwhile: a process clears its own response cache on its
  // own writes, and on PostgreSQL every cached read checks the shared generation
  // (cache-generation.ts), which does not depend on the bus.
  const options = redisOptions({ lazyConnect: true, connectTimeout: 5_000 });
  // Loaded only with REDIS_URL set: ioredis costs a process ~20 MB and start time.
  const { Redis } = await import('ioredis');
  const publisher = new Redis(url, options);
  const subscriber = new Redis(url, options);
  try {
    await Promise.all([publisher.connect(), subscriber.connect()]);
  } catch (e) {
    publisher.disconnect();
    subscriber.disconnect();
    throw new Error(`REDIS_URL: cannot connect to Redis (${(e as Error).message})`);
  }
  const meanwhile = 'live changes do not reach other processes (or subscribers)';
  reportOutages(publisher, logger, 'change bus (publisher)', meanwhile);
  reportOutages(subscriber, logger, 'change bus (subscriber)', meanwhile);
  let dropped = 0;
  publisher.on('ready', () => {
    if (dropped) logger.warn({ dropped }, 'change bus: changes published while Redis was away were not delivered');
    dropped = 0;
  });
  const listeners = new ChangeListeners();
  // Yoga's Redis event target routes channel messages; publishing goes through our client so that
  // a failed publish is counted instead of becoming an unhandled rejection.
  const target = createRedisEventTarget({
    publishClient: {
      publish: (ch: string, message: string) =>
        publisher.publish(ch, message).catch((err: unknown) => {
          if (publisher.status === 'ready') logger.error({ err }, 'change bus: publish to Redis failed');
          else dropped++;
        }),
    } as unknown as Redis,
    subscribeClient: subscriber,
  });
  target.addEventListener(channel, (event) => {
    const change = parseChange((event as CustomEvent).detail);
    if (change) listeners.emit(change);
  });
  await subscriber.ping(); // answered after SUBSCRIBE: the bus is listening from here on
  return {
    publish: (change) => void target.dispatchEvent(new CustomEvent(channel, { detail: change })),
    onChange: (listener) => listeners.add(listener),
    close: async () => {
      subscriber.disconnect();
      await publisher.quit().catch(() => publisher.disconnect());
    },
  };
}

async function postgresBus(databaseUrl: string, channel: string, logger: Logger): Promise<ChangeBus> {
  const url = new URL(databaseUrl);
  url.searchParams.delete('connection_limit');
  const listeners = new ChangeListeners();
  let client: pg.Client | undefined;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const connect = async () => {
    const c = new pg.Client({ connectionString: url.href, connectionTimeoutMillis: 10_000 });
    c.on('notification', (n) => {
      if (n.channel !== channel || !n.payload) return;
      try {
        const change = parseChange(JSON.parse(n.payload));
        if (change) listeners.emit(change);
      } catch {
        logger.warn({ payload: n.payload }, 'change bus: malformed notification ignored');
      }
    });
    c.on('error', (err) => {
      logger.warn({ err }, 'change bus: PostgreSQL listener connection lost; reconnecting');
      if (client === c) client = undefined;
      c.end().catch(() => {});
      schedule();
    });
    await c.connect();
    await c.query(`LISTEN ${c.escapeIdentifier(channel)}`);
    client = c;
  };
  const schedule = () => {
    if (closed || retry) return;
    retry = setTimeout(() => {
      retry = undefined;
      connect().catch((err: unknown) => {
        logger.warn({ err }, 'change bus: reconnecting to PostgreSQL failed; retrying');
        schedule();
      });
    }, 1_000);
    retry.unref();
  };
  await connect();
  return {
    publish: (change) => {
      if (!client) {
        logger.error({ change }, 'change bus: not connected to PostgreSQL; change not published');
        return;
      }
      client.query('SELECT pg_notify($1, $2)', [channel, JSON.stringify(change)]).catch((err: unknown) =>
        logger.error({ err, change }, 'change bus: NOTIFY failed'),
      );
    },
    onChange: (listener) => listeners.add(listener),
    close: async () => {
      closed = true;
      clearTimeout(retry);
      await client?.end().catch(() => {});
    },
  };
}
