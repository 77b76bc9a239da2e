/**
 * Wall clocks: strings `YYYY-MM-DD HH:MM:SS`. Wall-clock values stored in `@db.Timestamp` columns
 * are JS `Date`s whose **UTC components equal the wall clock** (`wallClockToDate`/`dateToWallClock`);
 * conversion between zones (contract §0.2) and calendar-day bounds with the multi-day cutoff.
 */
import { DateTime, type Zone } from 'luxon';
import { toZone } from './timezone.ts';

export const WALL_CLOCK_FORMAT = 'yyyy-MM-dd HH:mm:ss';

const WALL_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

export interface WallFields {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond?: number;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** `YYYY-MM-DD HH:MM:SS` of a luxon DateTime in its own zone. */
export function formatWallClock(dt: DateTime): string {
  return dt.toFormat(WALL_CLOCK_FORMAT);
}

function splitWall(text: string): WallFields | null {
  const m = WALL_RE.exec(text.trim());
  if (!m) return null;
  const [, year = '', month = '', day = '', hour, minute, second] = m;
  return { year: +year, month: +month, day: +day, hour: hour ? +hour : 0, minute: minute ? +minute : 0, second: second ? +second : 0 };
}

/** Milliseconds of the wall clock read as if it were UTC (normalizes overflowing fields). */
export function wallMillis(f: WallFields): number {
  const d = new Date(0);
  d.setUTCFullYear(f.year, f.month - 1, f.day);
  d.setUTCHours(f.hour, f.minute, f.second, f.millisecond ?? 0);
  return d.getTime();
}

/** `'2026-12-05 19:00:00'` → `Date(Date.UTC(2026, 11, 5, 19))` (UTC components = wall clock). */
export function wallClockToDate(wallClock: string): Date {
  const f = splitWall(wallClock);
  if (!f) throw new RangeError(`Not a wall-clock date-time: ${JSON.stringify(wallClock)}`);
  return new Date(wallMillis(f));
}

/** Inverse of `wallClockToDate`: the UTC components of a Date as `YYYY-MM-DD HH:MM:SS`. */
export function dateToWallClock(date: Date): string {
  return (
    `${pad(date.getUTCFullYear(), 4)}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())} ` +
    `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`
  );
}

/**
 * The instant (epoch ms) of a wall clock in a zone. Ambiguous wall clocks (DST fall-back overlap) take
 * the earlier instant (PHP picks the DST reading); non-existent ones (spring-forward gap) move forward
 * by the gap (`02:30` → `03:30` DST), as PHP does.
 */
export function wallFieldsToMillis(f: WallFields, zone: string | Zone): number {
  const z = toZone(zone);
  const w = wallMillis(f);
  if (z.isUniversal) return w - z.offset(w) * 60_000;
  const offsets = new Set([z.offset(w - 86_400_000), z.offset(w), z.offset(w + 86_400_000)]);
  const valid: number[] = [];
  for (const o of offsets) {
    const t = w - o * 60_000;
    if (z.offset(t) === o) valid.push(t);
  }
  if (valid.length) return Math.min(...valid);
  return w - z.offset(w - 86_400_000) * 60_000;
}

/** Event-local (or site-local) wall clock → UTC wall clock. */
export function localToUtc(wallClock: string, zone: string | Zone): string {
  const f = splitWall(wallClock);
  if (!f) throw new RangeError(`Not a wall-clock date-time: ${JSON.stringify(wallClock)}`);
  return dateToWallClock(new Date(wallFieldsToMillis(f, zone)));
}

/** UTC instant (a Date, or a UTC wall-clock string) → wall clock in `zone`. */
export function utcToLocal(date: Date | string, zone: string | Zone): string {
  const ms = typeof date === 'string' ? wallClockToDate(date).getTime() : date.getTime();
  return formatWallClock(DateTime.fromMillis(ms, { zone: toZone(zone) }));
}

// ---------------------------------------------------------------------------------------------
// Day boundaries (multi-day cutoff)
// ---------------------------------------------------------------------------------------------

/** `'06:00'` → `{ hour: 6, minute: 0 }`; anything malformed counts as `00:00`. */
function parseCutoff(cutoff: string | null | undefined): { hour: number; minute: number } {
  const m = /^(\d{1,2}):(\d{2})(?::\d{2})?$/.exec((cutoff ?? '').trim());
  if (!m) return { hour: 0, minute: 0 };
  const hour = Number(m[1]);
  const minute = Number(m[2]);
  if (hour > 23 || minute > 59) return { hour: 0, minute: 0 };
  return { hour, minute };
}

/** The start of a calendar day (`YYYY-MM-DD`) shifted by the cutoff: `2026-12-12 00:00:00` / `… 06:00:00`. */
export function beginningOfDay(ymd: string, cutoff = '00:00'): string {
  const { hour, minute } = parseCutoff(cutoff);
  return `${ymd.slice(0, 10)} ${pad(hour)}:${pad(minute)}:00`;
}

/** The end of a calendar day shifted by the cutoff: `2026-12-13 23:59:59` / next day `05:59:59`. */
export function endOfDay(ymd: string, cutoff = '00:00'): string {
  const start = wallClockToDate(beginningOfDay(ymd, cutoff));
  return dateToWallClock(new Date(start.getTime() + 86_400_000 - 1000));
}
