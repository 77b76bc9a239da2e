import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { DatabaseClient } from '../db/input-guard.ts';
import { inTransaction } from '../db/transactions.ts';
import { changeLogTailer, headCursor, readChanges } from './change-log.ts';
import type { ChangeAction, ChangeBus, ChangeKind } from './changes.ts';
import { ValidationError } from '../domain/errors.ts';
import { OutboundRefusal, pinnedLookup, resolveOutboundUrl, type OutboundPolicy } from './outbound-url.ts';
import { signWebhook, webhookEventType, webhookMessageId, WEBHOOK_TYPES } from './webhooks.ts';
import { webhooks as metrics } from '../telemetry/metrics.ts';
import { detached, fail, inNewTrace, SpanKind, withTraceparent } from '../telemetry/tracing.ts';

/**
 * The webhook dispatcher: a reader of the change log like any subscriber, with a cursor per
 * endpoint kept in the database, and a delivery queue in the database beside it.
 *
 * 1. Queueing: for each enabled endpoint, the changes after its cursor are read from the log, the
 *    ones it wants become deliveries (one row per change and endpoint, unique), and its cursor moves
 *    past them, in one transaction that only commits if the cursor is still where it was read
 *    (another instance that queued the same changes first wins; nothing is queued twice). A change
 *    committed while no instance ran is still in the log after its cursor: none is ever lost.
 * 2. Sending: due deliveries are claimed with `FOR UPDATE SKIP LOCKED` and a lease (another
 *    instance neither waits for them nor takes them while the lease lasts), a record's deliveries
 *    one after the other in log order (a delivery waits while an earlier one of its record is still
 *    pending), signed per Standard Webhooks and POSTed. A 2xx answer delivers it; anything else is
 *    retried on an exponential schedule until `giveUpAfterMs` (three days) after it was queued.
 *    An endpoint whose every attempt failed for `disableAfterMs` is disabled, with the reason.
 *
 * The log's wake-up hook starts a pass as soon as a change commits (while an endpoint is enabled); a
 * poll is the fallback.
 */

/** One change of the change log as the dispatcher reads it. */
export interface LoggedChange {
  cursor: string;
  kind: ChangeKind;
  action: ChangeAction;
  id: number;
  /** When it committed, when the log knows it. */
  at?: Date;
}

/** The change log, read from a cursor (src/services/change-log.ts). */
export interface ChangeFeed {
  /** Changes strictly after `after` (null: from the start of the log), in commit order. */
  read(after: string | null, limit: number): Promise<LoggedChange[]>;
  /** The cursor of now (where a cursor too old for the log starts again). */
  head(): Promise<string>;
  /** Calls `listener` when the log may have advanced; returns the unsubscribe function. */
  onAdvance?(listener: () => void): () => void;
}

/** The record a change is about, as the REST API shows it (null: gone, or none to show). */
export type PresentRecord = (change: LoggedChange) => Promise<unknown>;

/**
 * The change log (src/services/change-log.ts) as the dispatcher's feed: read from each endpoint's
 * cursor, woken by the process's log tailer (itself woken by the bus, or its poll) when `bus` is given.
 */
export function changeLogFeed(prisma: DatabaseClient, bus?: Pick<ChangeBus, 'onChange'>): ChangeFeed {
  return {
    read: async (after, limit) =>
      (await readChanges(prisma, { after, limit })).map((r) => ({ cursor: r.cursor, kind: r.kind, action: r.action, id: r.id, at: r.committedAt })),
    head: () => headCursor(prisma),
    onAdvance: bus ? (listener) => changeLogTailer(prisma, bus).onLogAdvance(listener) : undefined,
  };
}

export interface RetryPolicy {
  /** The first retry waits this long; each later one twice as long as the one before… */
  baseMs: number;
  /** …up to this. */
  maxMs: number;
  /** A delivery not delivered this long after it was queued is given up (FAILED). */
  giveUpAfterMs: number;
  /** An endpoint whose every attempt failed for this long is disabled. */
  disableAfterMs: number;
}

const DAY = 86_400_000;
/** 5 s, 10 s, 20 s … doubling up to 6 h, for three days (about 20 attempts); failing for three days disables. */
export const DEFAULT_RETRY: RetryPolicy = { baseMs: 5_000, maxMs: 6 * 3_600_000, giveUpAfterMs: 3 * DAY, disableAfterMs: 3 * DAY };

export interface DispatcherOptions {
  prisma: DatabaseClient;
  feed: ChangeFeed;
  present: PresentRecord;
  /** The private-address guard, applied again at each attempt (DNS may have changed). */
  policy: OutboundPolicy;
  retry?: RetryPolicy;
  /** Poll interval, the fallback of the log's wake-up hook. */
  pollMs?: number;
  /** Time a receiver has to answer. */
  timeoutMs?: number;
  /** Deliveries sent at once by this process. */
  concurrency?: number;
  /** Delivered and given-up deliveries (with their attempts) are kept this long, then pruned (hourly). */
  keepDays?: number;
  now?: () => Date;
  logger?: { warn(obj: object, msg: string): void; error(obj: object, msg: string): void; info(obj: object, msg: string): void };
}

export interface WebhookDispatcher {
  start(): void;
  /** Waits for the pass under way. */
  stop(): Promise<void>;
  /** One pass: queue the new changes, then send what is due (until nothing is). For tests and the CLI. */
  runOnce(): Promise<void>;
  /** Starts a pass soon (the log advanced, a redelivery was asked for). */
  wake(): void;
}

const BATCH = 200;
const USER_AGENT = 'cal-events webhooks (Standard Webhooks)';

interface Claimed {
  id: number;
  endpointId: number;
  messageId: string;
  payload: string;
  createdAt: Date;
  url: string;
  secret: string;
}

export function createWebhookDispatcher(opts: DispatcherOptions): WebhookDispatcher {
  const { prisma, feed, present, policy } = opts;
  const retry = opts.retry ?? DEFAULT_RETRY;
  const pollMs = opts.pollMs ?? 1_000;
  const timeoutMs = opts.timeoutMs ?? 15_000;
  const concurrency = opts.concurrency ?? 8;
  const now = opts.now ?? (() => new Date());
  const log = opts.logger;
  const keepMs = (opts.keepDays ?? 30) * DAY;
  let prunedAt = 0;

  /** Drops finished deliveries older than `keepDays`; the queue of pending ones is never pruned. */
  async function prune(): Promise<void> {
    const at = now().getTime();
    if (at - prunedAt < 3_600_000) return;
    prunedAt = at;
    const { count } = await prisma.webhookDelivery.deleteMany({ where: { status: { in: ['DELIVERED', 'FAILED'] }, createdAt: { lt: new Date(at - keepMs) } } });
    if (count) log?.info({ deliveries: count }, 'webhook deliveries pruned');
  }

  /** Queues the changes after each enabled endpoint's cursor; returns how many endpoints are enabled. */
  async function enqueue(): Promise<number> {
    const endpoints = await prisma.webhookEndpoint.findMany({
      where: { enabled: true },
      select: { id: true, types: true, actions: true, cursor: true },
      orderBy: { id: 'asc' },
    });
    // One rendering of a change for every endpoint that wants it in this pass.
    const rendered = new Map<string, Promise<string>>();
    const render = (change: LoggedChange) => {
      let body = rendered.get(change.cursor);
      if (!body) {
        body = present(change).then((record) =>
          JSON.stringify({
            type: webhookEventType(change.kind, change.action),
            timestamp: (change.at ?? now()).toISOString(),
            data: { cursor: change.cursor, kind: change.kind, action: change.action, id: change.id, record: record ?? null },
          }),
        );
        rendered.set(change.cursor, body);
      }
      return body;
    };
    for (const endpoint of endpoints) {
      let cursor = endpoint.cursor;
      for (;;) {
        let changes: LoggedChange[];
        try {
          changes = await feed.read(cursor, BATCH);
        } catch (e) {
          if (!(e instanceof ValidationError && e.code === 'CURSOR_EXPIRED')) throw e;
          // Disabled for longer than the log keeps changes: those are gone; it follows from now on.
          const head = await feed.head();
          await prisma.webhookEndpoint.updateMany({ where: { id: endpoint.id, cursor }, data: { cursor: head } });
          log?.warn({ endpointId: endpoint.id }, 'webhook endpoint: its cursor expired (older than the change log keeps); it follows the changes from now');
          break;
        }
        const last = changes.at(-1);
        if (!last) break;
        const wanted = changes.filter(
          (c) =>
            (WEBHOOK_TYPES as readonly string[]).includes(c.kind) &&
            (endpoint.types.length === 0 || endpoint.types.includes(c.kind)) &&
            (endpoint.actions.length === 0 || endpoint.actions.includes(c.action)),
        );
        const payloads = await Promise.all(wanted.map(render));
        const moved = await inTransaction(prisma, async (tx) => {
          const { count } = await tx.webhookEndpoint.updateMany({ where: { id: endpoint.id, cursor, enabled: true }, data: { cursor: last.cursor } });
          if (count === 0) return false;
          await tx.webhookDelivery.createMany({
            data: wanted.map((c, i) => ({
              endpointId: endpoint.id,
              changeCursor: c.cursor,
              messageId: webhookMessageId(endpoint.id, c.cursor),
              type: webhookEventType(c.kind, c.action),
              recordKey: `${c.kind}:${c.id}`,
              payload: payloads[i]!,
              nextAttemptAt: now(),
            })),
            skipDuplicates: true,
          });
          return true;
        });
        // Another instance moved this cursor first: it queued these changes.
        if (!moved) break;
        cursor = last.cursor;
        if (changes.length < BATCH) break;
      }
    }
    return endpoints.length;
  }

  /** Claims up to `limit` due deliveries for this process (a lease of twice the answer time). */
  async function claim(limit: number): Promise<Claimed[]> {
    const at = now();
    const leaseUntil = new Date(at.getTime() + 2 * timeoutMs + 5_000);
    return prisma.$queryRaw<Claimed[]>`
      WITH due AS (
        SELECT d.id FROM "WebhookDelivery" d
        JOIN "WebhookEndpoint" e ON e.id = d."endpointId" AND e.enabled
        WHERE d.status = 'PENDING' AND d."nextAttemptAt" <= ${at}
          AND (d."leaseUntil" IS NULL OR d."leaseUntil" < ${at})
          AND NOT EXISTS (
            SELECT 1 FROM "WebhookDelivery" p
            WHERE p."endpointId" = d."endpointId" AND p."recordKey" = d."recordKey" AND p.status = 'PENDING' AND p.id < d.id)
        ORDER BY d."nextAttemptAt", d.id
        LIMIT ${limit}
        FOR UPDATE OF d SKIP LOCKED
      )
      UPDATE "WebhookDelivery" w SET "leaseUntil" = ${leaseUntil}
      FROM due, "WebhookEndpoint" e
      WHERE w.id = due.id AND e.id = w."endpointId"
      RETURNING w.id, w."endpointId", w."messageId", w.payload, w."createdAt", e.url, e.secret`;
  }

  async function attempt(d: Claimed): Promise<void> {
    const started = now();
    const result = await inNewTrace(
      'WEBHOOK POST',
      { 'webhook.endpoint.id': d.endpointId, 'webhook.message_id': d.messageId, 'server.address': URL.parse(d.url)?.host ?? '' },
      async (span) => {
        const answer = await post(d, started);
        if (answer.status !== null) span?.setAttribute('http.response.status_code', answer.status);
        if (span && !(answer.status !== null && answer.status >= 200 && answer.status < 300)) fail(span, new Error(answer.status !== null ? `HTTP ${answer.status}` : (answer.error ?? 'no answer')));
        return answer;
      },
      SpanKind.CLIENT,
    );
    const finished = now();
    const durationMs = Math.max(0, finished.getTime() - started.getTime());
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    metrics.duration.observe(durationMs / 1000);
    let outcome: 'delivered' | 'retry' | 'given_up' = 'delivered';
    let disabled = false;
    await inTransaction(prisma, async (tx) => {
      const row = await tx.webhookDelivery.update({
        where: { id: d.id },
        data: { attempts: { increment: 1 }, leaseUntil: null },
        select: { attempts: true },
      });
      await tx.webhookAttempt.create({
        data: { deliveryId: d.id, attemptedAt: started, statusCode: result.status, error: result.error?.slice(0, 500) ?? null, durationMs },
      });
      if (ok) {
        await tx.webhookDelivery.update({ where: { id: d.id }, data: { status: 'DELIVERED', deliveredAt: finished } });
        await tx.webhookEndpoint.updateMany({ where: { id: d.endpointId, failingSince: { not: null } }, data: { failingSince: null } });
        // The endpoint answers again: its backlog waiting for a later retry goes now, not hours later.
        await tx.webhookDelivery.updateMany({
          where: { endpointId: d.endpointId, status: 'PENDING', attempts: { gt: 0 }, nextAttemptAt: { gt: finished } },
          data: { nextAttemptAt: finished },
        });
        return;
      }
      const givenUp = finished.getTime() - d.createdAt.getTime() >= retry.giveUpAfterMs;
      const delay = Math.min(retry.baseMs * 2 ** Math.min(row.attempts - 1, 40), retry.maxMs);
      outcome = givenUp ? 'given_up' : 'retry';
      await tx.webhookDelivery.update({
        where: { id: d.id },
        data: givenUp ? { status: 'FAILED' } : { nextAttemptAt: new Date(finished.getTime() + delay) },
      });
      await tx.webhookEndpoint.updateMany({ where: { id: d.endpointId, failingSince: null }, data: { failingSince: started } });
      const endpoint = await tx.webhookEndpoint.findUnique({ where: { id: d.endpointId }, select: { failingSince: true, enabled: true } });
      if (endpoint?.enabled && endpoint.failingSince && finished.getTime() - endpoint.failingSince.getTime() >= retry.disableAfterMs) {
        const last = result.status !== null ? `HTTP ${result.status}` : (result.error ?? 'no answer');
        const reason = `Every delivery failed since ${endpoint.failingSince.toISOString()} (last: ${last}).`;
        await tx.webhookEndpoint.update({ where: { id: d.endpointId }, data: { enabled: false, disabledAt: finished, disabledReason: reason.slice(0, 500) } });
        log?.warn({ endpointId: d.endpointId, reason }, 'webhook endpoint disabled');
        disabled = true;
      }
    });
    // Counted once recorded: a transaction retried on a conflict counts its attempt once.
    metrics.attempts.inc({ outcome });
    if (disabled) metrics.disabled.inc();
  }

  /** POSTs one signed delivery; the receiver's status, or why there was none. */
  async function post(d: Claimed, at: Date): Promise<{ status: number | null; error?: string }> {
    let url: URL;
    try {
      url = new URL(d.url);
      const addresses = await resolveOutboundUrl(url, policy);
      // The delivery's trace goes on to the receiver (the signature covers the body, not this header).
      const headers = withTraceparent({
        'content-type': 'application/json',
        'user-agent': USER_AGENT,
        ...signWebhook(d.secret, d.messageId, at, d.payload),
      });
      const status = await send(url, addresses, headers, d.payload, timeoutMs);
      return { status };
    } catch (e) {
      if (e instanceof OutboundRefusal) return { status: null, error: `refused: ${e.message}` };
      return { status: null, error: (e as NodeJS.ErrnoException).code ?? (e as Error).message };
    }
  }

  async function deliverDue(): Promise<void> {
    for (;;) {
      const batch = await claim(concurrency);
      if (batch.length === 0) return;
      await Promise.all(batch.map((d) => attempt(d).catch((err: unknown) => log?.error({ err, deliveryId: d.id }, 'webhook delivery failed to record'))));
    }
  }

  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | null = null;
  let again = false;
  let stopped = true;
  let unsubscribe: (() => void) | null = null;

  async function pass(): Promise<void> {
    const enabled = await enqueue();
    follow(enabled > 0);
    // Only an enabled endpoint's deliveries are claimed.
    if (enabled) await deliverDue();
    await prune();
  }

  /**
   * Listens to the log's wake-up hook only while an endpoint is enabled: without one (a calendar
   * without webhooks) a write costs no pass, nor the log read that wakes it. The poll goes on and
   * finds an endpoint enabled since (by any instance) within `pollMs`; its cursor, kept in the
   * database, holds the changes of the meantime.
   */
  function follow(on: boolean): void {
    if (on && !unsubscribe && !stopped) unsubscribe = feed.onAdvance?.(wake) ?? null;
    else if (!on && unsubscribe) {
      unsubscribe();
      unsubscribe = null;
    }
  }

  function wake(): void {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    // A pass is not part of the request whose write woke it: its statements and delivery spans
    // would otherwise land in that request's trace after it ended.
    running = detached(pass)
      .catch((err: unknown) => log?.error({ err }, 'webhook dispatch pass failed'))
      .finally(() => {
        running = null;
        if (again) {
          again = false;
          wake();
        }
      });
  }

  return {
    start() {
      if (!stopped) return;
      stopped = false;
      timer = setInterval(wake, pollMs);
      timer.unref();
      wake();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      follow(false);
      await running;
    },
    runOnce: pass,
    wake,
  };
}

/**
 * The webhook queue as the metrics show it, in one statement (the pending count uses the
 * (status, nextAttemptAt) index; endpoints are few).
 */
export async function webhookQueueStats(prisma: DatabaseClient, now = new Date()): Promise<{ pending: number; oldestPendingSeconds: number; enabled: number; disabled: number }> {
  // createdAt is a UTC timestamp without time zone, read as the dispatcher reads it (its age in JS).
  const [row] = await prisma.$queryRaw<{ pending: bigint; oldest: Date | null; enabled: bigint; disabled: bigint }[]>`
    SELECT
      (SELECT count(*) FROM "WebhookDelivery" WHERE status = 'PENDING') AS pending,
      (SELECT min("createdAt") FROM "WebhookDelivery" WHERE status = 'PENDING') AS oldest,
      (SELECT count(*) FROM "WebhookEndpoint" WHERE enabled) AS enabled,
      (SELECT count(*) FROM "WebhookEndpoint" WHERE NOT enabled) AS disabled`;
  return {
    pending: Number(row?.pending ?? 0),
    oldestPendingSeconds: row?.oldest ? Math.max(0, (now.getTime() - row.oldest.getTime()) / 1000) : 0,
    enabled: Number(row?.enabled ?? 0),
    disabled: Number(row?.disabled ?? 0),
  };
}

/** One POST, pinned to the checked addresses; resolves with the status once the answer has been read. */
function send(url: URL, addresses: Awaited<ReturnType<typeof resolveOutboundUrl>>, headers: Record<string, string>, body: string, timeoutMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const client = url.protocol === 'https:' ? https : http;
    const req = client.request(
      url,
      { method: 'POST', agent: false, lookup: pinnedLookup(addresses), headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) }, timeout: timeoutMs },
      (res: IncomingMessage) => {
        // The answer's body is not kept: read (up to a limit) so the connection ends cleanly.
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > 64 * 1024) res.destroy();
        });
        res.on('close', () => resolve(res.statusCode ?? 0));
        res.on('error', () => resolve(res.statusCode ?? 0));
      },
    );
    // The whole exchange, not only each silence, is bounded: the claim's lease must outlast it.
    const deadline = setTimeout(() => req.destroy(new Error('timed out')), timeoutMs);
    req.on('timeout', () => req.destroy(new Error('timed out')));
    req.on('error', reject);
    req.on('close', () => clearTimeout(deadline));
    req.end(body);
  });
}
