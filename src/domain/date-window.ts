/**
 * Date window of `GET /events` (contract §5.5).
 *
 * Bounds are site-local wall clocks compared against the event-local start/end (timezone mode
 * `event`); `boundsUtc` holds the same bounds converted to UTC for timezone mode `site`.
 */
import { beginningOfDay, endOfDay, formatWallClock, localToUtc } from './wall-clock.ts';
import { parseDateText } from './strtotime.ts';
import { toZone } from './timezone.ts';

interface BoundRule {
  /** Which end of the event the bound compares. */
  edge: 'start' | 'end';
  /** How the event's edge compares with the bound. */
  op: 'gte' | 'lte' | 'lt' | 'gt';
  /** A relative bound (any of the four) drops the default window. */
  relative: boolean;
  description?: string;
}

/**
 * The six date bounds of the event list, defined here once: every filter, applied window, GraphQL
 * field and REST parameter is derived from this table, in this order (the order of `rest_url`, §5.3).
 */
const DATE_BOUND_RULES = {
  startDate: { edge: 'start', op: 'gte', relative: false, description: 'Events starting on/after (whole day unless strictDates).' },
  endDate: { edge: 'end', op: 'lte', relative: false, description: 'Events ending on/before.' },
  startsBefore: { edge: 'start', op: 'lt', relative: true },
  startsAfter: { edge: 'start', op: 'gt', relative: true },
  endsBefore: { edge: 'end', op: 'lt', relative: true },
  endsAfter: { edge: 'end', op: 'gt', relative: true },
} satisfies Record<string, BoundRule>;

export type DateBound = keyof typeof DATE_BOUND_RULES;
export const DATE_BOUNDS: Readonly<Record<DateBound, BoundRule>> = DATE_BOUND_RULES;
export const DATE_BOUND_NAMES = Object.keys(DATE_BOUND_RULES) as DateBound[];
/** A value per date bound (filters, applied windows). */
export type DateBoundValues<T> = { [K in DateBound]?: T };

/** Builds one entry per date bound, in table order (GraphQL fields, argument tables). */
export function mapDateBounds<T>(make: (bound: DateBound) => T): Record<DateBound, T> {
  return Object.fromEntries(DATE_BOUND_NAMES.map((b) => [b, make(b)])) as Record<DateBound, T>;
}

export interface BoundOptions {
  strict: boolean;
  siteTimezone: string;
  /** Multi-day cutoff `HH:MM`. */
  cutoff?: string;
  now?: Date;
}

/**
 * Normalizes one given bound value. Non-strict: the calendar date of the value (text read as UTC, an
 * epoch's UTC date) → `startDate`: beginning of that day; all the others: end of that day (cutoff
 * applied). Strict: the value as a UTC instant (unless it carries its own offset) in site time.
 * Returns null when the value is not parseable.
 */
export function normalizeBound(kind: DateBound, raw: string | number | null | undefined, opts: BoundOptions): string | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'string' && raw.trim() === '') return null;
  const dt = parseDateText(raw, 'UTC', opts.now ?? new Date());
  // strtotime reads `0000-00-00` as -0001-11-30: years outside 1–9999 have no wall clock here.
  if (!dt || dt.toUTC().year < 1 || dt.toUTC().year > 9999) return null;
  if (opts.strict) return formatWallClock(dt.setZone(toZone(opts.siteTimezone)));
  const ymd = dt.toUTC().toFormat('yyyy-MM-dd');
  return kind === 'startDate' ? beginningOfDay(ymd, opts.cutoff) : endOfDay(ymd, opts.cutoff);
}

export interface DefaultWindow {
  /** "yesterday 23:59" computed in UTC, in site time: `2026-11-20 18:59:00` (what the index shows). */
  startDateRaw: string;
  /** now + 24 months as a UTC wall clock: `2028-11-21 11:55:56`. */
  endDateRaw: string;
}

/**
 * The last pair computed, by the second of the clock: one request asks for it several times (each
 * REST default, the list's window), and the requests of one second share it (both bounds are
 * written to the second, so any instant within it gives the same pair; parsing the two relative
 * dates costs more than the rest of a small read's list query).
 */
let lastDefaultWindow: { second: number; siteTimezone: string; window: DefaultWindow } | null = null;

/** The raw default `startDate`/`endDate` pair (§5.5 "Defaults"), before normalization. */
export function defaultWindow({ now = new Date(), siteTimezone }: { now?: Date; siteTimezone: string }): DefaultWindow {
  const second = Math.floor(now.getTime() / 1000);
  const last = lastDefaultWindow;
  if (last && last.second === second && last.siteTimezone === siteTimezone) return { ...last.window };
  const window = computeDefaultWindow(now, siteTimezone);
  lastDefaultWindow = { second, siteTimezone, window };
  return { ...window };
}

function computeDefaultWindow(now: Date, siteTimezone: string): DefaultWindow {
  const start = parseDateText('yesterday 23:59', 'UTC', now)!;
  const end = parseDateText('+24 months', 'UTC', now)!;
  return {
    startDateRaw: formatWallClock(start.setZone(toZone(siteTimezone))),
    endDateRaw: formatWallClock(end),
  };
}

export interface EventWindowParams extends DateBoundValues<string | number | null> {
  strictDates?: boolean | null;
  /** `include` was given: no date bound applies, the list reports the raw default pair. */
  include?: boolean | null;
  /** Apply the default window when no bound is given (default true; GraphQL may turn it off). */
  useDefaults?: boolean | null;
}

export interface WindowSettings {
  siteTimezone: string;
  /** Multi-day cutoff `HH:MM` (default `00:00`). */
  cutoff?: string;
  now?: Date;
}

export interface EventWindow {
  /** Site-local wall clocks, compared with event-local start/end (timezone mode `event`). */
  bounds: DateBoundValues<string>;
  /** The same bounds as UTC wall clocks, compared with UTC start/end (timezone mode `site`). */
  boundsUtc: DateBoundValues<string>;
  /** The bounds the list reports it applied: `bounds`, or with `include` the raw default pair. */
  applied: DateBoundValues<string>;
  /** Bounds whose value could not be parsed (→ 400 `rest_invalid_param`). */
  invalid: DateBound[];
  defaults: DefaultWindow;
}

/** Resolves the list date filters into bounds, the applied window and validation failures (§5.5). */
export function resolveEventWindow(params: EventWindowParams, settings: WindowSettings): EventWindow {
  const now = settings.now ?? new Date();
  const strict = Boolean(params.strictDates);
  const opts: BoundOptions = { strict, siteTimezone: settings.siteTimezone, cutoff: settings.cutoff ?? '00:00', now };
  const defaults = defaultWindow({ now, siteTimezone: settings.siteTimezone });
  const useDefaults = params.useDefaults !== false;

  const invalid: DateBound[] = [];
  const values: DateBoundValues<string> = {};
  const given = DATE_BOUND_NAMES.filter((k) => params[k] !== undefined && params[k] !== null);
  for (const kind of given) {
    const normalized = normalizeBound(kind, params[kind], opts);
    if (normalized === null) invalid.push(kind);
    else values[kind] = normalized;
  }

  if (params.include) {
    return {
      bounds: {},
      boundsUtc: {},
      applied: useDefaults ? { startDate: defaults.startDateRaw, endDate: defaults.endDateRaw } : {},
      invalid,
      defaults,
    };
  }

  const anyRelative = given.some((k) => DATE_BOUNDS[k].relative);
  if (useDefaults && !anyRelative) {
    if (!given.includes('startDate')) {
      values.startDate = strict ? defaults.startDateRaw : normalizeBound('startDate', defaults.startDateRaw, opts)!;
    }
    if (!given.includes('endDate')) {
      values.endDate = strict ? defaults.endDateRaw : normalizeBound('endDate', defaults.endDateRaw, opts)!;
    }
  }

  const bounds: DateBoundValues<string> = {};
  const boundsUtc: DateBoundValues<string> = {};
  for (const kind of DATE_BOUND_NAMES) {
    const value = values[kind];
    if (value === undefined) continue;
    bounds[kind] = value;
    boundsUtc[kind] = localToUtc(value, settings.siteTimezone);
  }
  return { bounds, boundsUtc, applied: bounds, invalid, defaults };
}
