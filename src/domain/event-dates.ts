/**
 * Start/end of an event from the raw text a client sent (contract §7.3.2, §7.3.3).
 *
 * * Text is read in the event time zone; relative phrases are relative to `now` there.
 * * Epochs are instants, shown in the event zone (REC; PHP took their UTC wall clock as local).
 * * All-day: start → beginning of its day, end → end of its day, both shifted by the multi-day cutoff.
 * * End before start → end = start, local **and** UTC (REC; PHP kept the unclamped UTC end). For
 *   all-day events the end becomes the end of the start's day.
 */
import type { DateTime } from 'luxon';
import { beginningOfDay, endOfDay, formatWallClock, localToUtc, wallClockToDate } from './wall-clock.ts';
import { parseDateText } from './strtotime.ts';
import { resolveTimezone, timezoneAbbr } from './timezone.ts';

export interface EventDatesInput {
  /** Raw `start_date` as sent (text or epoch). */
  start: string | number;
  /** Raw `end_date` as sent (text or epoch). */
  end: string | number;
  allDay?: boolean | null;
  /** Event time zone label (the `timezone` parameter, else the site time zone). */
  timezone: string;
  /** Multi-day cutoff `HH:MM` (site setting). */
  multiDayCutoff?: string;
  now?: Date;
}

export interface EventDates {
  /** Event-local start as a wall-clock Date (UTC components = wall clock). */
  startLocal: Date;
  endLocal: Date;
  /** UTC start as a Date (UTC components = UTC wall clock, i.e. the real instant). */
  startUtc: Date;
  endUtc: Date;
  /** The same four values as `YYYY-MM-DD HH:MM:SS` strings. */
  text: { startLocal: string; endLocal: string; startUtc: string; endUtc: string };
  /** The time zone label to store (canonical IANA name, `UTC±h[:mm]`, abbreviation). */
  timezone: string;
  /** Abbreviation at the start date (`EST`, `CET`; the label itself for offsets). */
  timezoneAbbr: string;
  allDay: boolean;
  /** True when the end was moved up to the start. */
  clamped: boolean;
}

export type EventDatesResult = EventDates | { invalid: 'startDate' | 'endDate' | 'timezone' };

function toWall(dt: DateTime): string {
  return formatWallClock(dt);
}

/** Computes the stored start/end (local and UTC) of an event; `{ invalid }` names the bad input. */
export function computeEventDates(input: EventDatesInput): EventDatesResult {
  const { start, end, allDay = false, timezone, multiDayCutoff = '00:00', now = new Date() } = input;
  const tz = resolveTimezone(timezone);
  if (!tz) return { invalid: 'timezone' };
  const s = parseDateText(start, tz.zone, now);
  if (!s) return { invalid: 'startDate' };
  const e = parseDateText(end, tz.zone, now);
  if (!e) return { invalid: 'endDate' };

  let startLocal = toWall(s);
  let endLocal = toWall(e);
  if (allDay) {
    startLocal = beginningOfDay(startLocal.slice(0, 10), multiDayCutoff);
    endLocal = endOfDay(endLocal.slice(0, 10), multiDayCutoff);
  }
  let startUtc = localToUtc(startLocal, tz.zone);
  let endUtc = localToUtc(endLocal, tz.zone);
  let clamped = false;
  if (wallClockToDate(endUtc).getTime() < wallClockToDate(startUtc).getTime()) {
    clamped = true;
    endLocal = allDay ? endOfDay(startLocal.slice(0, 10), multiDayCutoff) : startLocal;
    endUtc = localToUtc(endLocal, tz.zone);
  }
  return {
    startLocal: wallClockToDate(startLocal),
    endLocal: wallClockToDate(endLocal),
    startUtc: wallClockToDate(startUtc),
    endUtc: wallClockToDate(endUtc),
    text: { startLocal, endLocal, startUtc, endUtc },
    timezone: tz.name,
    timezoneAbbr: timezoneAbbr(tz.name, startLocal),
    allDay: Boolean(allDay),
    clamped,
  };
}
