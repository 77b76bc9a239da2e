import type { Context } from '../../src/services/context.ts';
import { queryFromInfo } from '@pothos/plugin-prisma';
import { formatCost, parseCostValues } from '../../src/domain/cost.ts';
import { timezoneAbbr } from '../../src/domain/timezone.ts';
import { buildEventListQuery, type AppliedWindow } from '../../src/services/event-list.ts';
import { mapDateBounds } from '../../src/domain/date-window.ts';
import { createEvent, purgeEvent, restoreEvent, trashEvent, updateEvent } from '../../src/services/events.ts';
import { loadReadablePost, withScalars } from '../../src/services/posts.ts';
import { renderText } from '../../src/services/text-work.ts';
import { lockedContent, viewerCanRead, visibleLinkedWhere } from '../../src/services/visibility.ts';
import { builder } from '../builder.ts';
import { raisesDomainErrors, readByAddress, strictArgDescription, writeErrors } from '../errors.ts';
import { EventFilterInput } from '../inputs/event-filter.ts';
import { CreateEventInput, UpdateEventInput, toEventInput } from '../inputs/event-input.ts';
import { RecurrenceScopeEnum } from '../inputs/recurrence-input.ts';
import { CONNECTION_NODE_PATHS, deepPageFetch, listPage, pageArgs, PagedConnectionInterface, pageWindow } from '../pagination.ts';
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

builder.queryFields((t) => ({
  event: t.prismaField({
    type: 'Event',
    nullable: true,
    description:
      'One event by ID or slug; null when none exists or the caller may not read it. An ID of another kind of post is an error (`WRONG_KIND`).',
    args: { id: t.arg.int(), slug: t.arg.string(), strict: t.arg.boolean(strictArgDescription) },
    resolve: (query, _root, args, ctx) =>
      readByAddress(args.strict, () => loadReadablePost(ctx, 'EVENT', args, query, (q) => ctx.prisma.event.findUnique(q))),
  }),
  events: t.connection(
    {
      type: EventRef,
      description: 'Events in start order, with every filter of the REST list (contract §5.4/§5.5).',
      args: { filter: t.arg({ type: EventFilterInput }), order: t.arg({ type: ListOrderEnum, description: 'Default ASC.' }), ...pageArgs },
      resolve: raisesDomainErrors(async (_root, args, ctx, info) => {
        const { where, orderBy, window: applied } = await buildEventListQuery(ctx, args.filter ?? {}, args.order ?? 'asc');
        const window = pageWindow(ctx, args);
        const select = queryFromInfo({ context: ctx, info, paths: CONNECTION_NODE_PATHS, typeName: 'Event' });
        const page = await listPage(
          window,
          deepPageFetch(
            (skip, take) => ctx.prisma.event.findMany({ ...select, where, orderBy, skip, take }),
            (skip, take) => ctx.prisma.event.findMany({ select: { id: true }, where, orderBy, skip, take }),
            (ids) => ctx.prisma.event.findMany({ ...withScalars(select, { id: true }), where: { id: { in: ids } } }),
          ),
          () => ctx.prisma.event.count({ where }),
        );
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
  ),
}));

/** A write's answer: the event as it is now, with the fields the operation selects. */
const reloadEvent = (ctx: Context, query: object, id: number) => ctx.prisma.event.findUniqueOrThrow({ ...query, where: { id } });

builder.mutationFields((t) => ({
  createEvent: t.prismaField({
    type: 'Event',
    description: 'Creates an event; linked venues/organizers may be created inline, terms linked by ID, slug or name.',
    errors: { types: [...writeErrors] },
    args: { input: t.arg({ type: CreateEventInput, required: true }) },
    resolve: async (query, _root, args, ctx) => reloadEvent(ctx, query, await createEvent(ctx, toEventInput(args.input))),
  }),
  updateEvent: t.prismaField({
    type: 'Event',
    description: 'Partial update: fields not given stay as they are.',
    errors: { types: [...writeErrors] },
    args: {
      id: t.arg.int(),
      slug: t.arg.string(),
      input: t.arg({ type: UpdateEventInput, required: true }),
      // Recurring series (issue 13): which occurrences the update applies to; returns the addressed event.
      scope: t.arg({ type: RecurrenceScopeEnum, description: 'On an occurrence of a series: THIS (default), THIS_AND_FOLLOWING or ALL.' }),
    },
    resolve: async (query, _root, args, ctx) =>
      reloadEvent(ctx, query, await updateEvent(ctx, { id: args.id, slug: args.slug }, toEventInput(args.input), args.scope ?? 'THIS')),
  }),
}));

definePostLifecycle({
  model: 'Event',
  single: 'event',
  trash: { description: 'Moves the event to the trash. Already trashed → GoneError.', write: trashEvent },
  restore: { description: 'Takes the event out of the trash, back to the status it had.', write: restoreEvent },
  purge: purgeEvent,
  reload: reloadEvent,
});
