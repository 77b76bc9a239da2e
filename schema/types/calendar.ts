import { calendarDays, calendarSpan, MAX_CALENDAR_DAYS, type CalendarDay, type DaySpan } from '../../src/services/calendar.ts';
import { builder } from '../builder.ts';
import { raisesDomainErrors } from '../errors.ts';
import { EventFilterInput, toEventFilter } from '../inputs/event-filter.ts';
import { EventRef } from './event.ts';

const DaySpanRef = builder.objectRef<DaySpan>('DaySpan').implement({
  description: 'The days of the site calendar an event falls on (`YYYY-MM-DD`, inclusive), as `calendarDays` places it.',
  fields: (t) => ({
    first: t.exposeString('first', { description: 'Its first day.' }),
    last: t.exposeString('last', { description: 'Its last day (the first for an event within one day).' }),
  }),
});

builder.objectFields(EventRef, (t) => ({
  daySpan: t.field({
    type: DaySpanRef,
    description:
      'The days of the site calendar the event falls on: in timezone mode `event` its own wall clocks, in mode `site` its instants in the site zone; ' +
      'a day starts at the multi-day cutoff, so an event ending at or before it does not reach into that day.',
    resolve: (e, _args, ctx) => calendarSpan(e, ctx.settings),
  }),
}));

const CalendarDayRef = builder.objectRef<CalendarDay>('CalendarDay').implement({
  description: 'One day of the site calendar with the events that fall on it.',
  fields: (t) => ({
    date: t.exposeString('date', { description: '`YYYY-MM-DD` (site calendar; a day starts at the multi-day cutoff).' }),
    today: t.exposeBoolean('today', { description: "The site's current day." }),
    totalCount: t.exposeInt('totalCount', { description: 'Every event on this day (`events` may hold fewer: `eventsPerDay`).' }),
    events: t.field({
      type: [EventRef],
      description: 'Events on this day: all-day events first, then the ones that began on an earlier day (ongoing), then by start.',
      resolve: (day) => day.events,
    }),
  }),
});

builder.queryFields((t) => ({
  calendarDays: t.field({
    type: [CalendarDayRef],
    description:
      `Days of the site calendar from \`from\` to \`to\` (\`YYYY-MM-DD\`, inclusive, at most ${MAX_CALENDAR_DAYS} days), each with the events that fall on it: ` +
      'an event on every day it spans (multi-day and all-day events; the multi-day cutoff applied), every occurrence of a series on its own day. ' +
      'Every filter of `events` applies; its default date window does not (the range is the window).',
    args: {
      from: t.arg.string({ required: true }),
      to: t.arg.string({ required: true }),
      filter: t.arg({ type: EventFilterInput }),
      eventsPerDay: t.arg.int({ description: 'At most this many events per day (`totalCount` still counts all); default all.' }),
    },
    resolve: raisesDomainErrors(async (_root, args, ctx) => calendarDays(ctx, { ...args, filter: toEventFilter(args.filter) })),
  }),
}));
