/**
 * Recurrence rules: RFC 5545 `RRULE` text checked and expanded with the `rrule` library
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

/**
 * Most occurrences one series materializes from now to the horizon (a denser series is bounded
 * there), and most it keeps before now (older ones are not materialized).
 */
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

/**
 * A series' recurrence set (RFC 5545 §3.8.5.2): its rules, RDATEs and EXDATEs from DTSTART. A set
 * without rules (RDATEs only) starts with DTSTART; with rules, DTSTART counts when a rule gives it.
 */
export interface SeriesSet {
  rules: readonly SeriesRule[];
  /** DTSTART, event-local floating Date. */
  anchor: Date;
  rdates: readonly Date[];
  exdates: readonly Date[];
}

export interface Expansion {
  /** Occurrence starts in the window, event-local wall clocks (floating Dates), ascending. */
  starts: Date[];
  /** The set has occurrences after the window (an infinite rule, a finite one past it, or past the cap). */
  more: boolean;
  /** The window's end: `until`, or the last occurrence kept when the cap bounded it. */
  until: Date;
}

/** The set's dates beside its rules: RDATEs, and DTSTART when there is no rule. */
const extraDates = (set: SeriesSet) => (set.rules.length ? set.rdates : [set.anchor, ...set.rdates]);

/** A rule's occurrences from `anchor` (callback style: `each` returns false to stop). */
function iterateRule(rule: SeriesRule, anchor: Date, each: (date: Date) => boolean) {
  new (rrule())({ ...rule.options, dtstart: anchor }).all((date) => each(date));
}

/**
 * Occurrence starts of a series in the window [from, until] (inclusive; `from` defaults to the
 * anchor, or an earlier RDATE): its rules, plus RDATEs, minus EXDATEs. At most MAX_OCCURRENCES_PER_SERIES of them start
 * at or after `capFrom` (default `from`): a denser set is bounded there, not refused — the window
 * ends at the last one kept and `more` says the rest is still to come.
 */
export function expandSeries(set: SeriesSet, window: { from?: Date | null; until: Date; capFrom?: Date }): Expansion {
  const from = window.from ?? earliest(set);
  const capFrom = window.capFrom && window.capFrom > from ? window.capFrom : from;
  const excluded = new Set(set.exdates.map((d) => d.getTime()));
  const all = new Map<number, Date>();
  let more = false;
  for (const rule of set.rules) {
    // One rule past the cap cannot bring the union below it: each stops at the cap (+1 to know of more).
    let counted = 0;
    iterateRule(rule, set.anchor, (date) => {
      if (date > window.until) {
        more = true;
        return false;
      }
      if (date < from || excluded.has(date.getTime())) return true;
      all.set(date.getTime(), date);
      if (date >= capFrom && ++counted > MAX_OCCURRENCES_PER_SERIES) return false;
      return true;
    });
  }
  for (const d of extraDates(set)) {
    if (d > window.until) more = true;
    else if (d >= from && !excluded.has(d.getTime())) all.set(d.getTime(), d);
  }
  const starts = [...all.values()].sort((a, b) => a.getTime() - b.getTime());
  const capped = starts.filter((d) => d >= capFrom);
  if (capped.length > MAX_OCCURRENCES_PER_SERIES) {
    const last = capped[MAX_OCCURRENCES_PER_SERIES - 1]!;
    return { starts: starts.filter((d) => d <= last), more: true, until: last };
  }
  return { starts, more, until: window.until };
}

/**
 * Where a series' materialized occurrences begin: its anchor (or an earlier RDATE), or — when more than
 * MAX_OCCURRENCES_PER_SERIES occurrences lie before `now` (an open-ended daily rule that began
 * years ago) — the first of the last MAX_OCCURRENCES_PER_SERIES of them. A series is bounded by the
 * horizon on both sides instead of refused, and the cap never counts from a start years ago.
 */
export function materializationStart(set: SeriesSet, now: Date): Date {
  const excluded = new Set(set.exdates.map((d) => d.getTime()));
  const keep = MAX_OCCURRENCES_PER_SERIES;
  // Each rule's last `keep` before now: the union's last `keep` are among them.
  const before: Date[] = [];
  for (const rule of set.rules) {
    const own: Date[] = [];
    iterateRule(rule, set.anchor, (date) => {
      if (date >= now) return false;
      if (!excluded.has(date.getTime())) own.push(date);
      if (own.length > 2 * keep) own.splice(0, own.length - keep);
      return true;
    });
    before.push(...own.slice(-(keep + 1)));
  }
  for (const d of extraDates(set)) if (d < now && !excluded.has(d.getTime())) before.push(d);
  const distinct = [...new Map(before.map((d) => [d.getTime(), d])).values()].sort((a, b) => a.getTime() - b.getTime());
  return distinct.length > keep ? distinct[distinct.length - keep]! : earliest(set);
}

/** The set's first possible date: DTSTART, or an RDATE before it. */
const earliest = (set: SeriesSet) => set.rdates.reduce((a, d) => (d < a ? d : a), set.anchor);

/** RRULE text without its COUNT/UNTIL parts. */
const unbounded = (rule: string) =>
  rule
    .split(';')
    .filter((p) => !/^(COUNT|UNTIL)=/.test(p))
    .join(';');

const utcUntil = (wall: Date, timezone: string) => `${localToUtc(dateToWallClock(wall), timezone).replace(/[-:]/g, '').replace(' ', 'T')}Z`;
const WEEKDAYS = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/**
 * A rule with the parts it takes from DTSTART written out (the weekday of a weekly rule, the day of
 * a monthly one, the day and month of a yearly one), so that it means the same from another start.
 */
function explicitRule(rule: SeriesRule, anchor: Date): string {
  const parts = new Set(rule.rule.split(';').map((p) => p.split('=')[0]));
  const add: string[] = [];
  const freq = /FREQ=([A-Z]+)/.exec(rule.rule)?.[1];
  const byDay = parts.has('BYDAY');
  if (freq === 'WEEKLY' && !byDay) add.push(`BYDAY=${WEEKDAYS[anchor.getUTCDay()]}`);
  if (freq === 'MONTHLY' && !byDay && !parts.has('BYMONTHDAY')) add.push(`BYMONTHDAY=${anchor.getUTCDate()}`);
  if (freq === 'YEARLY' && !byDay && !parts.has('BYMONTHDAY')) {
    if (!parts.has('BYMONTH')) add.push(`BYMONTH=${anchor.getUTCMonth() + 1}`);
    add.push(`BYMONTHDAY=${anchor.getUTCDate()}`);
  }
  return [rule.rule, ...add].join(';');
}

/**
 * A series' rules split at `cut` (an occurrence, event-local): the rules giving its occurrences
 * before `cut`, and those giving the ones from `cut` on for a series starting at `cut + shift`
 * (COUNT: what is left of it; UNTIL moved by `shift` too). `after` is null when a rule cannot be
 * moved so: a shift that changes the day of a rule bound to days (BYDAY, BYMONTHDAY, …), or an
 * INTERVAL whose phase `cut` does not keep.
 */
export function splitRules(rules: readonly SeriesRule[], anchor: Date, cut: Date, timezone: string, shift = 0): { before: string[]; after: string[] | null } {
  const before: string[] = [];
  let after: string[] | null = [];
  const dayChanges = dateToWallClock(new Date(cut.getTime() + shift)).slice(0, 10) !== dateToWallClock(cut).slice(0, 10);
  for (const rule of rules) {
    const dates: Date[] = [];
    let next: Date | null = null;
    iterateRule(rule, anchor, (date) => {
      if (date < cut) {
        dates.push(date);
        return true;
      }
      next = date;
      return false;
    });
    if (dates.length) before.push(next ? `${unbounded(rule.rule)};UNTIL=${utcUntil(new Date(cut.getTime() - 1000), timezone)}` : rule.rule);
    if (!next || !after) continue;
    // From an occurrence of its own the rule means the same (its implicit parts move with a shift);
    // from another rule's occurrence, its implicit parts are written out.
    const own = (next as Date).getTime() === cut.getTime();
    const text = own ? rule.rule : explicitRule(rule, anchor);
    const boundToDays = /(^|;)BY(DAY|MONTHDAY|MONTH|SETPOS|YEARDAY|WEEKNO)=/.test(text);
    if ((dayChanges && (boundToDays || !own)) || ((rule.options.interval ?? 1) > 1 && !own)) {
      after = null;
      continue;
    }
    const { count, until } = rule.options;
    const end = count ? `;COUNT=${count - dates.length}` : until ? `;UNTIL=${utcUntil(new Date(until.getTime() + shift), timezone)}` : '';
    after.push(unbounded(text) + end);
  }
  return { before, after };
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
  /** RRULE texts; none for a series of RDATEs only. */
  rules: readonly string[];
  /** DTSTART (event-local): written as an RDATE too in a series of RDATEs only, which some readers (ical.js) otherwise leave out. */
  start?: string;
  exdates: readonly string[];
  rdates: readonly string[];
  timezone: string;
  allDay: boolean;
}

const icalLocal = (wall: string) => wall.replace(/[-:]/g, '').replace(' ', 'T');

/**
 * The recurrence lines of a series' VEVENT (RFC 5545 §3.8.5): an `RRULE` per rule, and `EXDATE`/`RDATE`
 * with the series' `TZID` (`VALUE=DATE` for an all-day series). A wall-clock UNTIL becomes the UTC
 * instant RFC 5545 requires beside a TZID start (a date for an all-day series); `zone` is the TZID
 * written (the feed's fallback when the event's zone has no VTIMEZONE; same instants).
 */
export function icalRecurrenceLines(series: ICalSeries, zone: string): string {
  const rules = series.rules.map((rule) => {
    const { options } = parseSeriesRule(rule, series.timezone);
    const parts = rule.split(';').filter((p) => !p.startsWith('UNTIL='));
    if (options.until) {
      const wall = dateToWallClock(options.until);
      parts.push(`UNTIL=${series.allDay ? wall.slice(0, 10).replace(/-/g, '') : `${icalLocal(localToUtc(wall, series.timezone))}Z`}`);
    }
    return `RRULE:${parts.join(';')}`;
  });
  const dates = (name: string, list: readonly string[]) =>
    !list.length
      ? []
      : series.allDay
        ? [`${name};VALUE=DATE:${list.map((d) => d.slice(0, 10).replace(/-/g, '')).join(',')}`]
        : [`${name};TZID=${zone}:${list.map((d) => icalLocal(zone === series.timezone ? d : utcToLocal(localToUtc(d, series.timezone), zone))).join(',')}`];
  const rdates = !rules.length && series.start ? [series.start, ...series.rdates] : series.rdates;
  return [...rules, ...dates('EXDATE', series.exdates), ...dates('RDATE', rdates)].join('\n');
}
