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
    let drop = 0;
    while (drop < list.length && list[drop] <= cutoff) drop++;
    if (drop === list.length) {
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
    const until = list[list.length - limit] + this.windowMs;
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
}
