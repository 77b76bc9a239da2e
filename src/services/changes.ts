import type { Context } from './context.ts';

/**
 * The change bus: every committed write to the calendar publishes what it changed, whichever API
 * made it, so that live subscriptions (GraphQL `…Changed`) and caches can follow the data. Writes
 * publish after their statements have committed (services run no transaction around a whole
 * write), one change per record touched, linked records included (a term whose event count moved,
 * an event that lost its venue). The transport (one process, Redis pub/sub or PostgreSQL
 * LISTEN/NOTIFY) is chosen at startup (src/server/changes-transport.ts); every process sees the
 * changes of all processes sharing it, its own included, exactly once.
 */
/** USER: an account or its application passwords (no subscription field; caches follow it). */
export type ChangeKind = 'EVENT' | 'VENUE' | 'ORGANIZER' | 'EVENT_CATEGORY' | 'EVENT_TAG' | 'USER';
export type ChangeAction = 'CREATED' | 'UPDATED' | 'DELETED' | 'RESTORED';
export const CHANGE_ACTIONS: readonly ChangeAction[] = ['CREATED', 'UPDATED', 'DELETED', 'RESTORED'];

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
}

export type ChangeListener = (change: Change) => void;

export interface ChangeBus {
  /** Hands a change to the transport; never throws (a lost notification must not fail a committed write). */
  publish(change: Change): void;
  /** Calls `listener` with every change of every process on this bus; returns the unsubscribe function. */
  onChange(listener: ChangeListener): () => void;
  close(): Promise<void>;
}

/** Listeners of one process; transports feed it what they receive. */
export class ChangeListeners {
  private readonly listeners = new Set<ChangeListener>();
  add(listener: ChangeListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
  emit(change: Change): void {
    for (const listener of [...this.listeners]) {
      try {
        listener(change);
      } catch {
        // One failing consumer does not keep the change from the others.
      }
    }
  }
}

/** The in-process bus: changes reach the listeners of this process only. */
export function createLocalChangeBus(): ChangeBus {
  const listeners = new ChangeListeners();
  return {
    publish: (change) => queueMicrotask(() => listeners.emit(change)),
    onChange: (listener) => listeners.add(listener),
    close: async () => {},
  };
}

/** The bus of contexts created without one (in-process executions, tests, the CLI). */
export const processChangeBus: ChangeBus = createLocalChangeBus();

/** Publishes changes of a committed write (duplicates within the call collapse). */
export function publishChange(ctx: Context, ...changes: Change[]): void {
  const seen = new Set<string>();
  for (const change of changes) {
    const key = `${change.kind}:${change.id}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const { kind, id, action, before } = change;
    ctx.changes.publish(before ? { kind, id, action, before: { status: before.status, authorId: before.authorId } } : { kind, id, action });
  }
}

export function onChange(ctx: Pick<Context, 'changes'>, listener: ChangeListener): () => void {
  return ctx.changes.onChange(listener);
}

/** Categories and tags linked to an event, as UPDATED changes: their event counts move with its writes. */
export async function eventTermChanges(ctx: Context, eventId: number): Promise<Change[]> {
  const [categories, tags] = await Promise.all([
    ctx.prisma.eventCategory.findMany({ where: { eventId }, select: { categoryId: true } }),
    ctx.prisma.eventTag.findMany({ where: { eventId }, select: { tagId: true } }),
  ]);
  return termChanges(
    categories.map((c) => c.categoryId),
    tags.map((t) => t.tagId),
  );
}

/** The terms of an event as UPDATED changes, when the write knows them (no read back; issue 21, item 7). */
export function termChanges(categoryIds: readonly number[], tagIds: readonly number[]): Change[] {
  return [
    ...categoryIds.map((id): Change => ({ kind: 'EVENT_CATEGORY', id, action: 'UPDATED' })),
    ...tagIds.map((id): Change => ({ kind: 'EVENT_TAG', id, action: 'UPDATED' })),
  ];
}

/** Events linked to a venue, organizer or term, as UPDATED changes (the link goes away with it). */
export async function linkedEventChanges(ctx: Context, kind: Exclude<ChangeKind, 'EVENT' | 'USER'>, id: number): Promise<Change[]> {
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
