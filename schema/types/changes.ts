import type { Context } from '../../src/services/context.ts';
import { filter as filterStream, map, pipe } from 'graphql-yoga';
import { CHANGE_ACTIONS, changeStream, type Change, type ChangeAction, type ChangeKind } from '../../src/services/changes.ts';
import { readableWhere, viewerCanRead } from '../../src/services/visibility.ts';
import { retryRead } from '../../src/services/retry.ts';
import type { ObjectFieldThunk } from '@pothos/core';
import { builder } from '../builder.ts';
import { EventCategoryRef } from './event-category.ts';
import { EventRef } from './event.ts';
import { EventTagRef } from './event-tag.ts';
import { OrganizerRef } from './organizer.ts';
import { VenueRef } from './venue.ts';

/**
 * Live changes (GraphQL over SSE at `/graphql`): each `…Changed` field streams the changes of one
 * kind of record from the change bus (src/services/changes.ts), whichever API or process made them.
 * Every change is judged per subscriber, with the subscriber's own context, when it is delivered:
 * a record the caller may not read is never sent; one that left the caller's view (deleted, trashed,
 * unpublished) arrives as DELETED with its ID only, and only to callers who could read it before.
 */
const ChangeActionEnum = builder.enumType('ChangeAction', {
  description: 'What happened to the record. DELETED: deleted, moved to the trash, or no longer readable by you.',
  values: CHANGE_ACTIONS,
});

const ChangeFilterInput = builder.inputType('ChangeFilter', {
  description: 'Narrows a change stream; all given conditions apply.',
  fields: (t) => ({
    ids: t.intList({ required: false, description: 'Only these records (database IDs).' }),
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
  ids?: number[] | null;
  actions?: ChangeAction[] | null;
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
  kind: ChangeKind;
  load: (ctx: Context, id: number) => Promise<Row | null>;
  record: ObjectFieldThunk<typeof builder.$inferSchemaTypes, Delivery<Row>>;
}) {
  const Payload = builder.objectRef<Delivery<Row>>(opts.payload).implement({
    description: `A change of one ${opts.recordField}, as the subscriber may see it.`,
    fields: (t) => ({
      action: t.field({ type: ChangeActionEnum, resolve: (d) => d.action }),
      id: t.int({ description: 'Database ID of the record.', resolve: (d) => d.id }),
      [opts.recordField]: opts.record(t),
    }),
  });
  builder.subscriptionField(opts.field, (t) =>
    t.field({
      type: Payload,
      description: `Changes of ${opts.recordField} records: created, updated, deleted (or trashed), restored.`,
      args: { filter: t.arg({ type: ChangeFilterInput }) },
      subscribe: (_root, args, ctx) => deliveries(ctx, opts.kind, args.filter ?? {}, (id) => opts.load(ctx, id)),
      resolve: (delivery) => delivery,
    }),
  );
}

const RECORD = { nullable: true, description: 'The record as it is now; null when DELETED.' } as const;
/** A post the subscriber may read as it is now (the trash is out of view). */
const readableNow = (ctx: Context, id: number) => ({ id, ...readableWhere(ctx), NOT: { status: 'trash' as const } });

defineChangeField({
  field: 'eventChanged',
  payload: 'EventChange',
  recordField: 'event',
  kind: 'EVENT',
  load: (ctx, id) => ctx.prisma.event.findFirst({ where: readableNow(ctx, id) }),
  record: (t) => t.expose('record', { type: EventRef, ...RECORD }),
});
defineChangeField({
  field: 'venueChanged',
  payload: 'VenueChange',
  recordField: 'venue',
  kind: 'VENUE',
  load: (ctx, id) => ctx.prisma.venue.findFirst({ where: readableNow(ctx, id) }),
  record: (t) => t.expose('record', { type: VenueRef, ...RECORD }),
});
defineChangeField({
  field: 'organizerChanged',
  payload: 'OrganizerChange',
  recordField: 'organizer',
  kind: 'ORGANIZER',
  load: (ctx, id) => ctx.prisma.organizer.findFirst({ where: readableNow(ctx, id) }),
  record: (t) => t.expose('record', { type: OrganizerRef, ...RECORD }),
});
defineChangeField({
  field: 'eventCategoryChanged',
  payload: 'EventCategoryChange',
  recordField: 'eventCategory',
  kind: 'EVENT_CATEGORY',
  load: (ctx, id) => ctx.prisma.category.findUnique({ where: { id } }),
  record: (t) => t.expose('record', { type: EventCategoryRef, ...RECORD }),
});
defineChangeField({
  field: 'eventTagChanged',
  payload: 'EventTagChange',
  recordField: 'eventTag',
  kind: 'EVENT_TAG',
  load: (ctx, id) => ctx.prisma.tag.findUnique({ where: { id } }),
  record: (t) => t.expose('record', { type: EventTagRef, ...RECORD }),
});
