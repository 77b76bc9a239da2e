import type { Category, Event, Organizer, Tag, Venue } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../src/services/context.ts';
import { filter as filterStream, map, pipe } from 'graphql-yoga';
import { CHANGE_ACTIONS, changeStream, type Change, type ChangeAction, type ChangeKind } from '../../src/services/changes.ts';
import { readableWhere, viewerCanRead } from '../../src/services/visibility.ts';
import { retryRead } from '../../src/services/retry.ts';
import type { ObjectFieldThunk, ObjectRef } from '@pothos/core';
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
 * kind of record from the change bus (src/services/changes.ts), whichever API or process made them.
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
function deliveries<Row>(
  ctx: Context,
  kind: ChangeKind,
  filter: Filter,
  load: (id: number) => Promise<Row | null>,
): AsyncIterable<Delivery<Row>> {
  const judge = async (change: Change): Promise<Delivery<Row> | null> => {
    const couldRead = change.before ? viewerCanRead(ctx, change.before) : !isPost(kind);
    if (change.action === 'DELETED') return couldRead ? { action: 'DELETED', id: change.id, record: null } : null;
    // A failure here ends the subscription (the stream itself throws), and clients do not resubscribe
    // by themselves: a database restarting under it is waited for; later changes queue meanwhile.
    const record = await retryRead(() => load(change.id));
    if (record) return { action: change.action, id: change.id, record };
    return change.before && couldRead ? { action: 'DELETED', id: change.id, record: null } : null;
  };
  const wanted = (change: Change) => change.kind === kind && !(filter.ids?.length && !filter.ids.includes(change.id));
  const delivered = (d: Delivery<Row> | null): d is Delivery<Row> => d !== null && (!filter.actions?.length || filter.actions.includes(d.action));
  return pipe(changeStream(ctx.changes), filterStream(wanted), map(judge), filterStream(delivered));
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
      args: { filter: t.arg({ type: ChangeFilterInput }) },
      subscribe: (_root, args, ctx) => {
        const ids = raisesDomainErrors(async () => recordIds(args.filter?.ids, [opts.type], 'ids'));
        return ids().then((decoded) => deliveries(ctx, opts.kind, { actions: args.filter?.actions, ids: decoded }, (id) => opts.load(ctx, id)));
      },
      resolve: (delivery) => delivery,
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
