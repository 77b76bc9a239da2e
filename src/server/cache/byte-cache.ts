import { LRUCache } from 'lru-cache';
import type { Middleware, ParameterizedContext } from 'koa';
import { resolveEventWindow } from '../../domain/date-window.ts';
import { compressible, encode, markEncoded, negotiateEncoding, type Encoding } from '../middleware/compression.ts';
import type { AppState } from '../../services/context.ts';
import type { Freshness } from './freshness.ts';
import { notModified } from '../../domain/conditional-get.ts';
import { cache as metrics, sampleOnScrape } from '../../telemetry/metrics.ts';
import { routeMatched, type Surface } from '../../telemetry/scope.ts';
import { requestRoute } from '../request-route.ts';
import { weakEtag } from './policy.ts';

/**
 * The origin cache: the final bytes of anonymous GET/HEAD answers of the REST
 * API (every language), GraphQL GET queries, iCal feeds and pages, kept as the bytes sent (headers
 * included, whatever they are: `Link`, `X-WP-Total`, surrogate keys…) with their gzip and brotli
 * encodings, each made once, when first asked for (a miss compresses only what its client takes:
 * with a write every second most entries are read a few times at most). A hit costs no GraphQL
 * execution, no presentation, no JSON encoding and, past the first of its encoding, no
 * compression: the stored variant the client accepts is written as it is.
 *
 * Never looked up: requests with `Authorization`, `Cookie` or `X-WP-Nonce`, with a `password` or a
 * method override. Stored only when the cache policy (policy.ts) marked the answer shareable (a
 * complete anonymous 200, not private, no GraphQL errors) and it sets no cookie.
 *
 * Validity: the freshness value (freshness.ts), read once per request before the answer is
 * computed; an entry is served only while the value is the same, so any committed write, from any
 * process, makes the next read fresh.
 *
 * Key: path, the query (parameters sorted by name; the order of repeated names kept), the request
 * headers an answer depends on (`Host` and, behind a trusted proxy, `X-Forwarded-Host`/`-Proto`:
 * the URLs in the body; `Origin`: CORS; on `/graphql`, `Accept`: the media type), and the clock,
 * only as finely as the answer depends on it:
 * - REST reads of records and lists whose dates are absent or absolute (`2026-12-01`, with or
 *   without a time): the site's default list window (the normalized `start_date`/`end_date` a
 *   list without dates applies: it moves once a day), not the second;
 * - REST reads that read the clock more finely (relative dates such as `start_date=now`,
 *   `strict_dates`, `include`, `only_with_upcoming`, the indexes and documents listing defaults):
 *   the second;
 * - GraphQL, pages and feeds (whose operations may ask for "upcoming" events): the minute. Such an
 *   answer is at most 59 s behind the clock (an event that ended 30 s ago may still be listed as
 *   upcoming for that long), never more; a write is seen at once all the same.
 * The `Accept-Encoding` class (br, gzip, identity) picks the variant of one entry.
 * Entries also expire after `CAL_CACHE_TTL_S` (a change made behind the service's back, in the
 * database by hand, is seen after that long), and the least recently used go first beyond
 * `CAL_CACHE_MAX_MB`.
 *
 * Concurrent misses of one key (a burst after a write) share one computation.
 */

interface ByteCacheOptions {
  ttlS: number;
  maxBytes: number;
  freshness: Freshness;
  site: { timezone: string; multiDayCutoff: string };
  trustProxy: boolean;
  now?: () => Date;
}

interface Entry {
  status: number;
  headers: [string, string | string[]][];
  etag: string;
  lastModified: string | null;
  identity: Buffer;
  /** Compressed variants, each made when first asked for; null when the answer is not compressible. */
  encoded: Partial<Record<Exclude<Encoding, 'identity'>, Promise<Buffer>>> | null;
  /** The freshness value read before the answer was computed. */
  validity: string;
  /** The route template and surface that computed it: a hit is counted under them. */
  route: { route: string; surface: Surface };
}

/** Headers not replayed from an entry: the framing and encoding of one answer, and the cache's own. */
const NOT_STORED = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive', 'date', 'x-cache']);
const REST_PATH = /^(?:\/[a-z]{2})?\/wp-json(?:\/|$)/i;
/** REST reads whose answer depends on the clock only through the default list window. */
const RESOURCE_ROUTE = /^\/cal\/events\/v1\/(?:events|venues|organizers|categories|tags)(?:\/|$)/i;
const DATE_PARAMS = new Set(['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after']);
const ABSOLUTE_DATE = /^\d{4}-\d{2}-\d{2}(?:[ T]\d{2}:\d{2}(?::\d{2})?)?$/;
const FINE_CLOCK_PARAMS = new Set(['strict_dates', 'include', 'only_with_upcoming']);

export class ByteCache {
  private readonly lru: LRUCache<string, Entry>;
  private readonly inflight = new Map<string, Promise<Entry | null>>();
  private windowMemo = { second: NaN, value: '' };
  hits = 0;
  misses = 0;

  constructor(private readonly opts: ByteCacheOptions) {
    this.lru = new LRUCache<string, Entry>({
      ttl: opts.ttlS * 1000,
      maxSize: Math.max(1, opts.maxBytes),
      sizeCalculation: (e, key) => sizeOf(e) + key.length,
      dispose: (_e, _key, reason) => void (reason === 'evict' && metrics.evictions.inc()),
    });
    // Read when scraped, for as long as this cache lives (tests build many apps in one process).
    const lru = new WeakRef(this.lru);
    const stop = sampleOnScrape(() => {
      const held = lru.deref();
      if (!held) return stop();
      metrics.bytes.inc(held.calculatedSize);
      metrics.entries.inc(held.size);
    });
    opts.freshness.onClear(() => this.lru.clear());
  }

  middleware(): Middleware<AppState> {
    return async (ctx, next) => {
      const key = this.keyOf(ctx);
      if (key === null) return next();
      const pending = this.opts.freshness.read();
      const validity = typeof pending === 'string' ? pending : await pending;
      if (validity === null) return next();
      const entry = this.lru.get(key);
      if (entry && entry.validity === validity) {
        this.hits++;
        metrics.hits.inc();
        routeMatched(entry.route.route, entry.route.surface);
        return serve(ctx, entry, 'HIT');
      }
      // A computation of the same key under the same validity already runs: its answer is this one's too.
      const flightKey = `${validity}\n${key}`;
      const shared = this.inflight.get(flightKey);
      if (shared) {
        const e = await shared;
        if (e) {
          this.hits++;
          metrics.hits.inc();
          routeMatched(e.route.route, e.route.surface);
          return serve(ctx, e, 'HIT');
        }
        return next();
      }
      this.misses++;
      metrics.misses.inc();
      if (ctx.method === 'HEAD') {
        await next();
        ctx.set('X-Cache', 'MISS');
        return;
      }
      let settle: (e: Entry | null) => void = () => {};
      this.inflight.set(flightKey, new Promise<Entry | null>((resolve) => (settle = resolve)));
      let stored: Entry | null = null;
      try {
        await next();
        stored = await capture(ctx, validity);
        if (stored) {
          this.lru.set(key, stored);
          await serve(ctx, stored, 'MISS');
        } else {
          ctx.set('X-Cache', 'MISS');
        }
      } finally {
        this.inflight.delete(flightKey);
        settle(stored);
      }
    };
  }

  /** The key of a request that may be answered from the cache, or null. */
  private keyOf(ctx: ParameterizedContext<AppState>): string | null {
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return null;
    const h = ctx.headers;
    if (h.authorization !== undefined || h.cookie !== undefined || h['x-wp-nonce'] !== undefined || h['x-http-method-override'] !== undefined) return null;
    const pairs = ctx.querystring ? ctx.querystring.split('&').map((p) => [nameOf(p), p] as const) : [];
    const names = pairs.map(([n]) => n);
    if (names.includes('password') || names.includes('_method')) return null;
    // Stable: repeated names (`categories[]=1&categories[]=2`) keep their order.
    const query = pairs
      .slice()
      .sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      .map(([, p]) => p)
      .join('&');
    const graphql = ctx.path === '/graphql';
    const forwarded = this.opts.trustProxy ? `${header(h['x-forwarded-host'])}|${header(h['x-forwarded-proto'])}` : '';
    return [ctx.path, query, header(h.host), forwarded, header(h.origin), graphql ? header(h.accept) : '', this.clockOf(ctx.path, pairs)].join('\n');
  }

  /** The clock as finely as the answer depends on it (see the module comment). */
  private clockOf(path: string, pairs: readonly (readonly [string, string])[]): string {
    const now = this.opts.now?.() ?? new Date();
    const routeParam = pairs.find(([n]) => n === 'rest_route')?.[1];
    const rest = REST_PATH.test(path) || routeParam !== undefined;
    if (!rest) return `m${Math.floor(now.getTime() / 60_000)}`;
    const route = routeParam !== undefined ? decode(routeParam.slice(routeParam.indexOf('=') + 1)) : path.replace(/^(?:\/[a-z]{2})?\/wp-json/i, '');
    const second = `s${Math.floor(now.getTime() / 1000)}`;
    if (route === null || !RESOURCE_ROUTE.test(route)) return second;
    for (const [name, pair] of pairs) {
      if (FINE_CLOCK_PARAMS.has(name)) return second;
      if (DATE_PARAMS.has(name)) {
        const value = decode(pair.slice(pair.indexOf('=') + 1));
        if (value === null || !ABSOLUTE_DATE.test(value.trim())) return second;
      }
    }
    return this.defaultWindow(now);
  }

  /** The normalized default window of the event list at `now` (what a list without dates applies). */
  private defaultWindow(now: Date): string {
    const s = Math.floor(now.getTime() / 1000);
    if (this.windowMemo.second !== s) {
      const { bounds } = resolveEventWindow({}, { siteTimezone: this.opts.site.timezone, cutoff: this.opts.site.multiDayCutoff, now });
      this.windowMemo = { second: s, value: `w${bounds.startDate}|${bounds.endDate}` };
    }
    return this.windowMemo.value;
  }
}

function nameOf(pair: string): string {
  const eq = pair.indexOf('=');
  return decode(eq < 0 ? pair : pair.slice(0, eq)) ?? pair;
}

function decode(text: string): string | null {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

const header = (v: string | string[] | undefined) => (Array.isArray(v) ? v.join(', ') : (v ?? ''));

function sizeOf(e: Entry): number {
  // Room for both compressed variants, made later: JSON and HTML compress to a fifth or less.
  let n = Math.ceil(e.identity.length * (e.encoded ? 1.5 : 1)) + 200;
  for (const [k, v] of e.headers) n += k.length + (Array.isArray(v) ? v.join('').length : v.length);
  return n;
}

/** The answer the chain just produced, as an entry, when it may be kept. */
async function capture(ctx: ParameterizedContext<AppState>, validity: string): Promise<Entry | null> {
  if (ctx.status !== 200 || !ctx.state.shareable || ctx.response.get('Content-Encoding') || ctx.response.get('Set-Cookie')) return null;
  const type = ctx.response.get('Content-Type');
  const body: unknown = ctx.body;
  let identity: Buffer;
  if (Buffer.isBuffer(body)) identity = body;
  else if (typeof body === 'string') identity = Buffer.from(body);
  else return null;
  const headers: [string, string | string[]][] = [];
  for (const [name, value] of Object.entries(ctx.response.headers)) {
    if (value === undefined || NOT_STORED.has(name)) continue;
    headers.push([name, typeof value === 'number' ? String(value) : value]);
  }
  let etag = ctx.response.get('ETag');
  if (!etag) {
    etag = weakEtag(identity);
    headers.push(['etag', etag]);
  }
  const encoded = compressible(type, identity.length) ? {} : null;
  if (encoded) {
    const vary = headers.find(([n]) => n === 'vary');
    if (!vary) headers.push(['vary', 'Accept-Encoding']);
    else if (!/accept-encoding/i.test(String(vary[1]))) vary[1] = `${String(vary[1])}, Accept-Encoding`;
  }
  return { status: 200, headers, etag, lastModified: ctx.response.get('Last-Modified') || null, identity, encoded, validity, route: requestRoute(ctx) };
}

/** Writes an entry as the answer: its headers, then 304 or the variant the client accepts. */
async function serve(ctx: ParameterizedContext<AppState>, e: Entry, how: 'HIT' | 'MISS'): Promise<void> {
  ctx.status = e.status;
  for (const [name, value] of e.headers) ctx.set(name, value);
  ctx.set('X-Cache', how);
  markEncoded(ctx);
  if (notModified(ctx, e.etag, e.lastModified)) {
    ctx.status = 304;
    return;
  }
  const encoding = e.encoded ? negotiateEncoding(ctx.get('Accept-Encoding')) : 'identity';
  if (encoding === 'identity' || !e.encoded) {
    ctx.remove('Content-Encoding');
    ctx.body = e.identity;
    return;
  }
  const variant = (e.encoded[encoding] ??= encode(e.identity, encoding));
  try {
    ctx.body = await variant;
    ctx.set('Content-Encoding', encoding);
  } catch {
    // zlib failing (out of memory) costs this answer its compression, not the answer; the next asks again.
    if (e.encoded[encoding] === variant) delete e.encoded[encoding];
    ctx.remove('Content-Encoding');
    ctx.body = e.identity;
  }
}
