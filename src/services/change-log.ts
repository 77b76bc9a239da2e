import { Repeater } from 'graphql-yoga';
import { Prisma } from '../../prisma/generated/client/client.ts';
import type { DatabaseClient } from '../db/input-guard.ts';
import { inTransaction, transactionScoped, type TransactionClient } from '../db/transactions.ts';
import { ValidationError } from '../domain/errors.ts';
import { type Change, type ChangeAction, type ChangeBus, type ChangeKind } from './changes.ts';
import type { Context } from './context.ts';
import { retryOnWriteConflict, wholeWrite } from './retry.ts';
import { isSlugConflict } from './slugs.ts';
import { detached } from '../telemetry/tracing.ts';
import { withRenewedBudget } from '../db/request-budget.ts';

/**
 * The change log: every change a write makes (what `publishChange` announces: the record's own
 * and the linked ones) is a row of `ChangeLog`, inserted in the write's own transaction
 * (`recordChanges`). A change therefore exists exactly when its write committed, whatever happens
 * to the process or the bus afterwards. Delivery (subscriptions, the `changes` connection,
 * webhooks) reads the log; the bus (Redis pub/sub, LISTEN/NOTIFY) only wakes the readers up, and a
 * poll every second stands in for it when it is away.
 *
 * Order and the visibility horizon: a row carries its transaction's ID (`txid`,
 * `pg_current_xact_id()`) and a sequence number (`seq`). Two transactions that overlap can commit
 * in either order, whatever their numbers, so a reader reads only rows whose `txid` is below
 * `pg_snapshot_xmin(pg_current_snapshot())`: every transaction with a smaller ID has ended
 * (committed or aborted) and no row can ever appear there again. Rows are read in (txid, seq)
 * order and a cursor is a (txid, seq) position: everything before it has been read, and nothing
 * can still arrive before it. A transaction that stays open holds the horizon, and delivery waits
 * for it (writes run in short transactions; a stuck session delays changes, it never loses one).
 * PGlite has one connection, so its horizon is simply "every committed write".
 */

/** A position in the log: every row at or before it has been read. */
interface Position {
  txid: bigint;
  seq: bigint;
}

/** One change of the log, as readers receive it. */
export interface ChangeLogRow {
  /** Opaque: the position right after this row (give it as `after` to read on from here). */
  cursor: string;
  kind: ChangeKind;
  action: ChangeAction;
  /** The record's database ID. */
  id: number;
  /** Posts: status and author before the write (who could read the record before it). */
  before?: { status: string; authorId: number | null };
  /** When the writing transaction started (the log's clock; retention prunes by it). */
  committedAt: Date;
}

export interface ReadChangesOptions {
  /** Rows strictly after this cursor; null or absent: from the oldest row kept. */
  after?: string | null;
  /** At most this many rows (default 100, at most 1,000). */
  limit?: number;
  /** Only these kinds. */
  types?: readonly ChangeKind[] | null;
  /** Only these actions. */
  actions?: readonly ChangeAction[] | null;
}

const START: Position = { txid: 0n, seq: 0n };
const CURSOR_PREFIX = 'c1:';

/** The opaque form of a position (base64url of `c1:<txid>:<seq>`). */
export function encodeCursor(p: Position): string {
  return Buffer.from(`${CURSOR_PREFIX}${p.txid}:${p.seq}`).toString('base64url');
}

/** A cursor back to its position; a ValidationError (INVALID_CURSOR) when it is not one of ours. */
function decodeCursor(cursor: string, field = 'after'): Position {
  const text = Buffer.from(cursor, 'base64url').toString();
  const m = /^c1:(\d{1,20}):(\d{1,20})$/.exec(text);
  if (!m) throw new ValidationError('Not a change cursor.', field, 'INVALID_CURSOR');
  return { txid: BigInt(m[1]!), seq: BigInt(m[2]!) };
}

const after = (a: Position, b: Position) => a.txid > b.txid || (a.txid === b.txid && a.seq > b.seq);

/** The visibility horizon as SQL: every transaction below it has ended. */
const HORIZON = Prisma.sql`(pg_snapshot_xmin(pg_current_snapshot())::text)::bigint`;

interface LogRecord {
  txid: bigint;
  seq: bigint;
  kind: string;
  action: string;
  recordId: number;
  beforeStatus: string | null;
  beforeAuthorId: number | null;
  committedAt: Date;
}

function toRow(r: LogRecord): ChangeLogRow {
  const row: ChangeLogRow = {
    cursor: encodeCursor(r),
    kind: r.kind as ChangeKind,
    action: r.action as ChangeAction,
    id: r.recordId,
    committedAt: r.committedAt,
  };
  if (r.beforeStatus !== null) row.before = { status: r.beforeStatus, authorId: r.beforeAuthorId };
  return row;
}

/**
 * The changes as log rows, in the transaction `tx`, in the order published (publishChange has
 * collapsed the duplicates of each call; two calls are two changes, as on the bus: a term CREATED,
 * then UPDATED when an event of the same write links it).
 */
export async function appendChanges(tx: TransactionClient, changes: readonly Change[]): Promise<void> {
  const kinds: string[] = [];
  const actions: string[] = [];
  const ids: number[] = [];
  const statuses: (string | null)[] = [];
  const authors: (number | null)[] = [];
  for (const c of changes) {
    kinds.push(c.kind);
    actions.push(c.action);
    ids.push(c.id);
    statuses.push(c.before?.status ?? null);
    authors.push(c.before?.authorId ?? null);
  }
  if (!ids.length) return;
  // One statement for any number of changes (a long series writes thousands); WITH ORDINALITY keeps
  // their order in `seq`.
  await tx.$executeRaw`
    INSERT INTO "ChangeLog" (kind, action, "recordId", "beforeStatus", "beforeAuthorId")
    SELECT k, a, i, s, u FROM unnest(${kinds}::text[], ${actions}::text[], ${ids}::int[], ${statuses}::text[], ${authors}::int[])
      WITH ORDINALITY AS t(k, a, i, s, u, n) ORDER BY n`;
}

/** The oldest position still readable: a cursor before it is expired (CURSOR_EXPIRED). */
async function prunedUpTo(db: DatabaseClient): Promise<Position> {
  const rows = await db.$queryRaw<Position[]>`SELECT txid, seq FROM "ChangeLogPruned" WHERE id = 1`;
  return rows[0] ?? START;
}

/**
 * Rows strictly after `after`, in commit-safe order (txid, seq), only below the visibility horizon:
 * a later read after the last row returned can never find a row before it. A cursor older than the
 * retention kept is refused with a ValidationError coded CURSOR_EXPIRED (refetch, then read on from
 * `headCursor`).
 */
export async function readChanges(db: DatabaseClient, opts: ReadChangesOptions = {}): Promise<ChangeLogRow[]> {
  const from = opts.after ? decodeCursor(opts.after) : START;
  const limit = Math.max(1, Math.min(opts.limit ?? 100, 1_000));
  const types = opts.types?.length ? Prisma.sql`AND kind = ANY(${[...opts.types]}::text[])` : Prisma.empty;
  const actions = opts.actions?.length ? Prisma.sql`AND action = ANY(${[...opts.actions]}::text[])` : Prisma.empty;
  // The rows and the mark of the last prune in one statement, hence one snapshot: a prune that
  // removed rows after the cursor is seen with its mark, one that did not commit yet removed nothing
  // read here. One row at least (the mark), with null columns of the log when none is after `after`.
  const rows = await db.$queryRaw<(Omit<LogRecord, 'txid' | 'seq'> & { txid: bigint | null; seq: bigint | null; prunedTxid: bigint | null; prunedSeq: bigint | null })[]>`
    SELECT p.txid AS "prunedTxid", p.seq AS "prunedSeq", c.*
    FROM (SELECT 1) one
    LEFT JOIN "ChangeLogPruned" p ON p.id = 1
    LEFT JOIN LATERAL (
      SELECT txid, seq, kind, action, "recordId", "beforeStatus", "beforeAuthorId", "committedAt"
      FROM "ChangeLog"
      WHERE (txid, seq) > (${from.txid}, ${from.seq}) AND txid < ${HORIZON} ${types} ${actions}
      ORDER BY txid, seq
      LIMIT ${limit}
    ) c ON true
    ORDER BY c.txid, c.seq`;
  const mark = rows[0];
  if (opts.after && mark?.prunedTxid != null && after({ txid: mark.prunedTxid, seq: mark.prunedSeq! }, from)) throw expired('after');
  return rows.filter((r): r is typeof r & LogRecord => r.txid !== null).map(toRow);
}

/** The cursor of "now": right after the newest row below the horizon (everything before it is readable). */
export async function headCursor(db: DatabaseClient): Promise<string> {
  const rows = await db.$queryRaw<Position[]>`
    SELECT txid, seq FROM "ChangeLog" WHERE txid < ${HORIZON} ORDER BY txid DESC, seq DESC LIMIT 1`;
  const pruned = await prunedUpTo(db);
  const head = rows[0] ?? START;
  return encodeCursor(after(pruned, head) ? pruned : head);
}

/**
 * Deletes the rows older than `retentionDays` (by `committedAt`, up to the newest such row in log
 * order and below the horizon) and remembers where the log now starts. Returns the rows deleted.
 */
export async function pruneChanges(db: DatabaseClient, retentionDays: number, now = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - retentionDays * 86_400_000);
  return inTransaction(db, async (tx) => {
    const mark = await tx.$queryRaw<Position[]>`
      SELECT txid, seq FROM "ChangeLog" WHERE "committedAt" < ${cutoff} AND txid < ${HORIZON}
      ORDER BY txid DESC, seq DESC LIMIT 1`;
    const upTo = mark[0];
    if (!upTo) return 0;
    const deleted = await tx.$executeRaw`DELETE FROM "ChangeLog" WHERE (txid, seq) <= (${upTo.txid}, ${upTo.seq})`;
    await tx.$executeRaw`
      INSERT INTO "ChangeLogPruned" (id, txid, seq) VALUES (1, ${upTo.txid}, ${upTo.seq})
      ON CONFLICT (id) DO UPDATE SET txid = EXCLUDED.txid, seq = EXCLUDED.seq
      WHERE ("ChangeLogPruned".txid, "ChangeLogPruned".seq) < (EXCLUDED.txid, EXCLUDED.seq)`;
    return deleted;
  });
}

/**
 * Prunes the log now and then every `everyMs` (hourly by default) without keeping the process
 * alive. Every process may run it: a prune is one transaction, and a second one finds less to do.
 */
export function startChangePruning(db: DatabaseClient, retentionDays: number, onError: (error: unknown) => void, everyMs = 3_600_000): () => void {
  const tick = () => void pruneChanges(db, retentionDays).catch(onError);
  const timer = setInterval(tick, everyMs);
  timer.unref();
  tick();
  return () => clearInterval(timer);
}

/**
 * The changes of one write, collected while it runs in its transaction (publishChange lands here),
 * inserted into the log before it commits and handed to the real bus after: the publish hooks
 * (caches, purges) and the wake-up of the readers.
 */
class ChangeRecorder implements ChangeBus {
  pending: Change[] = [];
  readonly bus: ChangeBus;
  constructor(bus: ChangeBus) {
    this.bus = bus;
  }
  publish(change: Change): void {
    this.pending.push(change);
  }
  onPublish(hook: (change: Change) => void): () => void {
    return this.bus.onPublish(hook);
  }
  onChange(listener: (change: Change) => void): () => void {
    return this.bus.onChange(listener);
  }
  get transport() {
    return this.bus.transport;
  }
  close(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * Runs a write in one transaction with its change-log rows: `write` gets a context whose database
 * client is the transaction and whose `publishChange` collects; the rows are inserted before the
 * commit, and the changes published on the bus after it. Nested writes (a write calling another,
 * or the import's transaction around one record) join the outer one. The transaction is run again
 * on a deadlock or serialization failure, as single writes were (retry.ts), and on a slug taken
 * meanwhile (writeWithUniqueSlug joins it without a savepoint).
 */
export async function recordChanges<T>(ctx: Context, write: (ctx: Context) => Promise<T>): Promise<T> {
  if (ctx.changes instanceof ChangeRecorder) return write(ctx);
  const recorder = new ChangeRecorder(ctx.changes);
  const run = () =>
    retryOnWriteConflict(() =>
      inTransaction(ctx.prisma, (tx) =>
        wholeWrite.run(true, async () => {
          recorder.pending = [];
          const value = await write({ ...ctx, origin: ctx.origin ?? ctx, prisma: transactionScoped(ctx.prisma, tx), changes: recorder });
          await appendChanges(tx, recorder.pending);
          return value;
        }),
      ),
    );
  let result: T;
  // A slug taken by a concurrent writer (from another base: `x-2` beside `x`) aborted the
  // transaction: writeWithUniqueSlug runs without a savepoint in here. The next run finds it taken.
  for (let attempt = 1; ; attempt++) {
    try {
      result = await run();
      break;
    } catch (error) {
      if (!isSlugConflict(error) || attempt >= 5) throw error;
    }
  }
  for (const change of recorder.pending) recorder.bus.publish(change);
  return result;
}

/** `recordChanges` around a service function: `export const f = recorded(async (ctx, …) => …)`. */
export function recorded<A extends unknown[], T>(write: (ctx: Context, ...args: A) => Promise<T>): (ctx: Context, ...args: A) => Promise<T> {
  return (ctx, ...args) => recordChanges(ctx, (inner) => write(inner, ...args));
}

/** Listener of the log tailer: rows in log order, as they pass the horizon. */
type RowsListener = (rows: readonly ChangeLogRow[]) => void;

/** How often the tailer reads the log without a wake-up (the bus away, or a wake-up lost). */
const POLL_MS = 1_000;
/** How long a wake-up waits for the others of the same write (one bus message per change). */
const WAKE_GATHER_MS = 5;
const BATCH = 500;

/**
 * One reader of the log per process and database: woken by the bus (any message: it never carries
 * the change to readers) or every second, it reads what passed the horizon since its position and
 * hands it to its listeners (the subscriptions of this process), so a thousand subscribers cost one
 * query per wake-up, not a thousand. It runs while it has listeners; each listens on the bus for
 * the wake-up (the bus counts one listener per live subscription).
 */
export class ChangeLogTailer {
  private position: Position | null = null;
  private ready: Promise<void> | null = null;
  private readonly rowsListeners = new Set<RowsListener>();
  private readonly advanceListeners = new Set<() => void>();
  private reading = false;
  private gathering = false;
  private again = false;
  private timer: NodeJS.Timeout | undefined;

  private readonly db: DatabaseClient;
  private readonly bus: Pick<ChangeBus, 'onChange'>;
  private readonly onError: (error: unknown) => void;
  constructor(db: DatabaseClient, bus: Pick<ChangeBus, 'onChange'>, onError: (error: unknown) => void = () => {}) {
    this.db = db;
    this.bus = bus;
    this.onError = onError;
  }

  /**
   * Calls `listener` with every batch of rows read from now on. Returns the unsubscribe function
   * and the cursor the listener starts after: every row after it reaches the listener.
   */
  async onRows(listener: RowsListener): Promise<{ off: () => void; cursor: string }> {
    await this.start();
    // From here on synchronous: the position read is exactly where the listener's rows begin.
    this.rowsListeners.add(listener);
    const offBus = this.bus.onChange(() => this.wake());
    let on = true;
    const off = () => {
      if (!on) return;
      on = false;
      offBus();
      this.remove(() => this.rowsListeners.delete(listener));
    };
    return { off, cursor: encodeCursor(this.position!) };
  }

  /**
   * Calls `listener` whenever the log advanced (rows passed the horizon); a reader with a cursor
   * of its own (a webhook dispatcher) then reads on from it. Returns the unsubscribe function.
   */
  onLogAdvance(listener: () => void): () => void {
    this.advanceListeners.add(listener);
    const offBus = this.bus.onChange(() => this.wake());
    this.start().catch(this.onError);
    let on = true;
    return () => {
      if (!on) return;
      on = false;
      offBus();
      this.remove(() => this.advanceListeners.delete(listener));
    };
  }

  /**
   * How far behind the log this tailer is: the committed rows after its position, and the age of
   * the oldest (by the database's clock), rows still above the horizon included (a transaction left
   * open holds them back from every reader). One range scan of the primary key; zero while idle.
   */
  async backlog(): Promise<{ rows: number; seconds: number }> {
    const at = this.position;
    if (!at) return { rows: 0, seconds: 0 };
    const [row] = await this.db.$queryRaw<{ rows: bigint; seconds: number | null }[]>`
      SELECT count(*) AS rows, EXTRACT(EPOCH FROM now() - min("committedAt"))::float8 AS seconds
      FROM "ChangeLog" WHERE (txid, seq) > (${at.txid}, ${at.seq})`;
    return { rows: Number(row?.rows ?? 0), seconds: Math.max(0, row?.seconds ?? 0) };
  }

  /**
   * Reads soon (a wake-up): the wake-ups of the next few milliseconds, and those while it reads,
   * collapse into one read. A write publishes one bus message per change (the event, its terms), each
   * a wake-up of its own; reading once for all of them is what keeps a write's cost here to one
   * statement.
   */
  wake(): void {
    if (!this.position || this.gathering) return;
    if (this.reading) {
      this.again = true;
      return;
    }
    this.gathering = true;
    const timer = setTimeout(() => {
      this.gathering = false;
      this.read();
    }, WAKE_GATHER_MS);
    timer.unref();
  }

  private read(): void {
    if (this.reading) {
      this.again = true;
      return;
    }
    this.reading = true;
    // The process's reader, not a request's: a wake-up comes from a writer's bus message or a
    // subscriber's first listen, and its reads must not count against (or outlive) that request's
    // database budget and trace.
    void detached(() => this.drain()).finally(() => {
      this.reading = false;
      if (this.again) {
        this.again = false;
        this.wake();
      }
    });
  }

  private async drain(): Promise<void> {
    let advanced = false;
    try {
      for (;;) {
        if (!this.position) break;
        const rows = await readChanges(this.db, { after: encodeCursor(this.position), limit: BATCH });
        if (!rows.length || !this.position) break;
        // Position and delivery in one synchronous step (onRows relies on it).
        this.position = decodeCursor(rows.at(-1)!.cursor);
        advanced = true;
        for (const listener of [...this.rowsListeners]) listener(rows);
        if (rows.length < BATCH) break;
      }
    } catch (error) {
      // The next wake-up or poll reads again from the same position.
      this.onError(error);
    }
    if (advanced) for (const listener of [...this.advanceListeners]) listener();
  }

  private start(): Promise<void> {
    this.ready ??= (async () => {
      this.position = decodeCursor(await headCursor(this.db));
      this.timer = detached(() => setInterval(() => this.wake(), POLL_MS));
      this.timer.unref();
    })().catch((error: unknown) => {
      this.ready = null;
      throw error;
    });
    return this.ready;
  }

  private remove(drop: () => void): void {
    drop();
    if (this.rowsListeners.size || this.advanceListeners.size || !this.ready) return;
    // Idle: no reads until the next listener, which starts again from the head.
    clearInterval(this.timer);
    this.ready = null;
    this.position = null;
  }
}

/**
 * The changes after `after` (or from now when absent), then live, as an async iterator: what is in
 * the log since the cursor is read first, then the rows the process's tailer reads, with nothing
 * repeated or missed at the seam (rows at or before the position reached are dropped; the tailer's
 * rows begin where it stood when this listener joined, which the replay has passed). Ends when
 * returned (the client went away). `after` must have been checked (`checkCursor`).
 */
export async function followChanges(
  db: DatabaseClient,
  bus: Pick<ChangeBus, 'onChange'>,
  opts: { after?: string | null; types?: readonly ChangeKind[] | null },
): Promise<AsyncIterableIterator<ChangeLogRow>> {
  const tailer = changeLogTailer(db, bus);
  const wanted = (row: ChangeLogRow) => !opts.types?.length || opts.types.includes(row.kind);
  // Listening from the moment the stream is asked for, before its first read: a live stream
  // without `after` begins exactly there.
  const buffer: ChangeLogRow[] = [];
  let signal: (() => void) | null = null;
  const { off, cursor } = await tailer.onRows((rows) => {
    buffer.push(...rows);
    signal?.();
  });
  // Without `after`, the stream is of what commits from now on. The tailer may still be behind the
  // horizon (a transaction open anywhere on the server holds it), so rows it has yet to pass can
  // have committed before this moment: a snapshot taken after listening tells them apart exactly.
  let committedBefore: ((txid: bigint) => boolean) | null = null;
  if (!opts.after) {
    try {
      committedBefore = await snapshotSees(db);
    } catch (error) {
      off();
      throw error;
    }
  }
  const stream = new Repeater<ChangeLogRow>(async (push, stop) => {
    let stopped = false;
    void stop.then(() => {
      stopped = true;
      signal?.();
    });
    try {
      let position = decodeCursor(opts.after ?? cursor);
      if (opts.after) {
        for (;;) {
          // A long replay reads batch after batch in the opening request's context: each with a budget of its own.
          const rows = await withRenewedBudget(() => readChanges(db, { after: encodeCursor(position), limit: BATCH, types: opts.types }));
          for (const row of rows) {
            if (stopped) return;
            await push(row);
            position = decodeCursor(row.cursor);
          }
          if (rows.length < BATCH) break;
        }
      }
      while (!stopped) {
        for (let row = buffer.shift(); row && !stopped; row = buffer.shift()) {
          const at = decodeCursor(row.cursor);
          if (!after(at, position)) continue;
          position = at;
          if (wanted(row) && !committedBefore?.(at.txid)) await push(row);
        }
        if (stopped) break;
        await new Promise<void>((resolve) => (signal = resolve));
        signal = null;
      }
    } finally {
      off();
    }
  });
  const end = stream.return.bind(stream);
  // Also when the stream ends before its first read (the Repeater never started).
  stream.return = (value) => {
    off();
    return end(value);
  };
  return stream;
}

/**
 * Which transactions the database's current snapshot sees as ended (`pg_current_snapshot()`):
 * those below its xmin, and those below its xmax not listed as running. A log row of such a
 * transaction committed before the snapshot was taken.
 */
async function snapshotSees(db: DatabaseClient): Promise<(txid: bigint) => boolean> {
  const [row] = await db.$queryRaw<{ snapshot: string }[]>`SELECT pg_current_snapshot()::text AS snapshot`;
  const [xmin, xmax, running] = row!.snapshot.split(':');
  const low = BigInt(xmin!);
  const high = BigInt(xmax!);
  const open = new Set(running ? running.split(',').map(BigInt) : []);
  return (txid) => txid < low || (txid < high && !open.has(txid));
}

/** Checks a cursor given by a client: INVALID_CURSOR when it is none of ours, CURSOR_EXPIRED when it is older than the log keeps. */
export async function checkCursor(db: DatabaseClient, cursor: string, field = 'after'): Promise<void> {
  const at = decodeCursor(cursor, field);
  if (after(await prunedUpTo(db), at)) throw expired(field);
}

const expired = (field: string) =>
  new ValidationError('This cursor is older than the change log keeps: refetch, then follow the changes from now.', field, 'CURSOR_EXPIRED');

const tailers = new WeakMap<object, Map<object, ChangeLogTailer>>();

/** The process's tailer of the log on `db`, woken by `bus` (one per database client and bus). */
export function changeLogTailer(db: DatabaseClient, bus: Pick<ChangeBus, 'onChange'>): ChangeLogTailer {
  let byBus = tailers.get(db);
  if (!byBus) tailers.set(db, (byBus = new Map()));
  let tailer = byBus.get(bus);
  if (!tailer) byBus.set(bus, (tailer = new ChangeLogTailer(db, bus)));
  return tailer;
}
