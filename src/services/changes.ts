import { createRedisEventTarget } from '@graphql-yoga/redis-event-target';
import { createPubSub, type PubSubEventTarget } from 'graphql-yoga';
import type { Redis } from 'ioredis';
import type { Client } from 'pg';
import type { DatabaseClient } from '../db/input-guard.ts';
import { live } from '../telemetry/metrics.ts';
import { inSpan, SpanKind } from '../telemetry/tracing.ts';
import { redisOptions, reportOutages } from './redis-client.ts';

/**
 * The change bus, in one place: every committed write to the calendar publishes what it changed,
 * whichever API made it, so that live subscriptions (GraphQL `…Changed`), the byte cache and
 * the shared HTTP cache in front (purges) follow the data. Writes publish after their statements
 * have committed (services run no transaction around a whole write), one change per record
 * touched, linked records included (a term whose event count moved, an event that lost its venue).
 *
 * Built on graphql-yoga's `createPubSub` over an event target that is the transport, chosen at
 * startup (`openChangeBus`): in-process, Redis pub/sub (`@graphql-yoga/redis-event-target`) or
 * PostgreSQL LISTEN/NOTIFY. With Redis or PostgreSQL a process receives its own changes back
 * through the transport like everyone else's: every process sees the changes of all processes
 * sharing it, its own included, exactly once.
 *
 * Two kinds of hooks:
 * - `onPublish`: this process's own committed changes, synchronously as they are published (before
 *   the write answers): the byte cache moves its freshness on, the purger asks the reverse proxy to drop
 *   the affected keys — once, from the process that committed, not once per process.
 * - `onChange`: every change of every process, as the transport delivers it (the byte cache of the
 *   other processes; subscriptions only take it as the wake-up of the change log's reader, which
 *   reads the changes themselves from the log: src/services/change-log.ts).
 */
/** USER: an account or its application passwords (no subscription field; caches follow it). */
export type ChangeKind = 'EVENT' | 'VENUE' | 'ORGANIZER' | 'EVENT_CATEGORY' | 'EVENT_TAG' | 'USER';
export type ChangeAction = 'CREATED' | 'UPDATED' | 'DELETED' | 'RESTORED';
export const CHANGE_ACTIONS: readonly ChangeAction[] = ['CREATED', 'UPDATED', 'DELETED', 'RESTORED'];
const CHANGE_KINDS: readonly string[] = ['EVENT', 'VENUE', 'ORGANIZER', 'EVENT_CATEGORY', 'EVENT_TAG', 'USER'];

export interface Change {
  kind: ChangeKind;
  id: number;
  /** DELETED: permanently deleted, or moved to the trash (RESTORED takes it out again). */
  action: ChangeAction;
  /**
   * Posts only: status and author before the write, so that the disappearance of a record (deleted,
   * trashed, unpublished) reaches exactly the callers who could read it.
   */
  before?: { status: string; authorId: number | null };
  /** When it was published (epoch ms; set by the bus): the subscribers' delivery lag is measured from it. */
  at?: number;
}

export type ChangeListener = (change: Change) => void;
export type ChangeTransport = 'local' | 'redis' | 'postgres';

export interface ChangeBus {
  /** Runs the publish hooks, then hands the change to the transport; never throws (a lost notification must not fail a committed write). */
  publish(change: Change): void;
  /** Calls `hook` with every change this process publishes, synchronously; returns the unsubscribe function. */
  onPublish(hook: ChangeListener): () => void;
  /** Calls `listener` with every change of every process on this bus; returns the unsubscribe function. */
  onChange(listener: ChangeListener): () => void;
  readonly transport: ChangeTransport;
  close(): Promise<void>;
}

/** What the bus reports with (pino's `Logger` fits). */
export interface BusLogger {
  error(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

type ChangeEvent = CustomEvent<unknown>;
/** The transport: an event target whose events of a channel carry changes (as createPubSub wants it). */
type Transport = PubSubEventTarget<Record<string, [unknown]>>;

/** Listeners of one process; a failing one does not keep the change from the others. */
function listenerSet() {
  const listeners = new Set<ChangeListener>();
  return {
    add(listener: ChangeListener): () => void {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    emit(change: Change): void {
      for (const listener of [...listeners]) {
        try {
          listener(change);
        } catch {
          // One failing consumer does not keep the change from the others.
        }
      }
    },
  };
}

/** A change from another process is data from outside: only well-formed ones are passed on. */
function parseChange(value: unknown): Change | null {
  if (!value || typeof value !== 'object') return null;
  const c = value as Record<string, unknown>;
  if (typeof c.kind !== 'string' || !CHANGE_KINDS.includes(c.kind) || typeof c.action !== 'string' || !CHANGE_ACTIONS.includes(c.action as ChangeAction)) return null;
  if (typeof c.id !== 'number' || !Number.isInteger(c.id)) return null;
  const change: Change = { kind: c.kind as ChangeKind, id: c.id, action: c.action as ChangeAction };
  const before = c.before as Record<string, unknown> | undefined;
  if (before && typeof before === 'object' && typeof before.status === 'string') {
    change.before = { status: before.status, authorId: typeof before.authorId === 'number' ? before.authorId : null };
  }
  if (typeof c.at === 'number') change.at = c.at;
  return change;
}

/** The bus over one transport (an event target carrying the changes of `channel`). */
function createChangeBus(target: Transport, channel: string, transport: ChangeTransport, closeTransport: () => Promise<void>): ChangeBus {
  const pubsub = createPubSub<Record<string, [unknown]>>({ eventTarget: target });
  const hooks = listenerSet();
  const listeners = listenerSet();
  // One listener on the channel for the life of the bus: every change received is checked, then
  // handed to this process's listeners. Straight from the transport, not through a subscription's
  // Repeater, which holds at most 1,024 undelivered values: the write of a long recurring series
  // publishes more changes than that at once.
  const deliver = (event: Event) => {
    const change = parseChange((event as ChangeEvent).detail);
    if (!change) return;
    live.deliveries.inc();
    if (change.at !== undefined) live.lag.observe(Math.max(0, Date.now() - change.at) / 1000);
    listeners.emit(change);
  };
  target.addEventListener(channel, deliver);
  return {
    publish: (change) => {
      hooks.emit(change);
      pubsub.publish(channel, { ...change, at: Date.now() });
    },
    onPublish: (hook) => hooks.add(hook),
    onChange: (listener) => listeners.add(listener),
    transport,
    close: async () => {
      target.removeEventListener(channel, deliver);
      await closeTransport();
    },
  };
}

/** The in-process transport: changes reach this process only, after the publishing code has run on. */
class LocalTransport extends EventTarget {
  override dispatchEvent(event: Event): boolean {
    queueMicrotask(() => super.dispatchEvent(event));
    return true;
  }
}

/** The in-process bus: changes reach the listeners of this process only. */
export function createLocalChangeBus(): ChangeBus {
  return createChangeBus(new LocalTransport() as Transport, 'changes', 'local', async () => {});
}

/** The bus of contexts created without one (in-process executions, tests, the CLI). */
export const processChangeBus: ChangeBus = createLocalChangeBus();

/**
 * The change bus of this process, by configuration: Redis pub/sub when `REDIS_URL` is set,
 * PostgreSQL LISTEN/NOTIFY on a dedicated connection when the database is PostgreSQL, in-process
 * otherwise.
 */
export async function openChangeBus(opts: { redisUrl?: string; databaseUrl?: string; channel: string; logger: BusLogger }): Promise<ChangeBus> {
  if (opts.redisUrl) return redisBus(opts.redisUrl, opts.channel, opts.logger);
  if (opts.databaseUrl && /^postgres(ql)?:/i.test(opts.databaseUrl.trim())) return postgresBus(opts.databaseUrl.trim(), opts.channel, opts.logger);
  return createLocalChangeBus();
}

/** How long a publish may wait for Redis's reply before it is reported as failed. */
const PUBLISH_TIMEOUT_MS = 5_000;

async function redisBus(url: string, channel: string, logger: BusLogger): Promise<ChangeBus> {
  // Commands fail at once while Redis is away (redis-client.ts): a publish never waits, and a
  // change published then is dropped (counted, reported when the connection is back) instead of
  // piling up. Responses stay correct meanwhile: a process clears its own byte cache on its own
  // writes, and on PostgreSQL every cached read checks the shared generation
  // (src/server/cache/freshness.ts), which does not depend on the bus.
  const options = redisOptions({ lazyConnect: true, connectTimeout: 5_000 });
  // Loaded only with REDIS_URL set: ioredis costs a process ~20 MB and start time.
  const { Redis } = await import('ioredis');
  // No request awaits a publish, so the short command timeout that keeps requests prompt buys
  // nothing here; on a busy machine it only turned late replies into "publish failed" errors
  // (the PUBLISH had been sent, and was delivered).
  const publisher = new Redis(url, { ...options, commandTimeout: PUBLISH_TIMEOUT_MS });
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
  // Publishing goes through a wrapper of our client so that a failed publish is counted instead of
  // becoming an unhandled rejection; the target routes the channel's messages.
  const publishClient = Object.create(publisher, {
    publish: {
      // Traced, each PUBLISH is a client span of the request that committed the change.
      value: (ch: string, message: string) =>
        inSpan('redis PUBLISH', { 'db.system.name': 'redis', 'db.operation.name': 'PUBLISH' }, () => publisher.publish(ch, message), SpanKind.CLIENT).catch((err: unknown) => {
          if (publisher.status === 'ready') logger.error({ err }, 'change bus: publish to Redis failed');
          else dropped++;
          return 0;
        }),
    },
  }) as Redis;
  const target = createRedisEventTarget<ChangeEvent>({ publishClient, subscribeClient: subscriber });
  const bus = createChangeBus(target, channel, 'redis', async () => {
    subscriber.disconnect();
    await publisher.quit().catch(() => publisher.disconnect());
  });
  await subscriber.ping(); // answered after SUBSCRIBE: the bus is listening from here on
  return bus;
}

/** LISTEN/NOTIFY on a dedicated connection, reconnecting when it is lost. */
class PostgresTransport extends EventTarget {
  private client: Client | undefined;
  private closed = false;
  private retry: NodeJS.Timeout | undefined;

  private readonly url: string;
  private readonly channel: string;
  private readonly logger: BusLogger;

  constructor(url: string, channel: string, logger: BusLogger) {
    super();
    this.url = url;
    this.channel = channel;
    this.logger = logger;
  }

  override dispatchEvent(event: Event): boolean {
    const detail = (event as ChangeEvent).detail;
    if (!this.client) {
      this.logger.error({ change: detail }, 'change bus: not connected to PostgreSQL; change not published');
      return true;
    }
    this.client
      .query('SELECT pg_notify($1, $2)', [this.channel, JSON.stringify(detail)])
      .catch((err: unknown) => this.logger.error({ err, change: detail }, 'change bus: NOTIFY failed'));
    return true;
  }

  async connect(): Promise<void> {
    // pg is loaded only on PostgreSQL: an embedded database never needs it.
    const { default: pg } = await import('pg');
    const c = new pg.Client({ connectionString: this.url, connectionTimeoutMillis: 10_000 });
    c.on('notification', (n) => {
      if (n.channel !== this.channel || !n.payload) return;
      let detail: unknown;
      try {
        detail = JSON.parse(n.payload);
      } catch {
        this.logger.warn({ payload: n.payload }, 'change bus: malformed notification ignored');
        return;
      }
      super.dispatchEvent(new CustomEvent(this.channel, { detail }));
    });
    c.on('error', (err) => {
      this.logger.warn({ err }, 'change bus: PostgreSQL listener connection lost; reconnecting');
      if (this.client === c) this.client = undefined;
      c.end().catch(() => {});
      this.schedule();
    });
    await c.connect();
    await c.query(`LISTEN ${c.escapeIdentifier(this.channel)}`);
    this.client = c;
  }

  private schedule() {
    if (this.closed || this.retry) return;
    this.retry = setTimeout(() => {
      this.retry = undefined;
      this.connect().catch((err: unknown) => {
        this.logger.warn({ err }, 'change bus: reconnecting to PostgreSQL failed; retrying');
        this.schedule();
      });
    }, 1_000);
    this.retry.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retry);
    await this.client?.end().catch(() => {});
  }
}

async function postgresBus(databaseUrl: string, channel: string, logger: BusLogger): Promise<ChangeBus> {
  const url = new URL(databaseUrl);
  url.searchParams.delete('connection_limit');
  const target = new PostgresTransport(url.href, channel, logger);
  await target.connect();
  return createChangeBus(target as Transport, channel, 'postgres', () => target.close());
}

/** Publishes changes of a committed write (duplicates within the call collapse). */
export function publishChange(ctx: { changes: Pick<ChangeBus, 'publish'> }, ...changes: Change[]): void {
  const seen = new Set<string>();
  for (const change of changes) {
    const key = `${change.kind}:${change.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const { kind, id, action, before } = change;
    ctx.changes.publish(before ? { kind, id, action, before: { status: before.status, authorId: before.authorId } } : { kind, id, action });
  }
}

/** Categories and tags linked to an event, as UPDATED changes: their event counts move with its writes. */
export async function eventTermChanges(ctx: { prisma: DatabaseClient }, eventId: number): Promise<Change[]> {
  const [categories, tags] = await Promise.all([
    ctx.prisma.eventCategory.findMany({ where: { eventId }, select: { categoryId: true } }),
    ctx.prisma.eventTag.findMany({ where: { eventId }, select: { tagId: true } }),
  ]);
  return termChanges(
    categories.map((c) => c.categoryId),
    tags.map((t) => t.tagId),
  );
}

/** The terms of an event as UPDATED changes, when the write knows them (no read back: one query less per write). */
export function termChanges(categoryIds: readonly number[], tagIds: readonly number[]): Change[] {
  return [
    ...categoryIds.map((id): Change => ({ kind: 'EVENT_CATEGORY', id, action: 'UPDATED' })),
    ...tagIds.map((id): Change => ({ kind: 'EVENT_TAG', id, action: 'UPDATED' })),
  ];
}

/** Events linked to a venue, organizer or term, as UPDATED changes (the link goes away with it). */
export async function linkedEventChanges(ctx: { prisma: DatabaseClient }, kind: Exclude<ChangeKind, 'EVENT' | 'USER'>, id: number): Promise<Change[]> {
  const rows: { eventId: number }[] =
    kind === 'VENUE'
      ? await ctx.prisma.eventVenue.findMany({ where: { venueId: id }, select: { eventId: true } })
      : kind === 'ORGANIZER'
        ? await ctx.prisma.eventOrganizer.findMany({ where: { organizerId: id }, select: { eventId: true } })
        : kind === 'EVENT_CATEGORY'
          ? await ctx.prisma.eventCategory.findMany({ where: { categoryId: id }, select: { eventId: true } })
          : await ctx.prisma.eventTag.findMany({ where: { tagId: id }, select: { eventId: true } });
  return rows.map((r): Change => ({ kind: 'EVENT', id: r.eventId, action: 'UPDATED' }));
}
