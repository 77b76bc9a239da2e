import type { Middleware } from 'koa';
import { changeKeys } from '../../domain/surrogate-keys.ts';
import type { AppState } from '../../services/context.ts';
import { cache } from '../../telemetry/metrics.ts';
import { inSpan, SpanKind, withTraceparent } from '../../telemetry/tracing.ts';
import type { Change } from '../../services/changes.ts';

/** Purge requests stay under this header size (Varnish's default `http_req_hdr_len` is 8 KiB). */
const MAX_PURGE_HEADER_BYTES = 4_000;
/** Attempts of one purge and the waits between them: a proxy restarting is back within a second. */
const RETRY_DELAYS_MS = [100, 500];

export interface PurgeLogger {
  warn(obj: object, msg: string): void;
  info(obj: object, msg: string): void;
}

/**
 * Purges of the shared HTTP caches in front (`CAL_PURGE_URL`, e.g. Varnish with the xkey vmod:
 * deploy/varnish/; several caches: each gets every purge): the change bus's publish hook (src/services/changes.ts) of the process that
 * committed the change hands each change here; the keys it affects (src/domain/surrogate-keys.ts:
 * the record's key and its kind's list family — responses that contain the record carry its key,
 * lists carry the family) are sent as one `PURGE` request with an `xkey: k1 k2 …` header per
 * batch (the changes of one write collapse into one request).
 *
 * Why the committing process, and only it: every process receives every change through the bus,
 * but one purge per change is enough (the proxy is shared), N processes would purge N times, and
 * only the committing process knows the change is committed before its write answers. The purge
 * is sent right away (the client that wrote reads its change through the proxy at once) and once
 * more `repeatAfterMs` later: a read that started before the commit and reached the proxy after
 * the first purge would otherwise keep the old answer until `s-maxage`.
 *
 * A failed purge never fails the write: it is retried briefly, then logged — once per outage of
 * each cache, not once per write — and the outage's end is logged too.
 */
export type Purger = ReturnType<typeof createPurger>;

export function createPurger(opts: {
  urls: readonly string[];
  logger: PurgeLogger;
  repeatAfterMs?: number;
  /** false: changes only collect their keys until `settled` (a CLI import purges once, at its end). */
  autoFlush?: boolean;
}) {
  const repeatAfterMs = opts.repeatAfterMs ?? 2_000;
  let pending = new Set<string>();
  let scheduled = false;
  /** Caches whose last purge failed (their outage is logged once). */
  const failing = new Set<string>();
  const inFlight = new Set<Promise<void>>();
  const timers = new Set<NodeJS.Timeout>();

  const purgeOnce = (url: string, header: string): Promise<void> =>
    inSpan('PURGE', { 'url.full': url, 'server.address': new URL(url).host }, () => purgeWithRetries(url, header), SpanKind.CLIENT);
  const purgeWithRetries = async (url: string, header: string): Promise<void> => {
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(url, { method: 'PURGE', headers: withTraceparent({ xkey: header }), signal: AbortSignal.timeout(5_000) });
        await res.body?.cancel();
        if (res.ok) {
          cache.purges.inc({ outcome: 'sent' });
          if (failing.delete(url)) opts.logger.info({ url }, 'purge: the reverse proxy accepts purges again');
          return;
        }
        throw new Error(`HTTP ${res.status}`);
      } catch (err) {
        const wait = RETRY_DELAYS_MS[attempt];
        if (wait !== undefined) {
          await new Promise((resolve) => setTimeout(resolve, wait));
          continue;
        }
        cache.purges.inc({ outcome: 'failed' });
        if (!failing.has(url)) opts.logger.warn({ err, url, keys: header }, 'purge: the reverse proxy refused or is unreachable; it serves cached answers until s-maxage');
        failing.add(url);
        return;
      }
    }
  };

  const track = (p: Promise<void>) => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };

  const purge = (keys: readonly string[]) => {
    for (const header of chunks(keys)) for (const url of opts.urls) track(purgeOnce(url, header));
  };

  const flush = () => {
    scheduled = false;
    const keys = [...pending];
    pending = new Set();
    if (!keys.length) return;
    purge(keys);
    if (repeatAfterMs > 0) {
      const timer = setTimeout(() => {
        timers.delete(timer);
        purge(keys);
      }, repeatAfterMs);
      timer.unref();
      timers.add(timer);
    }
  };

  return {
    /** The publish hook: collects the keys of a change; one purge per batch of synchronous publishes. */
    hook: (change: Change) => {
      for (const key of changeKeys(change)) pending.add(key);
      if (scheduled) return;
      scheduled = true;
      if (opts.autoFlush !== false) setImmediate(flush);
    },
    /**
     * Sends what is pending now and resolves once every purge sent has settled, or after `capMs`:
     * a write answers only once the proxy dropped what it changed (its client's next read through
     * the proxy sees the change), but an unreachable proxy delays it by `capMs` at most.
     */
    settled: async (capMs: number) => {
      if (scheduled) flush();
      if (!inFlight.size) return;
      let timer: NodeJS.Timeout | undefined;
      const cap = new Promise<void>((resolve) => (timer = setTimeout(resolve, capMs)));
      const all = (async () => {
        while (inFlight.size) await Promise.all([...inFlight]);
      })();
      await Promise.race([all, cap]);
      clearTimeout(timer);
    },
    close: async () => {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      while (inFlight.size) await Promise.all([...inFlight]);
    },
  };
}

function* chunks(keys: readonly string[]): Generator<string> {
  let current = '';
  for (const key of keys) {
    if (current && current.length + 1 + key.length > MAX_PURGE_HEADER_BYTES) {
      yield current;
      current = '';
    }
    current = current ? `${current} ${key}` : key;
  }
  if (current) yield current;
}

/** A write answers once the proxy has dropped what it changed (bounded to 1 s: see `settled`). */
export function usePurgeSettled(purger: Purger): Middleware<AppState> {
  return async function purgeSettled(ctx, next) {
    try {
      await next();
    } finally {
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') await purger.settled(1_000);
    }
  };
}
