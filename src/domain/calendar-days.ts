/**
 * Calendar days (of the month and day views): which days of the site calendar an event falls
 * on. A day runs from the multi-day cutoff (`HH:MM`, default 00:00) to the next day's cutoff, so an
 * event ending at or before the cutoff does not reach into that day (TEC's rule). All-day events
 * cover the dates they name. Wall clocks are `YYYY-MM-DD HH:MM:SS` (already in the calendar's frame).
 */
import { DateTime } from 'luxon';

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;

/** A `YYYY-MM-DD` that is a real date, as a luxon date (UTC frame), or null. */
export function parseCalendarDate(text: string): DateTime | null {
  if (!DATE_RE.test(text)) return null;
  const d = DateTime.fromISO(text, { zone: 'utc' });
  return d.isValid && d.year >= 1 && d.year <= 9999 ? d : null;
}

const cutoffMinutes = (cutoff: string) => {
  const m = /^(\d{1,2}):(\d{2})/.exec(cutoff.trim());
  const minutes = m ? Number(m[1]) * 60 + Number(m[2]) : 0;
  return minutes < 24 * 60 ? minutes : 0;
};

const wall = (text: string) => DateTime.fromSQL(text, { zone: 'utc' });
const dayOf = (d: DateTime) => d.toFormat('yyyy-MM-dd');

/** The first and last calendar day (`YYYY-MM-DD`, inclusive) of an event. */
export function eventDaySpan(start: string, end: string, allDay: boolean, cutoff = '00:00'): { first: string; last: string } {
  const shift = { minutes: cutoffMinutes(cutoff) };
  if (allDay) {
    // Its days are the dates it names: stored with a cutoff, it runs from the cutoff on its first
    // day to just before the cutoff after its last (src/domain/event-dates.ts).
    const first = start.slice(0, 10);
    const last = dayOf(wall(end).minus(shift));
    return { first, last: last < first ? first : last };
  }
  const s = wall(start).minus(shift);
  const e = wall(end).minus(shift);
  const first = dayOf(s);
  // The end instant itself belongs to no day: an event ending exactly at a day's start ends the day before.
  const last = e > s ? dayOf(e.minus({ seconds: 1 })) : first;
  return { first, last: last < first ? first : last };
}

/** Every `YYYY-MM-DD` from `from` to `to`, inclusive. */
export function eachDay(from: string, to: string): string[] {
  const out: string[] = [];
  for (let d = wall(`${from} 00:00:00`), end = wall(`${to} 00:00:00`); d <= end; d = d.plus({ days: 1 })) out.push(dayOf(d));
  return out;
}

/** `YYYY-MM-DD` + n days. */
export const addDays = (date: string, days: number) => dayOf(wall(`${date} 00:00:00`).plus({ days }));

/** The wall clock a calendar day starts at (`YYYY-MM-DD HH:MM:00`, cutoff applied). */
export const dayStart = (date: string, cutoff = '00:00') => {
  const minutes = cutoffMinutes(cutoff);
  return `${date} ${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}:00`;
};
