import { LRUCache } from 'lru-cache';
import { print, type DocumentNode, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../services/context.ts';
import type { SurrogateKeys } from '../domain/surrogate-keys.ts';
import type { ChangeBus } from '../services/changes.ts';
import type { CacheGeneration } from './cache-generation.ts';

export interface ResponseCacheOptions {
  /** Lifetime of an entry in seconds (CAL_CACHE_TTL_S); 0 turns the cache off. */
  ttlS: number;
  /** Bytes of JSON the cache may hold (CAL_CACHE_MAX_MB). */
  maxBytes: number;
  /** PostgreSQL: the generation shared by all processes on the database (src/server/cache-generation.ts). */
  shared?: CacheGeneration | null;
  /** Where a failed bump of the shared generation is reported. */
  onError?: (err: unknown) => void;
  /**
   * Caches layered on this one use its validity even when it keeps no entries itself (ttlS 0): the
   * generations are then followed all the same (the presented records, rest-facade/presenters/presented.ts).
   */
  layered?: boolean;
}

interface Entry {
  result: ExecutionResult;
  /** The shared generation read before the result was computed ('' without one). */
  shared: string;
  /** Anonymous GET reads: the surrogate keys of the records the result holds. */
  keys?: SurrogateKeys;
}

/**
 * Results of read-only GraphQL operations (queries), shared by `/graphql` and the REST facade (both run
 * through Yoga's envelop chain). Exact invalidation, simplest form: every change on the change bus
 * (any process's committed write) empties the whole cache; a write of this process empties it
 * synchronously when it publishes, before its response returns. A local generation counter keeps a
 * read that ran while a write committed from storing its (possibly older) result.
 *
 * Several processes on one PostgreSQL: the bus alone would leave a window (its latency) in which a
 * read on another process still finds the old entry. So every mutation bumps the database's shared
 * generation before it is answered, and every cached read first reads it (one coalesced query,
 * src/server/cache-generation.ts) and serves only an entry stored under that value.
 *
 * Keys: visibility class (anonymous, each signed-in user, edit context; a read password is never
 * cached), the request clock to the second (default list windows and `rest_url` move with it),
 * the operation (printed document, name) and its variables. Results with errors are not kept;
 * kept results are frozen (a consumer that mutated one would otherwise corrupt it for everyone).
 */
export class ResponseCache {
  private readonly lru: LRUCache<string, Entry> | null;
  private readonly shared: CacheGeneration | null;
  /** Whether generations are followed: with entries here, or caches layered on this one. */
  private readonly tracked: boolean;
  private readonly onError: (err: unknown) => void;
  private generation = 0;
  private readonly documents = new WeakMap<DocumentNode, string>();
  private readonly clearListeners: (() => void)[] = [];
  hits = 0;
  misses = 0;

  constructor(opts: ResponseCacheOptions) {
    this.lru =
      opts.ttlS > 0
        ? new LRUCache<string, Entry>({
            ttl: opts.ttlS * 1000,
            maxSize: Math.max(1, opts.maxBytes),
            sizeCalculation: (_value, key) => key.length + 1,
          })
        : null;
    this.tracked = this.lru !== null || opts.layered === true;
    this.shared = this.tracked ? (opts.shared ?? null) : null;
    this.onError = opts.onError ?? (() => {});
  }

  get enabled(): boolean {
    return this.lru !== null;
  }

  /** Empties the cache; reads in flight at this moment will not store their results. */
  clear(): void {
    this.generation++;
    this.lru?.clear();
    for (const listener of this.clearListeners) listener();
  }

  /** Called whenever the cache is emptied (the HTTP byte cache, src/server/middleware/byte-cache.ts, empties itself too). */
  onClear(listener: () => void): void {
    this.clearListeners.push(listener);
  }

  /**
   * The validity of what is computed from now on, for caches layered on this one (the byte cache):
   * this process's generation and, on PostgreSQL, the shared one (read by a query that starts after
   * this call). An entry stored under a value is served only while the value is unchanged, so any
   * committed write, from any process, makes the next read fresh. Null when the shared generation
   * cannot be read: then nothing is stored or served.
   */
  validity(): string | Promise<string | null> {
    const local = String(this.generation);
    if (!this.shared) return local;
    return this.shared.current().then(
      (shared) => `${local}:${shared}`,
      (err: unknown) => {
        this.onError(err);
        return null;
      },
    );
  }

  /**
   * A write was committed outside any mutation (background work such as the recurrence horizon):
   * empties the cache and moves the shared generation on.
   */
  written(): Promise<void> {
    this.clear();
    return this.bumpShared();
  }

  private bumpShared(): Promise<void> {
    // A failed bump cannot undo a committed write: it is reported, and the bus still carries the change.
    return this.shared ? this.shared.bump().catch((err: unknown) => this.onError(err)) : Promise.resolve();
  }

  /**
   * Follows the change bus (src/services/changes.ts): a write of this process empties the cache
   * synchronously when it publishes (and moves the shared generation on, which concurrent
   * publishes share), and every change of every process (received through the transport) empties
   * it again.
   */
  follow(bus: ChangeBus): void {
    if (!this.tracked) return;
    bus.onPublish(() => void this.written());
    bus.onChange(() => this.clear());
  }

  /** The envelop plugin: answers repeated read operations from the cache. */
  plugin(): Plugin<Context> {
    return {
      onExecute: ({ args, setResultAndStopExecution, extendContext }) => {
        if (!this.tracked) return;
        const operation = operationOf(args.document, args.operationName);
        // A mutation is answered only once the cache is empty here and the shared generation has moved
        // on: then no process serves a result older than it. Also for mutations that publish no change.
        if (operation !== 'query') return operation === 'mutation' ? { onExecuteDone: () => this.written() } : undefined;
        if (!this.lru) return;
        const ctx = args.contextValue as Partial<Context>;
        const key = this.keyOf(args.document, args.operationName, args.variableValues, ctx);
        if (key === null) return;
        if (!this.shared) return this.lookup(key, '', ctx, setResultAndStopExecution, extendContext);
        return this.shared.current().then(
          (shared) => this.lookup(key, shared, ctx, setResultAndStopExecution, extendContext),
          (err: unknown) => {
            this.onError(err);
            this.misses++; // generation unknown: computed, not stored
          },
        );
      },
    };
  }

  private lookup(key: string, shared: string, ctx: Partial<Context>, hit: (result: ExecutionResult) => void, extendContext: (c: Partial<Context>) => void) {
    const lru = this.lru!;
    const cached = lru.get(key);
    if (cached && cached.shared === shared) {
      this.hits++;
      // The records the result holds, as when it was computed (src/domain/surrogate-keys.ts).
      if (cached.keys) ctx.surrogateKeys?.addAll(cached.keys);
      hit(cached.result);
      return;
    }
    this.misses++;
    const generation = this.generation;
    // This operation's own keys (the request may run several), kept with its result.
    const keys = ctx.surrogateKeys?.child();
    if (keys) extendContext({ surrogateKeys: keys });
    return {
      onExecuteDone: ({ result, setResult }: { result: unknown; setResult: (r: ExecutionResult) => void }) => {
        if (Symbol.asyncIterator in (result as object)) return;
        const r = result as ExecutionResult;
        if (r.errors?.length || !r.data || generation !== this.generation) return;
        const frozen = deepFreeze(r);
        // Size by serialized length: the memory bound is in bytes of JSON, not in entries.
        lru.set(key, { result: frozen, shared, keys }, { size: key.length + JSON.stringify(frozen.data).length });
        setResult(frozen);
      },
    };
  }

  private keyOf(document: DocumentNode, operationName: string | null | undefined, variables: unknown, ctx: Partial<Context>): string | null {
    if (ctx.password !== undefined) return null;
    let text = this.documents.get(document);
    if (text === undefined) {
      text = print(document);
      this.documents.set(document, text);
    }
    const who = ctx.viewer ? `u${ctx.viewer.id}:${ctx.viewer.role}` : 'anon';
    const second = ctx.now ? Math.floor(ctx.now.getTime() / 1000) : Math.floor(Date.now() / 1000);
    return `${who}|${ctx.editContext ? 'e' : '-'}|${second}|${operationName ?? ''}|${JSON.stringify(variables ?? null)}|${text}`;
  }
}

function operationOf(document: DocumentNode, operationName: string | null | undefined): string | undefined {
  const ops = document.definitions.filter((d) => d.kind === 'OperationDefinition');
  const op = operationName ? ops.find((d) => d.name?.value === operationName) : ops.length === 1 ? ops[0] : undefined;
  return op?.operation;
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}
