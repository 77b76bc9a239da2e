import type { Category, Event, Organizer, Tag, Venue } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../src/services/context.ts';
import { filter as filterStream, map, pipe } from 'graphql-yoga';
import { CHANGE_ACTIONS, type ChangeAction, type ChangeKind } from '../../src/services/changes.ts';
import { checkCursor, followChanges, readChanges, type ChangeLogRow } from '../../src/services/change-log.ts';
import { readableWhere, viewerCanRead } from '../../src/services/visibility.ts';
import { retryRead } from '../../src/services/retry.ts';
import { withRenewedBudget } from '../../src/db/request-budget.ts';
import type { ObjectFieldThunk, ObjectRef } from '@pothos/core';
import { GraphQLError } from 'graphql';
import { builder } from '../builder.ts';
import { raisesDomainErrors } from '../errors.ts';
import { globalId, recordIds, type NodeTypeName } from '../ids.ts';
import type { Edge } from '../pagination.ts';
import { categoryEdges, EventCategoryRef } from './event-category.ts';
import { eventEdgeOf, EventEdgeRef, EventRef } from './event.ts';
import { EventTagRef, tagEdges } from './event-tag.ts';
import { OrganizerRef, organizerEdges } from './organizer.ts';
import { VenueRef, venueEdges } from './venue.ts';

/**
 * Live changes (GraphQL over SSE at `/graphql`): each `…Changed` field streams the changes of one
 * kind of record from the change log (src/services/change-log.ts), whichever API or process made
 * them. `after` (a payload's `cursor`, or over SSE the `Last-Event-ID` an EventSource sends when it
 * reconnects) first replays what the caller may see since that cursor, then goes on live.
 * Every change is judged per subscriber, with the subscriber's own context, when it is delivered:
 * a record the caller may not read is never sent; one that left the caller's view (deleted, trashed,
 * unpublished) arrives as DELETED with its ID only, and only to callers who could read it before.
 *
 * A payload has no `id` of its own: it is not a record, and a normalized cache keys records by
 * `id` (Relay would store the change as the event itself). The record's global ID is `<record>Id`
 * (`eventId`, `venueId`, …); `deletedId` repeats it on DELETED only, so that `@deleteRecord` /
 * `@deleteEdge` on it act on deletions alone; `<record>Edge` is the record's edge in its default
 * list on CREATED and RESTORED (`@appendEdge`).
 */
export const ChangeActionEnum = builder.enumType('ChangeAction', {
  description: 'What happened to the record. DELETED: deleted, moved to the trash, or no longer readable by you.',
  values: CHANGE_ACTIONS,
});

const ChangeFilterInput = builder.inputType('ChangeFilter', {
  description: 'Narrows a change stream; all given conditions apply.',
  fields: (t) => ({
    ids: t.idList({ required: false, description: 'Only these records (global IDs, or database IDs).' }),
    actions: t.field({ type: [ChangeActionEnum], required: false, description: 'Only these actions.' }),
  }),
});

/** One change as a subscriber receives it; `record` is of the field's own kind (null when DELETED). */
interface Delivery<Row> {
  /** The change's position in the log: resume after it. */
  cursor: string;
  action: ChangeAction;
  id: number;
  record: Row | null;
}

interface Filter {
  ids?: readonly number[] | null;
  actions?: readonly ChangeAction[] | null;
}

/**
 * The deliveries of one subscriber, in bus order: the bus's change stream (src/services/changes.ts,
 * listening from the moment the subscription is set up until the client goes away), narrowed to
 * this kind and filter and judged with the subscriber's own context.
 */
async function deliveries<Row>(
  ctx: Context,
  kind: ChangeKind,
  filter: Filter,
  after: string | null,
  load: (id: number) => Promise<Row | null>,
  audience: string,
): Promise<AsyncIterable<Delivery<Row>>> {
  // Each delivery reads with a budget of its own: the stream's stages run in the context of the
  // request that opened it (an SSE request, a socket's first read) for as long as it lasts.
  const judge = (change: ChangeLogRow) => withRenewedBudget(() => judgeChange(ctx, change, (id) => sharedRead(change, audience, () => load(id))));
  const wanted = (change: ChangeLogRow) => !(filter.ids?.length && !filter.ids.includes(change.id));
  const delivered = (d: Delivery<Row> | null): d is Delivery<Row> => d !== null && (!filter.actions?.length || filter.actions.includes(d.action));
  return pipe(await followChanges(ctx.prisma, ctx.changes, { after, types: [kind] }), filterStream(wanted), map(judge), filterStream(delivered));
}

/**
 * A change as this reader may see it: never a record it could not read; a record that left its
 * view (deleted, trashed, unpublished) as DELETED with its ID only, and only to readers who could
 * read it before. The one judgement of subscriptions and of the `changes` connection.
 */
async function judgeChange<Row>(ctx: Context, change: ChangeLogRow, load: (id: number) => Promise<Row | null>): Promise<Delivery<Row> | null> {
  const { cursor, id } = change;
  const couldRead = change.before ? viewerCanRead(ctx, change.before) : !isPost(change.kind);
  if (change.action === 'DELETED') return couldRead ? { cursor, action: 'DELETED', id, record: null } : null;
  // A failure here ends a subscription (the stream itself throws); a database restarting under
  // it is waited for, later changes queue meanwhile. A client that resubscribes with its last
  // cursor misses nothing either way.
  const record = await retryRead(() => load(id));
  if (record) return { cursor, action: change.action, id, record };
  return change.before && couldRead ? { cursor, action: 'DELETED', id, record: null } : null;
}

/**
 * The records read for the live changes of this process, by change and audience. The tailer hands
 * the same row objects to every subscription of the process, and subscribers whose reads are the
 * same query (`audience`: what they may read) would each read the same record: the first one reads
 * it, the others share its answer, so a change costs one read per audience instead of one per
 * subscriber. The entries go with the row once every subscriber has passed it. A subscriber that
 * judges the change later gets the record as it was read then; any later write of it is a later
 * change, read afresh. Replayed rows (`after`) are the subscriber's own and shared with nobody.
 */
const sharedReads = new WeakMap<ChangeLogRow, Map<string, Promise<unknown>>>();

function sharedRead<Row>(change: ChangeLogRow, audience: string, read: () => Promise<Row | null>): Promise<Row | null> {
  let reads = sharedReads.get(change);
  if (!reads) sharedReads.set(change, (reads = new Map()));
  const shared = reads.get(audience) as Promise<Row | null> | undefined;
  if (shared) return shared;
  const reading = read();
  reads.set(audience, reading);
  // A failed read is not handed to later judges: they (and retryRead) read again.
  reading.catch(() => {
    if (reads.get(audience) === reading) reads.delete(audience);
  });
  return reading;
}

/** The cursor of the change each subscription's context delivered last (the server's `extensions.cursor` and SSE `id:`). */
const lastCursors = new WeakMap<object, string>();

/** The cursor of the change last delivered with this context, if any. */
export function deliveredCursor(context: object): string | undefined {
  return lastCursors.get(context);
}

const isPost = (kind: ChangeKind) => kind === 'EVENT' || kind === 'VENUE' || kind === 'ORGANIZER';

builder.subscriptionType({ description: 'Live changes of the calendar (GraphQL over SSE: `Accept: text/event-stream`).' });

/**
 * One subscription field and its payload type. The payload's record field is declared by the
 * caller with its kind's own ref (`record`), so that Pothos checks the ref's shape against what
 * `load` returns: one payload type per kind, no shape shared between them.
 */
function defineChangeField<Row>(opts: {
  field: string;
  payload: string;
  recordField: string;
  type: NodeTypeName;
  kind: ChangeKind;
  load: (ctx: Context, id: number) => Promise<Row | null>;
  /** Subscribers with the same audience make the same `load` query (they share its answer: `sharedRead`). */
  audience: (ctx: Context) => string;
  record: ObjectFieldThunk<typeof builder.$inferSchemaTypes, Delivery<Row>>;
  /** The record as an edge of its default list (`ref`: that list's edge type). */
  edge: { ref: ObjectRef<typeof builder.$inferSchemaTypes, Edge<unknown>>; of: (ctx: Context, row: NoInfer<Row>) => Edge<unknown> };
}) {
  const Payload = builder.objectRef<Delivery<Row>>(opts.payload).implement({
    description: `A change of one ${opts.recordField}, as the subscriber may see it.`,
    fields: (t) => ({
      cursor: t.string({
        description: 'Where this change stands in the change log: subscribe again with `after` set to it, or ask `changes(after:)`, to miss nothing since.',
        resolve: (d) => d.cursor,
      }),
      action: t.field({ type: ChangeActionEnum, resolve: (d) => d.action }),
      [`${opts.recordField}Id`]: t.id({ description: `Global ID of the ${opts.type}.`, resolve: (d) => globalId(opts.type, d.id) }),
      deletedId: t.id({
        nullable: true,
        description: `Global ID of the ${opts.type} when DELETED (for \`@deleteRecord\` / \`@deleteEdge\`); null otherwise.`,
        resolve: (d) => (d.action === 'DELETED' ? globalId(opts.type, d.id) : null),
      }),
      [opts.recordField]: opts.record(t),
      [`${opts.recordField}Edge`]: t.field({
        type: opts.edge.ref,
        nullable: true,
        description: 'Its edge in the default list when CREATED or RESTORED (for `@appendEdge`); null otherwise.',
        resolve: (d, _a, ctx) => (d.record && (d.action === 'CREATED' || d.action === 'RESTORED') ? opts.edge.of(ctx, d.record) : null),
      }),
    }),
  });
  builder.subscriptionField(opts.field, (t) =>
    t.field({
      type: Payload,
      description: `Changes of ${opts.recordField} records: created, updated, deleted (or trashed), restored.`,
      args: {
        filter: t.arg({ type: ChangeFilterInput }),
        after: t.arg.string({
          description:
            'Replay the changes since this cursor (a payload\'s `cursor`) first, then go on live. Over SSE the `Last-Event-ID` header stands for it. Older than the log keeps: CURSOR_EXPIRED (refetch, then subscribe without it).',
        }),
      },
      subscribe: (_root, args, ctx) => {
        const after = args.after ?? ctx.resumeAfter ?? null;
        const prepared = raisesDomainErrors(async () => {
          const ids = recordIds(args.filter?.ids, [opts.type], 'ids');
          if (after) await checkCursor(ctx.prisma, after, args.after ? 'after' : 'Last-Event-ID');
          return ids;
        });
        // A cursor refused is the client's to fix (refetch): 400 over HTTP, so an EventSource stops
        // instead of reconnecting with it again.
        const refused = (error: unknown) => {
          const e = error as GraphQLError;
          if (e instanceof GraphQLError && (e.extensions.code === 'CURSOR_EXPIRED' || e.extensions.code === 'INVALID_CURSOR')) {
            throw new GraphQLError(e.message, { extensions: { ...e.extensions, http: { status: 400 } } });
          }
          throw error;
        };
        return prepared().then(
          (decoded) => deliveries(ctx, opts.kind, { actions: args.filter?.actions, ids: decoded }, after, (id) => opts.load(ctx, id), opts.audience(ctx)),
          refused,
        );
      },
      resolve: (delivery, _args, ctx) => {
        lastCursors.set(ctx, delivery.cursor);
        return delivery;
      },
    }),
  );
}

const RECORD = { nullable: true, description: 'The record as it is now; null when DELETED.' } as const;
/** A post the subscriber may read as it is now (the trash is out of view). */
const readableNow = (ctx: Context, id: number) => ({ id, ...readableWhere(ctx), NOT: { status: 'trash' as const } });
/** Who reads the same posts: the condition `readableNow` adds for this viewer. */
const postAudience = (ctx: Context) => JSON.stringify(readableWhere(ctx));
/** Terms are read alike by everyone. */
const everyone = () => '';

defineChangeField<Event>({
  field: 'eventChanged',
  payload: 'EventChange',
  recordField: 'event',
  type: 'Event',
  kind: 'EVENT',
  audience: postAudience,
  load: (ctx, id) => ctx.prisma.event.findFirst({ where: readableNow(ctx, id) }),
  record: (t) => t.expose('record', { type: EventRef, ...RECORD }),
  edge: { ref: EventEdgeRef, of: eventEdgeOf },
});
defineChangeField<Venue>({
  field: 'venueChanged',
  payload: 'VenueChange',
  recordField: 'venue',
  type: 'Venue',
  kind: 'VENUE',
  audience: postAudience,
  load: (ctx, id) => ctx.prisma.venue.findFirst({ where: readableNow(ctx, id) }),
  record: (t) => t.expose('record', { type: VenueRef, ...RECORD }),
  edge: venueEdges,
});
defineChangeField<Organizer>({
  field: 'organizerChanged',
  payload: 'OrganizerChange',
  recordField: 'organizer',
  type: 'Organizer',
  kind: 'ORGANIZER',
  audience: postAudience,
  load: (ctx, id) => ctx.prisma.organizer.findFirst({ where: readableNow(ctx, id) }),
  record: (t) => t.expose('record', { type: OrganizerRef, ...RECORD }),
  edge: organizerEdges,
});
defineChangeField<Category>({
  field: 'eventCategoryChanged',
  payload: 'EventCategoryChange',
  recordField: 'eventCategory',
  type: 'EventCategory',
  kind: 'EVENT_CATEGORY',
  audience: everyone,
  load: (ctx, id) => ctx.prisma.category.findUnique({ where: { id } }),
  record: (t) => t.expose('record', { type: EventCategoryRef, ...RECORD }),
  edge: categoryEdges,
});
defineChangeField<Tag>({
  field: 'eventTagChanged',
  payload: 'EventTagChange',
  recordField: 'eventTag',
  type: 'EventTag',
  kind: 'EVENT_TAG',
  audience: everyone,
  load: (ctx, id) => ctx.prisma.tag.findUnique({ where: { id } }),
  record: (t) => t.expose('record', { type: EventTagRef, ...RECORD }),
  edge: tagEdges,
});

/** The kinds of record the change feed reports (accounts are not among them). */
const FEED_KINDS = ['EVENT', 'VENUE', 'ORGANIZER', 'EVENT_CATEGORY', 'EVENT_TAG'] as const satisfies readonly ChangeKind[];
type FeedKind = (typeof FEED_KINDS)[number];

const ChangeTypeEnum = builder.enumType('ChangeType', { description: 'The kind of record a change is about.', values: FEED_KINDS });

/** A record as the `changes` connection loads it, by kind (the subscriptions' own loads). */
const FEED: Record<FeedKind, { type: NodeTypeName; load: (ctx: Context, id: number) => Promise<unknown> }> = {
  EVENT: { type: 'Event', load: (ctx, id) => ctx.prisma.event.findFirst({ where: readableNow(ctx, id) }) },
  VENUE: { type: 'Venue', load: (ctx, id) => ctx.prisma.venue.findFirst({ where: readableNow(ctx, id) }) },
  ORGANIZER: { type: 'Organizer', load: (ctx, id) => ctx.prisma.organizer.findFirst({ where: readableNow(ctx, id) }) },
  EVENT_CATEGORY: { type: 'EventCategory', load: (ctx, id) => ctx.prisma.category.findUnique({ where: { id } }) },
  EVENT_TAG: { type: 'EventTag', load: (ctx, id) => ctx.prisma.tag.findUnique({ where: { id } }) },
};

interface FeedChange extends Delivery<unknown> {
  kind: FeedKind;
  committedAt: Date;
}

const recordOf = <T>(kind: FeedKind) => (c: FeedChange) => (c.kind === kind ? (c.record as T | null) : null);

const ChangeRef = builder.objectRef<FeedChange>('Change').implement({
  description: 'One change of the calendar as you may see it (the `changes` connection): the same judgement as the `…Changed` subscriptions.',
  fields: (t) => ({
    cursor: t.string({ description: 'Its position in the change log (`changes(after:)`, or a subscription\'s `after`).', resolve: (c) => c.cursor }),
    type: t.field({ type: ChangeTypeEnum, resolve: (c) => c.kind }),
    action: t.field({ type: ChangeActionEnum, resolve: (c) => c.action }),
    recordId: t.id({ description: 'Global ID of the record.', resolve: (c) => globalId(FEED[c.kind].type, c.id) }),
    deletedId: t.id({ nullable: true, description: 'Global ID of the record when DELETED; null otherwise.', resolve: (c) => (c.action === 'DELETED' ? globalId(FEED[c.kind].type, c.id) : null) }),
    committedAt: t.field({ type: 'DateTime', description: 'When the write that made it began.', resolve: (c) => c.committedAt }),
    event: t.field({ type: EventRef, nullable: true, description: 'The event as it is now (type EVENT, not DELETED).', resolve: recordOf<Event>('EVENT') }),
    venue: t.field({ type: VenueRef, nullable: true, description: 'The venue as it is now (type VENUE, not DELETED).', resolve: recordOf<Venue>('VENUE') }),
    organizer: t.field({ type: OrganizerRef, nullable: true, description: 'The organizer as it is now (type ORGANIZER, not DELETED).', resolve: recordOf<Organizer>('ORGANIZER') }),
    eventCategory: t.field({ type: EventCategoryRef, nullable: true, description: 'The category as it is now (type EVENT_CATEGORY, not DELETED).', resolve: recordOf<Category>('EVENT_CATEGORY') }),
    eventTag: t.field({ type: EventTagRef, nullable: true, description: 'The tag as it is now (type EVENT_TAG, not DELETED).', resolve: recordOf<Tag>('EVENT_TAG') }),
  }),
});

interface ChangePage {
  edges: { cursor: string; node: FeedChange }[];
  pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
}

// A feed, not a list: no totals or page numbers (the calendar's lists have them), no going back.
const ChangeEdge = builder.objectRef<ChangePage['edges'][number]>('ChangeEdge').implement({
  fields: (t) => ({ cursor: t.exposeString('cursor'), node: t.field({ type: ChangeRef, resolve: (e) => e.node }) }),
});
const ChangeConnection = builder.objectRef<ChangePage>('ChangeConnection').implement({
  description: 'A page of the change feed (`changes`).',
  fields: (t) => ({
    edges: t.field({ type: [ChangeEdge], resolve: (p) => p.edges }),
    pageInfo: t.field({ type: builder.pageInfoRef(), resolve: (p) => p.pageInfo }),
  }),
});

/** At most this many changes are read per page. */
const MAX_CHANGES_PAGE = 500;

builder.queryField('changes', (t) =>
  t.field({
    type: ChangeConnection,
    description:
      'The changes since a cursor, oldest first, deletes included, as you may see them (a record you could not read never appears; one that left your view arrives as DELETED). Catching up after being offline: ask with your last cursor, apply the edges, go on from `pageInfo.endCursor` while `hasNextPage`. `endCursor` moves past changes you may not see too, so it can be past the last edge. A cursor older than the log keeps (CAL_CHANGES_RETENTION_DAYS) is refused: CURSOR_EXPIRED, refetch instead.',
    args: {
      after: t.arg.string({ description: 'A cursor (an edge\'s, `pageInfo.endCursor`, or a subscription payload\'s); absent: from the oldest change kept.' }),
      first: t.arg.int({ description: `Read at most this many changes (default 100, at most ${MAX_CHANGES_PAGE}).` }),
      types: t.arg({ type: [ChangeTypeEnum], description: 'Only changes of these kinds of record.' }),
      actions: t.arg({ type: [ChangeActionEnum], description: 'Only these actions (as you see them: a record that left your view is DELETED).' }),
    },
    resolve: raisesDomainErrors(async (_root, args, ctx): Promise<ChangePage> => {
      const limit = Math.max(1, Math.min(args.first ?? 100, MAX_CHANGES_PAGE));
      const rows = await readChanges(ctx.prisma, { after: args.after, limit, types: args.types?.length ? args.types : FEED_KINDS });
      const edges: { cursor: string; node: FeedChange }[] = [];
      for (const row of rows) {
        const kind = row.kind as FeedKind;
        const seen = await judgeChange(ctx, row, (id) => FEED[kind].load(ctx, id));
        if (!seen || (args.actions?.length && !args.actions.includes(seen.action))) continue;
        edges.push({ cursor: row.cursor, node: { ...seen, kind, committedAt: row.committedAt } });
      }
      // Past the changes this reader may not see too, never past what was read (null: nothing yet).
      const endCursor = rows.at(-1)?.cursor ?? args.after ?? null;
      return {
        edges,
        pageInfo: { hasNextPage: rows.length === limit, hasPreviousPage: false, startCursor: edges[0]?.cursor ?? null, endCursor },
      };
    }),
  }),
);
