/**
 * Recurrence rules (issue 13): RFC 5545 `RRULE` text checked and expanded with the `rrule` library
 * (no hand-written recurrence maths). Expansion runs in *floating* time: a wall clock is a `Date`
 * whose UTC components are the wall clock (the convention of `wall-clock.ts`), so 19:00 stays 19:00
 * across DST; each occurrence's instant is then computed in the event's zone by `wallFieldsToMillis`
 * (a time in a DST gap moves forward by the gap, `02:30` → `03:30`, as for single events).
 * Pure functions, no I/O.
 */
import { createRequire } from 'node:module';
import type { Options } from 'rrule';
import { dateToWallClock, localToUtc, utcToLocal, wallClockToDate } from './wall-clock.ts';
import { ValidationError } from './errors.ts';

/** rrule (CommonJS build) is loaded when a recurrence rule is first read, not at start. */
const requireHere = createRequire(import.meta.url);
let rruleClass: typeof import('rrule').RRule | undefined;
export const rrule = () => (rruleClass ??= (requireHere('rrule') as typeof import('rrule')).RRule);

/** Most occurrences one series may have within the horizon (a finite rule may have no more in all). */
export const MAX_OCCURRENCES_PER_SERIES = 1000;

const SUPPORTED = new Set(['FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYDAY', 'BYMONTHDAY', 'BYMONTH', 'BYSETPOS', 'WKST']);
const FREQS = new Set(['DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY']);
const DAYS = '(MO|TU|WE|TH|FR|SA|SU)';
const PART_SYNTAX: Record<string, RegExp> = {
  FREQ: /^[A-Z]+$/,
  INTERVAL: /^[1-9]\d{0,2}$/,
  COUNT: /^[1-9]\d{0,5}$/,
  UNTIL: /^\d{8}(T\d{6}Z?)?$/,
  BYDAY: new RegExp(`^([+-]?[1-9]\\d?)?${DAYS}(,([+-]?[1-9]\\d?)?${DAYS})*$`),
  BYMONTHDAY: /^[+-]?([1-9]|[12]\d|3[01])(,[+-]?([1-9]|[12]\d|3[01]))*$/,
  BYMONTH: /^([1-9]|1[0-2])(,([1-9]|1[0-2]))*$/,
  BYSETPOS: /^[+-]?[1-9]\d{0,2}(,[+-]?[1-9]\d{0,2})*$/,
  WKST: new RegExp(`^${DAYS}$`),
};
/** Days in each month at most (February 29: leap years exist). */
const MONTH_DAYS = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const invalid = (message: string, code = 'INVALID_RULE') => new ValidationError(message, 'recurrence.rule', code);

export interface SeriesRule {
  /** Normalized RRULE text (upper case, no `RRULE:` prefix, no DTSTART). */
  rule: string;
  /** rrule options without dtstart; UNTIL as an event-local wall clock. */
  options: Partial<Options>;
}

/**
 * Checks RRULE text strictly (rrule's own parser accepts nonsense such as `FREQ=FOO`) and returns
 * its options. Unsupported parts (sub-daily frequencies, BYYEARDAY, BYWEEKNO, BYHOUR…) and rules
 * that can never match (BYMONTHDAY=30 in February) are refused up front: rrule would search for a
 * match until the year 9999 and hang the request.
 */
export function parseSeriesRule(text: string, timezone: string): SeriesRule {
  const rule = text.trim().replace(/^RRULE:/i, '').toUpperCase();
  if (!rule) throw invalid('The recurrence rule is empty.', 'EMPTY');
  const parts = new Map<string, string>();
  for (const part of rule.split(';')) {
    const [name, value, extra] = part.split('=');
    if (!name || value === undefined || extra !== undefined || !value) throw invalid(`Malformed rule part: "${part}".`);
    if (!SUPPORTED.has(name)) throw invalid(`Unsupported rule part: ${name}.`, 'UNSUPPORTED_RULE');
    if (parts.has(name)) throw invalid(`Rule part given twice: ${name}.`);
    if (!PART_SYNTAX[name]?.test(value)) throw invalid(`Invalid ${name}: "${value}".`);
    parts.set(name, value);
  }
  const freq = parts.get('FREQ');
  if (!freq) throw invalid('The rule has no FREQ.');
  if (!FREQS.has(freq)) throw invalid(`Unsupported FREQ: ${freq} (DAILY, WEEKLY, MONTHLY or YEARLY).`, 'UNSUPPORTED_RULE');
  if (parts.has('COUNT') && parts.has('UNTIL')) throw invalid('COUNT and UNTIL cannot both be given (RFC 5545).', 'COUNT_AND_UNTIL');
  const byday = parts.get('BYDAY')?.split(',') ?? [];
  const ordinals = byday.map((d) => Number(d.slice(0, -2) || 0));
  if (ordinals.some((n) => n !== 0) && freq !== 'MONTHLY' && freq !== 'YEARLY') {
    throw invalid('Numbered BYDAY (2TU, -1FR) needs FREQ=MONTHLY or YEARLY.');
  }
  if (ordinals.some((n) => Math.abs(n) > (freq === 'MONTHLY' && !parts.has('BYMONTH') ? 5 : 53))) throw invalid('BYDAY number out of range.');
  if (freq === 'MONTHLY' && ordinals.some((n) => Math.abs(n) > 5)) throw invalid('BYDAY number out of range (±5 in a month).');
  if (parts.has('BYSETPOS') && freq !== 'MONTHLY' && freq !== 'YEARLY') throw invalid('BYSETPOS needs FREQ=MONTHLY or YEARLY.');
  const monthdays = parts.get('BYMONTHDAY')?.split(',').map(Number) ?? [];
  if (parts.has('BYSETPOS')) {
    // A position past the largest set a period can hold never matches (and rrule would search to 9999).
    const months = freq === 'MONTHLY' ? 1 : (parts.get('BYMONTH')?.split(',').length ?? 12);
    const weekdays = new Set(byday.map((d) => d.slice(-2))).size;
    const perMonth = monthdays.length ? monthdays.length : weekdays ? 5 * weekdays : 31;
    const largest = perMonth * months;
    if (parts.get('BYSETPOS')!.split(',').every((p) => Math.abs(Number(p)) > largest)) {
      throw invalid(`BYSETPOS out of range (a period holds ${largest} dates at most).`, 'EMPTY_SERIES');
    }
  }
  if (monthdays.length) {
    const months = parts.get('BYMONTH')?.split(',').map(Number) ?? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];
    const longest = Math.max(...months.map((m) => MONTH_DAYS[m - 1] ?? 31));
    if (monthdays.every((d) => Math.abs(d) > longest)) throw invalid('BYMONTHDAY never falls in the given months.', 'EMPTY_SERIES');
  }
  let options: Partial<Options>;
  try {
    options = rrule().parseString(rule);
  } catch (error) {
    throw invalid(`Invalid rule: ${(error as Error).message}`);
  }
  const until = parts.get('UNTIL');
  if (until) {
    const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z?))?$/.exec(until)!;
    const wall = `${m[1]}-${m[2]}-${m[3]} ${m[4] ?? '23'}:${m[5] ?? '59'}:${m[6] ?? '59'}`;
    // UNTIL in UTC (`…Z`, what RFC 5545 asks for with a TZID start) bounds the instant; else the wall clock.
    options.until = wallClockToDate(m[7] ? utcToLocal(wallClockToDate(wall), timezone) : wall);
  }
  return { rule, options };
}

export interface Expansion {
  /** Occurrence starts, event-local wall clocks (floating Dates), ascending, at most the cap. */
  starts: Date[];
  /** The rule has occurrences after `until` (an infinite rule, or a finite one past the horizon). */
  more: boolean;
}

/**
 * Occurrence starts of a series from its anchor (DTSTART) up to `until` (inclusive): the rule, plus
 * RDATEs, minus EXDATEs. More than MAX_OCCURRENCES_PER_SERIES in that span is a ValidationError.
 */
export function expandSeries(series: SeriesRule, anchor: Date, rdates: Date[], exdates: Date[], until: Date): Expansion {
  const excluded = new Set(exdates.map((d) => d.getTime()));
  const tooMany = () =>
    invalid(`The series has more than ${MAX_OCCURRENCES_PER_SERIES} occurrences within the horizon.`, 'TOO_MANY_OCCURRENCES');
  // The rule alone, stopped at the horizon or past the cap (rrule's RRuleSet does not hand RDATEs
  // over in order through an iterator, so the set is combined here: a union, a difference, a sort).
  const fromRule: Date[] = [];
  let more = false;
  new (rrule())({ ...series.options, dtstart: anchor }).all((date) => {
    if (date > until) {
      more = true;
      return false;
    }
    if (!excluded.has(date.getTime())) fromRule.push(date);
    if (fromRule.length > MAX_OCCURRENCES_PER_SERIES) throw tooMany();
    return true;
  });
  const all = new Map(fromRule.map((d) => [d.getTime(), d]));
  for (const d of rdates) {
    if (d > until) more = true;
    else if (!excluded.has(d.getTime())) all.set(d.getTime(), d);
  }
  if (all.size > MAX_OCCURRENCES_PER_SERIES) throw tooMany();
  return { starts: [...all.values()].sort((a, b) => a.getTime() - b.getTime()), more };
}

/** `YYYY-MM-DD` or `YYYY-MM-DD HH:MM[:SS]` (event-local) → floating Date; a bare date takes `time` (the series' start time). */
export function parseSeriesDate(text: string, time: string, field: string): Date {
  const m = /^(\d{4}-\d{2}-\d{2})(?:[ T](\d{2}:\d{2}(?::\d{2})?))?$/.exec(text.trim());
  const wall = m ? `${m[1]} ${m[2] ? (m[2].length === 5 ? `${m[2]}:00` : m[2]) : time}` : '';
  const date = wall ? wallClockToDate(wall) : new Date(NaN);
  if (Number.isNaN(date.getTime()) || dateToWallClock(date) !== wall) {
    throw new ValidationError(`Invalid date "${text}" (YYYY-MM-DD or YYYY-MM-DD HH:MM:SS).`, field, 'INVALID_DATE');
  }
  return date;
}

/** A stored series as an iCalendar feed describes it (event-local wall clocks, `YYYY-MM-DD HH:MM:SS`). */
export interface ICalSeries {
  rule: string;
  exdates: readonly string[];
  rdates: readonly string[];
  timezone: string;
  allDay: boolean;
}

const icalLocal = (wall: string) => wall.replace(/[-:]/g, '').replace(' ', 'T');

/**
 * The recurrence lines of a series' VEVENT (RFC 5545 §3.8.5): `RRULE`, and `EXDATE`/`RDATE` with the
 * series' `TZID` (`VALUE=DATE` for an all-day series). A wall-clock UNTIL becomes the UTC instant
 * RFC 5545 requires beside a TZID start (a date for an all-day series); `zone` is the TZID written
 * (the feed's fallback when the event's zone has no VTIMEZONE; same instants).
 */
export function icalRecurrenceLines(series: ICalSeries, zone: string): string {
  const { options } = parseSeriesRule(series.rule, series.timezone);
  const parts = series.rule.split(';').filter((p) => !p.startsWith('UNTIL='));
  if (options.until) {
    const wall = dateToWallClock(options.until);
    parts.push(`UNTIL=${series.allDay ? wall.slice(0, 10).replace(/-/g, '') : `${icalLocal(localToUtc(wall, series.timezone))}Z`}`);
  }
  const dates = (name: string, list: readonly string[]) =>
    !list.length
      ? []
      : series.allDay
        ? [`${name};VALUE=DATE:${list.map((d) => d.slice(0, 10).replace(/-/g, '')).join(',')}`]
        : [`${name};TZID=${zone}:${list.map((d) => icalLocal(zone === series.timezone ? d : utcToLocal(localToUtc(d, series.timezone), zone))).join(',')}`];
  return [`RRULE:${parts.join(';')}`, ...dates('EXDATE', series.exdates), ...dates('RDATE', series.rdates)].join('\n');
}
