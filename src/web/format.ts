/**
 * How the pages write dates and times: event-local wall clocks (`YYYY-MM-DD HH:MM:SS`, as the core
 * gives them) in words of the page's language (luxon/Intl), and the ISO form of `<time datetime>`.
 * Presentation only: which events fall on which day is the core's (Query.calendarDays).
 */
import { DateTime } from 'luxon';
import type { Lang } from '../../rest-facade/wp/types.ts';
import type { PageStrings } from './i18n.ts';

const wall = (text: string, lang: Lang) => DateTime.fromSQL(text, { zone: 'utc' }).setLocale(lang);

/** `Saturday, December 5, 2026` (in the page's language). */
export const longDate = (d: DateTime) => d.toLocaleString({ weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' });
/** `19:00` / `7:00 PM` as the language writes it. */
export const clock = (d: DateTime) => d.toLocaleString(DateTime.TIME_SIMPLE);

/** When an event happens, in words: its day(s) and, unless all day, its times. */
export function describeWhen(allDay: boolean, startDate: string, endDate: string, lang: Lang, allDayWord = 'all day'): string {
  const start = wall(startDate, lang);
  const end = wall(endDate, lang);
  if (allDay) return start.hasSame(end, 'day') ? `${longDate(start)} (${allDayWord})` : `${longDate(start)} – ${longDate(end)}`;
  if (start.hasSame(end, 'day')) return `${longDate(start)}, ${clock(start)} – ${clock(end)}`;
  return `${longDate(start)}, ${clock(start)} – ${longDate(end)}, ${clock(end)}`;
}

/** The times of an event on one day of a grid: `19:00 – 22:30`, `until 02:00`, `from 22:00`, or ''. */
export function timesOn(day: string, allDay: boolean, startDate: string, endDate: string, lang: Lang): string {
  if (allDay) return '';
  const start = wall(startDate, lang);
  const end = wall(endDate, lang);
  const startsToday = startDate.slice(0, 10) === day;
  const endsToday = endDate.slice(0, 10) === day;
  if (startsToday && endsToday) return `${clock(start)} – ${clock(end)}`;
  if (startsToday) return `${clock(start)} –`;
  if (endsToday) return `– ${clock(end)}`;
  return '';
}

/** `<time datetime>` of an event's start: the date of an all-day event, else the instant (`startsAt`) with the event's offset. */
export function isoStart(allDay: boolean, startDate: string, startsAt: string, timezone: string): string {
  if (allDay) return startDate.slice(0, 10);
  return DateTime.fromISO(startsAt, { zone: 'utc' }).setZone(timezone).toISO() ?? startsAt;
}

/**
 * An event's title as WordPress's `get_the_title()` gives it to TEC's views and pages: `Protected: …`
 * (in the page's language) whenever it has a password, whether or not the visitor has it. HTML.
 */
export function displayTitle(e: { readonly title: string; readonly hasPassword: boolean }, t: PageStrings): string {
  return e.hasPassword ? t('event.protected', { title: e.title }) : e.title;
}

/** `<time datetime>` of a locked event: its day only, as TEC's rows keep it (the time is hidden). */
export const lockedIsoStart = (startDate: string) => startDate.slice(0, 10);
