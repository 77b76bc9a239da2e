/**
 * Throttling of failed sign-ins (HTTP Basic on `/graphql` and the REST routes).
 *
 * Only wrong credentials count as failures (a malformed header or a throttled attempt does not).
 * Sliding windows, in memory, bounded in size:
 *
 * * **per client address**: `limit` failures (any login) in `windowMs` → every attempt from that
 *   address is refused until the oldest of those failures leaves the window;
 * * **per login**: `limit` failures for one login in `windowMs`, where each address counts for at
 *   most `perAddressShare` of them → attempts for that login are refused from every address except
 *   those that signed in as that login successfully before (remembered for `knownAddressMs`).
 *
 * So one address guessing at an account only throttles itself: the right password from another
 * address still works. A guess spread over many addresses throttles the account, but never for an
 * address the owner has used before, and never longer than the window after the guessing stops.
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { redisOptions, reportOutages, type OutageLogger } from './redis-client.ts';

/**
 * ioredis and rate-limiter-flexible (CommonJS) are loaded only when the counters are shared through
 * Redis: without REDIS_URL they would cost every process start time and memory for nothing.
 */
const requireHere = createRequire(import.meta.url);
const loadRedis = () => requireHere('ioredis') as typeof import('ioredis');
/** The longest a Node timer waits, in whole seconds. */
const MAX_TIMER_S = Math.floor(0x7fffffff / 1000);
const loadLimiters = () => requireHere('rate-limiter-flexible') as typeof import('rate-limiter-flexible');

export interface ThrottleOptions {
  /** Failures allowed per window, per address and per login. Default 10. */
  limit?: number;
  /** Window length. Default one minute. */
  windowMs?: number;
  /** How many of a login's `limit` failures one address can account for. Default 3. */
  perAddressShare?: number;
  /** How long a successful (login, address) pair stays exempt from the login throttle. Default 30 days. */
  knownAddressMs?: number;
  /** Most keys kept (oldest dropped first). Default 50,000. */
  maxEntries?: number;
  /** Injectable clock (milliseconds). */
  now?: () => number;
}

export interface Attempt {
  login: string;
  /** Client address; without one only the login is throttled. */
  ip?: string | null;
}

export interface ThrottleVerdict {
  /** Whole seconds until an attempt may succeed (at least 1). */
  retryAfter: number;
  /** What is throttled. */
  scope: 'address' | 'login';
}

/** A Map that forgets its least recently written keys beyond a size. */
class BoundedMap<V> {
  private readonly map = new Map<string, V>();
  constructor(private readonly max: number) {}
  get(key: string): V | undefined {
    return this.map.get(key);
  }
  set(key: string, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    while (this.map.size > this.max) this.map.delete(this.map.keys().next().value!);
  }
  delete(key: string): void {
    this.map.delete(key);
  }
  clear(): void {
    this.map.clear();
  }
  get size(): number {
    return this.map.size;
  }
}

export class LoginThrottle {
  readonly limit: number;
  readonly windowMs: number;
  private readonly share: number;
  private readonly knownMs: number;
  private readonly now: () => number;
  /** Failure timestamps (the newest `limit` at most) per `a:<ip>`, `l:<login>` and `p:<login>\0<ip>`. */
  private readonly failures: BoundedMap<number[]>;
  /** Last success time per `<login>\0<ip>`. */
  private readonly known: BoundedMap<number>;

  constructor(opts: ThrottleOptions = {}) {
    this.limit = opts.limit ?? 10;
    this.windowMs = opts.windowMs ?? 60_000;
    this.share = Math.max(1, Math.min(opts.perAddressShare ?? 3, this.limit));
    this.knownMs = opts.knownAddressMs ?? 30 * 24 * 3600_000;
    this.now = opts.now ?? Date.now;
    const max = opts.maxEntries ?? 50_000;
    this.failures = new BoundedMap(max);
    this.known = new BoundedMap(max);
  }

  /** Null when the attempt may go ahead; otherwise how long to wait. Call before checking the password. */
  check(attempt: Attempt): ThrottleVerdict | null {
    const now = this.now();
    const ip = attempt.ip || null;
    if (ip) {
      const wait = this.wait(`a:${ip}`, this.limit, now);
      if (wait) return { retryAfter: wait, scope: 'address' };
    }
    const wait = this.wait(`l:${normalize(attempt.login)}`, this.limit, now);
    if (wait && !(ip && this.isKnown(attempt.login, ip, now))) return { retryAfter: wait, scope: 'login' };
    return null;
  }

  /** Records wrong credentials. */
  fail(attempt: Attempt): void {
    const now = this.now();
    const login = normalize(attempt.login);
    const ip = attempt.ip || null;
    if (!ip) {
      this.push(`l:${login}`, now, this.limit);
      return;
    }
    this.push(`a:${ip}`, now, this.limit);
    // The login counts this failure only while this address has not used up its share.
    const pair = this.push(`p:${login}\0${ip}`, now, this.share + 1);
    if (pair.length <= this.share) this.push(`l:${login}`, now, this.limit);
  }

  /** Records a sign-in: the address becomes known for the login. Address failures are kept (no reset by success). */
  succeed(attempt: Attempt): void {
    const ip = attempt.ip || null;
    if (!ip) return;
    const login = normalize(attempt.login);
    this.failures.delete(`p:${login}\0${ip}`);
    this.known.set(`${login}\0${ip}`, this.now());
  }

  /** Forgets everything. */
  reset(): void {
    this.failures.clear();
    this.known.clear();
  }

  /** Keys held (for tests of the bound). */
  get size(): number {
    return this.failures.size + this.known.size;
  }

  private live(key: string, now: number): number[] {
    const list = this.failures.get(key);
    if (!list) return [];
    const cutoff = now - this.windowMs;
    const drop = list.findIndex((at) => at > cutoff);
    if (drop === -1) {
      this.failures.delete(key);
      return [];
    }
    return drop ? list.slice(drop) : list;
  }

  /** Seconds until the key falls below `limit`, or 0 when it is below already. */
  private wait(key: string, limit: number, now: number): number {
    const list = this.live(key, now);
    if (list.length < limit) return 0;
    // The oldest kept failure (the list keeps the newest `limit`) is the one to expire.
    const [oldest = now] = list.slice(-limit);
    const until = oldest + this.windowMs;
    return Math.max(1, Math.ceil((until - now) / 1000));
  }

  private push(key: string, now: number, keep: number): number[] {
    const list = [...this.live(key, now), now].slice(-keep);
    this.failures.set(key, list);
    return list;
  }

  private isKnown(login: string, ip: string, now: number): boolean {
    const at = this.known.get(`${normalize(login)}\0${ip}`);
    return at !== undefined && now - at < this.knownMs;
  }
}

const normalize = (login: string) => login.toLowerCase();

/** The process-wide throttle used by `authenticate`. */
export const loginThrottle = new LoginThrottle();

/** Clears the process-wide throttle (tests). */
export function resetThrottle(): void {
  loginThrottle.reset();
  if (current instanceof LoginThrottle) current.reset();
}

/** What `authenticate` needs of a throttle: the in-memory one above, or the shared one below. */
export interface LoginThrottlePolicy {
  check(attempt: Attempt): ThrottleVerdict | null | Promise<ThrottleVerdict | null>;
  fail(attempt: Attempt): void | Promise<void>;
  succeed(attempt: Attempt): void | Promise<void>;
}

/** `CAL_AUTH_FAILURE_LIMIT=0`: no throttling at all. */
const unthrottled: LoginThrottlePolicy = { check: () => null, fail: () => {}, succeed: () => {} };

let current: LoginThrottlePolicy = loginThrottle;

/** The throttle `authenticate` uses by default (set once at startup by `configureLoginThrottle`). */
export function activeLoginThrottle(): LoginThrottlePolicy {
  return current;
}

/**
 * Applies CAL_AUTH_FAILURE_LIMIT / CAL_AUTH_FAILURE_WINDOW_S, and shares the counters between
 * processes through Redis when one is given (REDIS_URL): otherwise every process counts alone and
 * N processes allow N× the guesses. Returns a function releasing what it opened.
 */
export function configureLoginThrottle(opts: {
  limit: number;
  windowS: number;
  redis?: { url: string; prefix: string };
  logger?: OutageLogger;
}): () => Promise<void> {
  if (opts.limit === 0) {
    current = unthrottled;
    return async () => {};
  }
  if (!opts.redis) {
    current = new LoginThrottle({ limit: opts.limit, windowMs: opts.windowS * 1000 });
    return async () => {};
  }
  const { Redis } = loadRedis();
  // Commands fail at once while Redis is away (redis-client.ts), and the insurance limiters
  // (this process's own counters) answer instead: an outage costs a sign-in nothing.
  const redis = new Redis(opts.redis.url, redisOptions());
  reportOutages(redis, opts.logger, 'sign-in throttling', 'each process counts failed sign-ins alone');
  current = new SharedLoginThrottle(redis, { limit: opts.limit, windowS: opts.windowS, prefix: opts.redis.prefix });
  return async () => {
    current = loginThrottle;
    await redis.quit().catch(() => redis.disconnect());
  };
}

/**
 * The same policy as `LoginThrottle` (per address; per login with each address's share capped;
 * known addresses exempt) over `rate-limiter-flexible` counters in Redis, so every process sharing
 * the Redis shares the budget. Fixed windows (rate-limiter-flexible's) instead of sliding ones.
 * While Redis is unreachable each process falls back to in-memory counters (insurance limiters), at
 * once (no command waits for Redis), and goes back to the shared ones when it reconnects.
 */
class SharedLoginThrottle implements LoginThrottlePolicy {
  private readonly address: RateLimiterRedis;
  private readonly login: RateLimiterRedis;
  private readonly pair: RateLimiterRedis;
  private readonly known: RateLimiterRedis;
  private readonly limit: number;
  private readonly share: number;

  constructor(redis: Redis, opts: { limit: number; windowS: number; prefix: string }) {
    this.limit = opts.limit;
    this.share = Math.max(1, Math.min(3, opts.limit));
    const { RateLimiterRedis, RateLimiterMemory } = loadLimiters();
    // rate-limiter-flexible's memory store forgets each key with a timer, and Node fires a timer
    // longer than 2^31 - 1 ms (~24.8 days) at once: a 30-day key (a known address) would be forgotten
    // as soon as it is set. The in-memory fallback keeps such keys for as long as a timer can wait.
    const memory = (name: string, points: number, duration: number) => {
      const fallback = new RateLimiterMemory({ keyPrefix: name, points, duration: Math.min(duration, MAX_TIMER_S) });
      const set = fallback.set.bind(fallback);
      fallback.set = (key, setPoints, secDuration, options) => set(key, setPoints, Math.min(secDuration, MAX_TIMER_S), options);
      return fallback;
    };
    const limiter = (name: string, points: number, duration: number) =>
      new RateLimiterRedis({
        storeClient: redis,
        keyPrefix: `${opts.prefix}:auth:${name}`,
        points,
        duration,
        insuranceLimiter: memory(name, points, duration),
        // Not connected: straight to the insurance limiter, without sending anything.
        rejectIfRedisNotReady: true,
      });
    this.address = limiter('address', opts.limit, opts.windowS);
    this.login = limiter('login', opts.limit, opts.windowS);
    this.pair = limiter('pair', this.share + 1, opts.windowS);
    this.known = limiter('known', 1, 30 * 24 * 3600);
  }

  async check(attempt: Attempt): Promise<ThrottleVerdict | null> {
    const ip = attempt.ip || null;
    const login = normalize(attempt.login);
    const [byAddress, byLogin, known] = await Promise.all([
      ip ? this.address.get(ip) : null,
      this.login.get(login),
      ip ? this.known.get(`${login}\0${ip}`) : null,
    ]);
    const wait = (res: RateLimiterRes | null) =>
      res && res.consumedPoints >= this.limit ? Math.max(1, Math.ceil(res.msBeforeNext / 1000)) : 0;
    if (wait(byAddress)) return { retryAfter: wait(byAddress), scope: 'address' };
    if (wait(byLogin) && !known) return { retryAfter: wait(byLogin), scope: 'login' };
    return null;
  }

  async fail(attempt: Attempt): Promise<void> {
    const login = normalize(attempt.login);
    const ip = attempt.ip || null;
    if (!ip) {
      await this.login.penalty(login, 1);
      return;
    }
    const [, pair] = await Promise.all([this.address.penalty(ip, 1), this.pair.penalty(`${login}\0${ip}`, 1)]);
    if (pair.consumedPoints <= this.share) await this.login.penalty(login, 1);
  }

  async succeed(attempt: Attempt): Promise<void> {
    const ip = attempt.ip || null;
    if (!ip) return;
    const key = `${normalize(attempt.login)}\0${ip}`;
    await Promise.all([this.pair.delete(key), this.known.set(key, 1, 30 * 24 * 3600)]);
  }
}
