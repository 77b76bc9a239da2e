import type { GraphQLResolveInfo } from 'graphql';
import type { Event } from '../../prisma/generated/client/client.ts';
import type { Context } from '../../src/services/context.ts';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { formatCost, parseCostValues } from '../../src/domain/cost.ts';
import { timezoneAbbr } from '../../src/domain/timezone.ts';
import { buildEventListQuery, eventListOrder, type AppliedWindow } from '../../src/services/event-list.ts';
import { mapDateBounds } from '../../src/domain/date-window.ts';
import { createEvent, purgeEvent, restoreEvent, trashEvent, updateEvent } from '../../src/services/events.ts';
import { loadReadablePost } from '../../src/services/posts.ts';
import { renderText } from '../../src/services/text-work.ts';
import { lockedContent, viewerCanRead, visibleLinkedWhere } from '../../src/services/visibility.ts';
import { builder } from '../builder.ts';
import { raisesDomainErrors, readByAddress, strictArgDescription, writeErrors } from '../errors.ts';
import { EventFilterInput, toEventFilter } from '../inputs/event-filter.ts';
import { CreateEventInput, UpdateEventInput, toEventInput } from '../inputs/event-input.ts';
import { RecurrenceScopeEnum } from '../inputs/recurrence-input.ts';
import { optionalRecordId } from '../ids.ts';
import { CONNECTION_NODE_PATHS, edgeIn, pageArgs, PagedConnectionInterface, paginate, prismaList } from '../pagination.ts';
import { writtenEdge, writtenPayload } from '../payloads.ts';
import { describedEnum, ImageRef, wallClock } from './common.ts';
import { EventCategoryRef } from './event-category.ts';
import { EventTagRef } from './event-tag.ts';
import { OrganizerRef } from './organizer.ts';
import { PostInterface, postNodeOptions } from './post-fields.ts';
import { definePostLifecycle } from './post-lifecycle.ts';
import { VenueRef } from './venue.ts';

export const EventRef = builder.prismaNode('Event', {
  description: 'A calendar event.',
  ...postNodeOptions,
  interfaces: [PostInterface],
  fields: (t) => ({
    title: t.string({ description: 'Display title (typographic pass applied).', resolve: (e) => renderText('title', e.title) }),
    titleRaw: t.exposeString('title', { description: 'Title as stored.' }),
    excerptRaw: t.string({ description: 'Excerpt as stored; empty while `locked`.', resolve: (e, _a, ctx) => lockedContent(ctx, e, e.excerpt) }),
    startDate: t.string({ description: 'Start, event-local wall clock `YYYY-MM-DD HH:MM:SS`.', resolve: (e) => wallClock(e.startLocal) }),
    endDate: t.string({ description: 'End, event-local wall clock `YYYY-MM-DD HH:MM:SS`.', resolve: (e) => wallClock(e.endLocal) }),
    startDateUtc: t.string({ description: 'Start, UTC `YYYY-MM-DD HH:MM:SS`.', resolve: (e) => wallClock(e.startUtc) }),
    endDateUtc: t.string({ description: 'End, UTC `YYYY-MM-DD HH:MM:SS`.', resolve: (e) => wallClock(e.endUtc) }),
    startsAt: t.expose('startUtc', { type: 'DateTime', description: 'Start instant.' }),
    endsAt: t.expose('endUtc', { type: 'DateTime', description: 'End instant.' }),
    allDay: t.exposeBoolean('allDay'),
    timezone: t.exposeString('timezone', { description: 'IANA zone or `UTC±h` label.' }),
    timezoneAbbr: t.string({ resolve: (e) => timezoneAbbr(e.timezone, wallClock(e.startLocal)) }),
    cost: t.string({
      description: 'Formatted cost (`$15 – $25`, `Free`), empty when none.',
      resolve: (e, _a, ctx) =>
        formatCost(e.cost, {
          currencySymbol: e.currencySymbol,
          currencyPosition: e.currencyPosition,
          siteSymbol: ctx.settings.currencySymbol,
          sitePosition: ctx.settings.currencyPosition,
        }),
    }),
    costValues: t.stringList({ description: 'Numbers (as strings) found in the cost, sorted.', resolve: (e) => parseCostValues(e.cost) }),
    costRaw: t.exposeStringList('cost', { description: 'Cost as entered.' }),
    currencySymbol: t.exposeString('currencySymbol'),
    currencyPosition: t.exposeString('currencyPosition'),
    currencyCode: t.exposeString('currencyCode'),
    website: t.exposeString('website', { nullable: true, description: 'Null when never set.' }),
    showMap: t.boolean({ resolve: (e) => e.showMap ?? true }),
    showMapLink: t.boolean({ resolve: (e) => e.showMapLink ?? true }),
    hideFromListings: t.exposeBoolean('hideFromListings'),
    sticky: t.exposeBoolean('sticky'),
    featured: t.exposeBoolean('featured'),
    image: t.relation('image', { nullable: true, type: ImageRef }),
    categories: t.field({
      type: [EventCategoryRef],
      description: 'Categories, sorted by name.',
      select: (_args, _ctx, nested) => ({
        categories: { orderBy: { category: { name: 'asc' } }, select: { category: nested(true) } },
      }),
      resolve: (e) => e.categories.map((c) => c.category),
    }),
    tags: t.field({
      type: [EventTagRef],
      description: 'Tags, sorted by name.',
      select: (_args, _ctx, nested) => ({ tags: { orderBy: { tag: { name: 'asc' } }, select: { tag: nested(true) } } }),
      resolve: (e) => e.tags.map((c) => c.tag),
    }),
    venues: t.field({
      type: [VenueRef],
      description: 'Venues the caller may see, in linking order.',
      select: (_args, ctx, nested) => ({
        venues: { where: { venue: visibleLinkedWhere(ctx) }, orderBy: { position: 'asc' }, select: { venue: nested(true) } },
      }),
      resolve: (e) => e.venues.map((v) => v.venue),
    }),
    organizers: t.field({
      type: [OrganizerRef],
      description: 'Organizers the caller may see, in linking order.',
      select: (_args, ctx, nested) => ({
        organizers: {
          where: { organizer: visibleLinkedWhere(ctx) },
          orderBy: { position: 'asc' },
          select: { organizer: nested(true) },
        },
      }),
      resolve: (e) => e.organizers.map((o) => o.organizer),
    }),
  }),
});

// Declared apart from the object so its type can refer to the Event type itself. Loaded with the
// page's query (no statement per row); a parent the caller may not read (a draft) is null.
builder.prismaObjectField(EventRef, 'parent', (t) =>
  t.field({
    type: EventRef,
    nullable: true,
    description: 'Parent event (recurrence series), when the caller may read it.',
    select: (_args, _ctx, nested) => ({ parent: nested(true) }),
    resolve: (e, _args, ctx) => (e.parent && viewerCanRead(ctx, e.parent) ? e.parent : null),
  }),
);

const AppliedWindowRef = builder.objectRef<AppliedWindow>('EventDateWindow').implement({
  description: 'The normalized date bounds a list applied (site-local wall clock).',
  fields: (t) => mapDateBounds((bound) => t.string({ nullable: true, resolve: (w) => w[bound] ?? null })),
});

const ListOrderEnum = describedEnum('ListOrder', 'Order of an event list.', {
  ASC: ['asc', 'Earliest start first (the default).'],
  DESC: ['desc', 'Latest start first (past events).'],
});

/** An event list in its order (the events connection; a written event's edge in the default list). */
function eventList(ctx: Context, where: object, orderBy: readonly object[], select: object, count?: () => Promise<number>) {
  return prismaList({ model: 'Event', table: ctx.prisma.event, where, orderBy, select, idsFirst: true, count });
}

export const EventEdgeRef = builder.edgeObject({ type: EventRef, name: 'EventConnectionEdge' });

builder.queryFields((t) => ({
  event: t.prismaField({
    type: 'Event',
    nullable: true,
    description:
      'One event by ID or slug; null when none exists or the caller may not read it. An ID of another kind of post is an error (`WRONG_KIND`).',
    args: { id: t.arg.id({ description: 'Global ID, or database ID.' }), slug: t.arg.string(), strict: t.arg.boolean(strictArgDescription) },
    resolve: (query, _root, args, ctx) =>
      readByAddress(args.strict, () =>
        loadReadablePost(ctx, 'EVENT', { id: optionalRecordId(args.id, ['Event'], 'id'), slug: args.slug }, query, (q) => ctx.prisma.event.findUnique(q)),
      ),
  }),
  events: t.connection(
    {
      type: EventRef,
      description:
        'Events in start order, with every filter of the REST list (contract §5.4/§5.5). Cursors hold the order\'s keys (start, or publication date with `include`) and the ID.',
      args: { filter: t.arg({ type: EventFilterInput }), order: t.arg({ type: ListOrderEnum, description: 'Default ASC.' }), ...pageArgs },
      resolve: raisesDomainErrors(async (_root, args, ctx, info) => {
        const { where, orderBy, window: applied, count } = await buildEventListQuery(ctx, toEventFilter(args.filter), args.order ?? 'asc');
        const select = queryFromInfo({ context: ctx, info, paths: CONNECTION_NODE_PATHS, typeName: 'Event' });
        const page = await paginate(ctx, args, eventList(ctx, where, orderBy, select, count), info);
        return { ...page, window: applied };
      }),
    },
    {
      name: 'EventConnection',
      interfaces: [PagedConnectionInterface],
      fields: (c) => ({
        window: c.expose('window', { type: AppliedWindowRef }),
      }),
    },
    EventEdgeRef,
  ),
}));

/** A write's answer: the event as it is now, with the fields the operation selects. */
const reloadEvent = (ctx: Context, query: object, id: number) => ctx.prisma.event.findUniqueOrThrow({ ...query, where: { id } });

/** The default event list (start order, as `events` lists without `order`). */
const defaultEventList = (ctx: Context, select: object) => eventList(ctx, {}, eventListOrder(ctx, {}, 'asc'), select);

/** The written event's edge in the default event list, for clients that add it to a list they show. */
const eventEdge = (ctx: Context, info: GraphQLResolveInfo, id: number) => writtenEdge(ctx, info, 'Event', id, (select) => defaultEventList(ctx, select));

/** An event row (all its columns loaded) as an edge of the default event list. */
export const eventEdgeOf = (ctx: Context, row: Event) => edgeIn(defaultEventList(ctx, {}), row);

const CreateEventSuccess = writtenPayload({
  name: 'CreateEventSuccess',
  description: 'The created event, and its edge for lists that show it (`@appendEdge`).',
  model: 'Event',
  field: 'event',
  reload: reloadEvent,
  edge: { ref: EventEdgeRef, description: 'Its edge in the default event list (start order).', resolve: eventEdge },
});

const UpdateEventSuccess = writtenPayload({
  name: 'UpdateEventSuccess',
  description: 'The updated event (the addressed one, when a series was split).',
  model: 'Event',
  field: 'event',
  reload: reloadEvent,
});

builder.mutationFields((t) => ({
  createEvent: t.field({
    type: CreateEventSuccess,
    description: 'Creates an event; linked venues/organizers may be created inline, terms linked by ID, slug or name.',
    errors: { types: [...writeErrors] },
    args: { input: t.arg({ type: CreateEventInput, required: true }) },
    resolve: async (_root, args, ctx) => ({ id: await createEvent(ctx, toEventInput(args.input)) }),
  }),
  updateEvent: t.field({
    type: UpdateEventSuccess,
    description: 'Partial update: fields not given stay as they are.',
    errors: { types: [...writeErrors] },
    args: {
      id: t.arg.id({ description: 'Global ID, or database ID.' }),
      slug: t.arg.string(),
      input: t.arg({ type: UpdateEventInput, required: true }),
      // Recurring series: which occurrences the update applies to; returns the addressed event.
      scope: t.arg({ type: RecurrenceScopeEnum, description: 'On an occurrence of a series: THIS (default), THIS_AND_FOLLOWING or ALL.' }),
    },
    resolve: async (_root, args, ctx) => ({
      id: await updateEvent(ctx, { id: optionalRecordId(args.id, ['Event'], 'id'), slug: args.slug }, toEventInput(args.input), args.scope ?? 'THIS'),
    }),
  }),
}));

definePostLifecycle({
  model: 'Event',
  single: 'event',
  edgeRef: EventEdgeRef,
  edge: eventEdge,
  trash: { description: 'Moves the event to the trash. Already trashed → GoneError.', write: trashEvent },
  restore: { description: 'Takes the event out of the trash, back to the status it had.', write: restoreEvent },
  purge: purgeEvent,
  reload: reloadEvent,
});
