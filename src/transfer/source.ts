/**
 * HTTP client of a source calendar's REST root (The Events Calendar's `tribe/events/v1` or another
 * cal-events' `cal/events/v1`): Basic auth, paging with `per_page=50`, retries of 429/5xx/network
 * failures/timeouts with exponential backoff that honours `Retry-After`.
 */
import { setTimeout as sleep } from 'node:timers/promises';

export const PER_PAGE = 50;

export interface SourceOptions {
  /** The REST root, e.g. `https://site.example/wp-json/tribe/events/v1`. */
  root: string;
  login?: string;
  password?: string;
  /** Attempts per request (the first included). */
  attempts?: number;
  /** First backoff delay; doubles per attempt (capped at 30 s). */
  backoffMs?: number;
  timeoutMs?: number;
  /** Pages of a list fetched at once, ahead of the one being written (default 4). */
  concurrency?: number;
  /** Told of each retry (for the progress output). */
  onRetry?: (url: string, reason: string, waitMs: number) => void;
}

export interface SourceResponse {
  status: number;
  headers: Headers;
  body: unknown;
}

export class SourceError extends Error {}

/** Errors of a request sent on a kept-alive connection the other side had closed. */
const STALE_CONNECTION = new Set(['UND_ERR_SOCKET', 'ECONNRESET', 'EPIPE']);


/** `Retry-After` as milliseconds (seconds or an HTTP date), or null. */
export function retryAfterMs(value: string | null, now = Date.now()): number | null {
  if (!value) return null;
  if (/^\s*\d+\s*$/.test(value)) return Number(value) * 1000;
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export class Source {
  readonly root: string;
  private readonly auth?: string;
  private readonly opts: Required<Pick<SourceOptions, 'attempts' | 'backoffMs' | 'timeoutMs' | 'concurrency'>> & SourceOptions;
  /** Aborted by close(): requests in flight and backoff waits (pages fetched ahead) end at once. */
  private readonly closing = new AbortController();

  constructor(opts: SourceOptions) {
    this.root = opts.root.replace(/\/+$/, '');
    this.opts = { attempts: 6, backoffMs: 500, timeoutMs: 30_000, concurrency: 4, ...opts };
    if (opts.login !== undefined && opts.password !== undefined) {
      this.auth = 'Basic ' + Buffer.from(`${opts.login}:${opts.password}`).toString('base64');
    }
  }

  /** Requests made at once (pages ahead, probes). */
  get concurrency(): number {
    return Math.max(1, this.opts.concurrency);
  }

  /** Namespace: `tribe/events/v1` or `cal/events/v1` (the last two path segments of the root plus one). */
  get isTec(): boolean {
    return /\/tribe\/events\/v1$/.test(this.root);
  }

  /** The REST API root before its routes: `…/wp-json`, or `…/?rest_route=` on sites without pretty permalinks. */
  private get apiBase(): string {
    return this.root.replace(/\/[^/]+\/events\/v1$/, '');
  }

  /** A route of the site's REST API outside the events namespace (`/wp/v2/users`). */
  apiUrl(route: string, params: Record<string, string | number> = {}): string {
    return this.url(this.apiBase + route, params);
  }

  /**
   * Names the source in the mapping table: the root in its `/wp-json/…` form, so the same site
   * reached through `?rest_route=` (or its home page) maps to the same records.
   */
  get key(): string {
    const m = /^(.*?)\/?(?:index\.php)?\?rest_route=(\/.*)$/.exec(this.root);
    return m ? `${m[1]}/wp-json${m[2]}` : this.root;
  }

  /** The Authorization header to send, if any (for discovery requests made outside `get`). */
  get authHeaders(): Record<string, string> {
    return this.auth ? { Authorization: this.auth } : {};
  }

  get timeoutMs(): number {
    return this.opts.timeoutMs;
  }

  url(path: string, params: Record<string, string | number> = {}): string {
    const u = new URL(path.startsWith('http') ? path : this.root + path);
    for (const [k, v] of Object.entries(params)) u.searchParams.set(k, String(v));
    return u.href;
  }

  /** GET with retries; answers any final status (4xx other than 429 are not retried). */
  get(url: string): Promise<SourceResponse> {
    return this.request(url);
  }

  /** GET with the same retries, answering the body as text (an iCalendar feed: src/transfer/ics-source.ts). */
  async text(url: string, accept: string): Promise<SourceResponse & { body: string }> {
    const res = await this.request(url, undefined, accept);
    return { ...res, body: typeof res.body === 'string' ? res.body : '' };
  }

  /** A GraphQL query to a cal-events source's `/graphql` (next to its `wp-json`). */
  graphql(query: string): Promise<SourceResponse> {
    return this.request(this.apiBase.replace(/\/wp-json$|\/?(?:index\.php)?\?rest_route=$/, '') + '/graphql', { query });
  }

  /**
   * Ends every request still in flight or waiting to retry (pages fetched ahead of a failure):
   * nothing of this source then holds the process, and their failures are not reported.
   */
  close(): void {
    this.closing.abort(new SourceError('import stopped'));
  }

  /** Time spent in requests (overlapping ones counted each). */
  requestMs = 0;

  private async request(url: string, json?: unknown, text?: string): Promise<SourceResponse> {
    const started = performance.now();
    try {
      return await this.attempt(url, json, text);
    } finally {
      this.requestMs += performance.now() - started;
    }
  }

  /** `text`: the Accept header of a request answered as text rather than JSON. */
  private async attempt(url: string, json?: unknown, text?: string): Promise<SourceResponse> {
    let last = '';
    let staleRetried = false;
    for (let attempt = 1; ; attempt++) {
      let wait: number | null = null;
      try {
        const res = await fetch(url, {
          method: json === undefined ? 'GET' : 'POST',
          body: json === undefined ? undefined : JSON.stringify(json),
          headers: {
            Accept: text ?? 'application/json',
            ...(json === undefined ? {} : { 'Content-Type': 'application/json' }),
            ...(this.auth ? { Authorization: this.auth } : {}),
          },
          signal: AbortSignal.any([AbortSignal.timeout(this.opts.timeoutMs), this.closing.signal]),
        });
        if (res.status !== 429 && res.status < 500) {
          const raw = await res.text();
          if (text !== undefined) return { status: res.status, headers: res.headers, body: raw };
          let body: unknown;
          try {
            body = raw ? JSON.parse(raw) : null;
          } catch {
            throw new SourceError(`${url}: answered ${res.status} with a body that is not JSON`);
          }
          return { status: res.status, headers: res.headers, body };
        }
        await res.body?.cancel();
        last = `HTTP ${res.status}`;
        wait = retryAfterMs(res.headers.get('retry-after'));
      } catch (error) {
        if (error instanceof SourceError) throw error;
        if (this.closing.signal.aborted) throw this.closing.signal.reason;
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        last = (error as Error).name === 'TimeoutError' ? 'timeout' : `${(error as Error).message}${cause ? `: ${cause.code ?? cause.message}` : ''}`;
        // A kept-alive connection the server closed meanwhile (our event loop was busy writing past
        // its keep-alive timeout): nothing is wrong with the source, ask again at once on a new one.
        if (cause?.code && STALE_CONNECTION.has(cause.code) && !staleRetried) {
          staleRetried = true;
          attempt--;
          continue;
        }
      }
      if (attempt >= this.opts.attempts) throw new SourceError(`${url}: ${last} after ${attempt} attempts`);
      const backoff = Math.min(30_000, this.opts.backoffMs * 2 ** (attempt - 1)) * (0.75 + Math.random() / 2);
      const delay = Math.min(wait ?? backoff, 120_000);
      this.opts.onRetry?.(url, last, delay);
      await sleep(delay, undefined, { signal: this.closing.signal }).catch(() => {
        throw this.closing.signal.reason;
      });
    }
  }

  /**
   * Every page of a list (`key`: `events`, `venues`, …), `per_page=50`; `total` is reported as
   * soon as the first page tells it. Stops at the last page, or at a page answered 400/404 (past
   * the end).
   */
  async *list(path: string, key: string, params: Record<string, string | number>, onTotal?: (total: number) => void): AsyncGenerator<Record<string, unknown>[]> {
    const fetchPage = async (page: number) => {
      const url = this.url(path, { ...params, per_page: PER_PAGE, page });
      return { url, res: await this.get(url) };
    };
    // Pages ahead are fetched while the caller works on this one: up to `concurrency` at once once
    // the first page has told how many there are, else the next one only.
    const inflight = new Map<number, Promise<{ url: string; res: SourceResponse }>>();
    const want = (page: number) => {
      if (inflight.has(page)) return;
      const p = fetchPage(page);
      p.catch(() => {}); // raised when awaited
      inflight.set(page, p);
    };
    want(1);
    for (let page = 1; ; page++) {
      want(page);
      const { url, res } = await inflight.get(page)!;
      inflight.delete(page);
      if (res.status === 400 || res.status === 404) {
        if (page === 1) throw new SourceError(`${url}: answered ${res.status}: ${describe(res.body)}`);
        return;
      }
      if (res.status !== 200) throw new SourceError(`${url}: answered ${res.status}: ${describe(res.body)}`);
      const body = res.body as Record<string, unknown>;
      const items = (Array.isArray(body) ? body : body?.[key]) as Record<string, unknown>[] | undefined;
      if (!Array.isArray(items)) throw new SourceError(`${url}: no "${key}" list in the answer`);
      const totalPages = Number(res.headers.get('x-wp-totalpages') ?? (body as { total_pages?: number }).total_pages ?? 0);
      if (page === 1) onTotal?.(Number(res.headers.get('x-wp-total') ?? (body as { total?: number }).total ?? items.length));
      const last = !items.length || (totalPages && page >= totalPages) || items.length < PER_PAGE;
      if (!last) {
        const upto = totalPages ? Math.min(totalPages, page + this.concurrency) : page + 1;
        for (let next = page + 1; next <= upto; next++) want(next);
      }
      yield items;
      if (last) return;
    }
  }
}

function describe(body: unknown): string {
  const b = body as { code?: string; message?: string } | null;
  return b?.message ? `${b.code ?? ''} ${b.message}`.trim() : JSON.stringify(body)?.slice(0, 200) ?? '';
}
