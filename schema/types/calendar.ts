import { calendarDays, MAX_CALENDAR_DAYS, type CalendarDay } from '../../src/services/calendar.ts';
import { builder } from '../builder.ts';
import { raisesDomainErrors } from '../errors.ts';
import { EventFilterInput, toEventFilter } from '../inputs/event-filter.ts';
import { EventRef } from './event.ts';

const CalendarDayRef = builder.objectRef<CalendarDay>('CalendarDay').implement({
  description: 'One day of the site calendar with the events that fall on it.',
  fields: (t) => ({
    date: t.exposeString('date', { description: '`YYYY-MM-DD` (site calendar; a day starts at the multi-day cutoff).' }),
    today: t.exposeBoolean('today', { description: "The site's current day." }),
    totalCount: t.exposeInt('totalCount', { description: 'Every event on this day (`events` may hold fewer: `eventsPerDay`).' }),
    events: t.field({
      type: [EventRef],
      description: 'Events on this day: all-day and multi-day events first, then by start.',
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
