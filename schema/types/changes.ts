import type { Category, Event, Organizer, Tag, Venue } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../src/services/context.ts';
import { filter as filterStream, map, pipe } from 'graphql-yoga';
import { CHANGE_ACTIONS, type ChangeAction, type ChangeKind } from '../../src/services/changes.ts';
import { checkCursor, followChanges, type ChangeLogRow } from '../../src/services/change-log.ts';
import { readableWhere, viewerCanRead } from '../../src/services/visibility.ts';
import { retryRead } from '../../src/services/retry.ts';
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
): Promise<AsyncIterable<Delivery<Row>>> {
  const judge = async (change: ChangeLogRow): Promise<Delivery<Row> | null> => {
    const { cursor, id } = change;
    const couldRead = change.before ? viewerCanRead(ctx, change.before) : !isPost(kind);
    if (change.action === 'DELETED') return couldRead ? { cursor, action: 'DELETED', id, record: null } : null;
    // A failure here ends the subscription (the stream itself throws); a database restarting under
    // it is waited for, later changes queue meanwhile. A client that resubscribes with its last
    // cursor misses nothing either way.
    const record = await retryRead(() => load(id));
    if (record) return { cursor, action: change.action, id, record };
    return change.before && couldRead ? { cursor, action: 'DELETED', id, record: null } : null;
  };
  const wanted = (change: ChangeLogRow) => !(filter.ids?.length && !filter.ids.includes(change.id));
  const delivered = (d: Delivery<Row> | null): d is Delivery<Row> => d !== null && (!filter.actions?.length || filter.actions.includes(d.action));
  return pipe(await followChanges(ctx.prisma, ctx.changes, { after, types: [kind] }), filterStream(wanted), map(judge), filterStream(delivered));
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
        return prepared().then((decoded) => deliveries(ctx, opts.kind, { actions: args.filter?.actions, ids: decoded }, after, (id) => opts.load(ctx, id)), refused);
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

defineChangeField<Event>({
  field: 'eventChanged',
  payload: 'EventChange',
  recordField: 'event',
  type: 'Event',
  kind: 'EVENT',
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
  load: (ctx, id) => ctx.prisma.tag.findUnique({ where: { id } }),
  record: (t) => t.expose('record', { type: EventTagRef, ...RECORD }),
  edge: tagEdges,
});
