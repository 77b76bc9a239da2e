/**
 * The calendar grid of the month and day views: the events that fall on each day of a
 * range of the site calendar. Every filter of the event list applies (buildEventListQuery); an
 * event shows on every day it spans (multi-day, all-day; the multi-day cutoff applied), each
 * occurrence of a series on its own day (occurrences are event rows, src/services/recurrence.ts).
 */
import type { Event } from '../../prisma/generated/client/client.ts';
import type { Context, SiteSettings } from './context.ts';
import { addDays, dayStart, eachDay, eventDaySpan, parseCalendarDate } from '../domain/calendar-days.ts';
import { ValidationError } from '../domain/errors.ts';
import { dateToWallClock, localToUtc, utcToLocal, wallClockToDate } from '../domain/wall-clock.ts';
import { buildEventListQuery, type EventFilter } from './event-list.ts';

/** Longest range one request may ask for: a month grid of six weeks. */
export const MAX_CALENDAR_DAYS = 42;
/** Most events one range reads (a busier range shows the first ones by start). */
export const MAX_CALENDAR_EVENTS = 2000;

export interface CalendarDay {
  /** `YYYY-MM-DD`, site calendar. */
  date: string;
  /** The site's current day. */
  today: boolean;
  /** Every event on this day (before `eventsPerDay`). */
  totalCount: number;
  /** All-day events first, then the ones that began on an earlier day (ongoing), then by start. */
  events: Event[];
}

export interface CalendarArgs {
  from: string;
  to: string;
  filter?: EventFilter | null;
  eventsPerDay?: number | null;
}

/** The first and last day (`YYYY-MM-DD`) of the site calendar an event falls on. */
export interface DaySpan {
  first: string;
  last: string;
}

type Dated = Pick<Event, 'allDay' | 'startLocal' | 'endLocal' | 'startUtc' | 'endUtc'>;

/**
 * The days an event falls on in the site calendar: in timezone mode `event` its own wall clocks,
 * in mode `site` its instants in the site's zone; the multi-day cutoff applied (eventDaySpan).
 */
export function calendarSpan(row: Dated, settings: Pick<SiteSettings, 'timezoneMode' | 'timezone' | 'multiDayCutoff'>): DaySpan {
  const local = settings.timezoneMode === 'event';
  const wallOf = (local_: Date, utc: Date) => (local ? dateToWallClock(local_) : utcToLocal(utc, settings.timezone));
  return eventDaySpan(wallOf(row.startLocal, row.startUtc), wallOf(row.endLocal, row.endUtc), row.allDay, settings.multiDayCutoff);
}

export async function calendarDays(ctx: Context, args: CalendarArgs): Promise<CalendarDay[]> {
  const from = parseCalendarDate(args.from);
  if (!from) throw new ValidationError(`Invalid date: ${args.from} (YYYY-MM-DD)`, 'from', 'INVALID_DATE');
  const to = parseCalendarDate(args.to);
  if (!to) throw new ValidationError(`Invalid date: ${args.to} (YYYY-MM-DD)`, 'to', 'INVALID_DATE');
  const days = to.diff(from, 'days').days + 1;
  if (days < 1) throw new ValidationError('`to` is before `from`.', 'to', 'INVALID_RANGE');
  if (days > MAX_CALENDAR_DAYS) throw new ValidationError(`At most ${MAX_CALENDAR_DAYS} days at once.`, 'to', 'RANGE_TOO_LONG');
  if (args.eventsPerDay !== null && args.eventsPerDay !== undefined && args.eventsPerDay < 0) {
    throw new ValidationError('eventsPerDay cannot be negative.', 'eventsPerDay', 'INVALID');
  }

  const settings = ctx.settings;
  const cutoff = settings.multiDayCutoff;
  // The range's own window replaces the list's default one; the caller's date bounds still narrow it.
  const { where, orderBy } = await buildEventListQuery(ctx, { ...args.filter, defaultWindow: false });
  const rangeStart = dayStart(args.from, cutoff);
  const rangeEnd = dayStart(addDays(args.to, 1), cutoff);
  // Mode `event` compares event-local wall clocks with site-local days, mode `site` UTC instants (as the list does).
  const local = settings.timezoneMode === 'event';
  const overlap = local
    ? { startLocal: { lt: wallClockToDate(rangeEnd) }, endLocal: { gte: wallClockToDate(rangeStart) } }
    : { startUtc: { lt: wallClockToDate(localToUtc(rangeEnd, settings.timezone)) }, endUtc: { gte: wallClockToDate(localToUtc(rangeStart, settings.timezone)) } };
  const rows = await ctx.prisma.event.findMany({ where: { AND: [where, overlap] }, orderBy, take: MAX_CALENDAR_EVENTS });

  const byDay = new Map<string, Event[]>(eachDay(args.from, args.to).map((d) => [d, []]));
  const firstDay = new Map<number, string>();
  for (const row of rows) {
    const { first, last } = calendarSpan(row, settings);
    firstDay.set(row.id, first);
    for (const day of eachDay(first < args.from ? args.from : first, last > args.to ? args.to : last)) byDay.get(day)?.push(row);
  }
  const today = utcToLocal(ctx.now, settings.timezone).slice(0, 10);
  const perDay = args.eventsPerDay ?? Number.POSITIVE_INFINITY;
  return [...byDay].map(([date, events]) => {
    // TEC's day order: all-day, then ongoing (begun on an earlier day), then by start. Stable: rows
    // are in start order already.
    const rank = (e: Event) => (e.allDay ? 0 : firstDay.get(e.id)! < date ? 1 : 2);
    const ordered = [...events].sort((a, b) => rank(a) - rank(b));
    return { date, today: date === today, totalCount: ordered.length, events: ordered.slice(0, perDay) };
  });
}
