/**
 * Date window of `GET /events` (contract §5.5).
 *
 * Bounds are site-local wall clocks compared against the event-local start/end (timezone mode
 * `event`); `boundsUtc` holds the same bounds converted to UTC for timezone mode `site`.
 */
import { beginningOfDay, endOfDay, formatWallClock, localToUtc } from './wall-clock.ts';
import { parseDateText } from './strtotime.ts';
import { toZone } from './timezone.ts';

export type BoundKind = 'start_date' | 'end_date' | 'starts_before' | 'starts_after' | 'ends_before' | 'ends_after';

/** Order in which the bounds appear in `rest_url` (§5.3). */
export const BOUND_KINDS: readonly BoundKind[] = ['start_date', 'end_date', 'starts_before', 'starts_after', 'ends_before', 'ends_after'];
const RELATIVE_KINDS: readonly BoundKind[] = ['starts_before', 'starts_after', 'ends_before', 'ends_after'];

export interface BoundOptions {
  strict: boolean;
  siteTimezone: string;
  /** Multi-day cutoff `HH:MM`. */
  cutoff?: string;
  now?: Date;
}

/**
 * Normalizes one given bound value. Non-strict: the calendar date of the value (text read as UTC, an
 * epoch's UTC date) → `start_date`: beginning of that day; all the others: end of that day (cutoff
 * applied). Strict: the value as a UTC instant (unless it carries its own offset) in site time.
 * Returns null when the value is not parseable.
 */
export function normalizeBound(kind: BoundKind, raw: string | number | null | undefined, opts: BoundOptions): string | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === 'string' && raw.trim() === '') return null;
  const dt = parseDateText(raw, 'UTC', opts.now ?? new Date());
  if (!dt) return null;
  if (opts.strict) return formatWallClock(dt.setZone(toZone(opts.siteTimezone)));
  const ymd = dt.toUTC().toFormat('yyyy-MM-dd');
  return kind === 'start_date' ? beginningOfDay(ymd, opts.cutoff) : endOfDay(ymd, opts.cutoff);
}

export interface DefaultWindow {
  /** "yesterday 23:59" computed in UTC, in site time: `2026-11-20 18:59:00` (what the index shows). */
  startDateRaw: string;
  /** now + 24 months as a UTC wall clock: `2028-11-21 11:55:56`. */
  endDateRaw: string;
}

/** The raw default `start_date`/`end_date` pair (§5.5 "Defaults"), before normalization. */
export function defaultWindow({ now = new Date(), siteTimezone }: { now?: Date; siteTimezone: string }): DefaultWindow {
  const start = parseDateText('yesterday 23:59', 'UTC', now)!;
  const end = parseDateText('+24 months', 'UTC', now)!;
  return {
    startDateRaw: formatWallClock(start.setZone(toZone(siteTimezone))),
    endDateRaw: formatWallClock(end),
  };
}

export interface EventWindowParams {
  start_date?: string | number | null;
  end_date?: string | number | null;
  starts_before?: string | number | null;
  starts_after?: string | number | null;
  ends_before?: string | number | null;
  ends_after?: string | number | null;
  strict_dates?: boolean | null;
  /** `include` was given: no date bound applies, `rest_url` shows the raw default pair. */
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

export interface WindowBounds {
  /** start ≥ (start_date) */
  startGte?: string;
  /** end ≤ (end_date) */
  endLte?: string;
  /** start < (starts_before) */
  startLt?: string;
  /** start > (starts_after) */
  startGt?: string;
  /** end < (ends_before) */
  endLt?: string;
  /** end > (ends_after) */
  endGt?: string;
}

export interface EventWindow {
  /** Site-local wall clocks, compared with event-local start/end (timezone mode `event`). */
  bounds: WindowBounds;
  /** The same bounds as UTC wall clocks, compared with UTC start/end (timezone mode `site`). */
  boundsUtc: WindowBounds;
  /** Values to echo in `rest_url`, keyed by parameter name (insert in `BOUND_KINDS` order). */
  restUrlValues: Partial<Record<BoundKind, string>>;
  /** Parameters whose value could not be parsed (→ 400 `rest_invalid_param`). */
  invalid: BoundKind[];
  defaults: DefaultWindow;
}

const BOUND_KEY: Record<BoundKind, keyof WindowBounds> = {
  start_date: 'startGte',
  end_date: 'endLte',
  starts_before: 'startLt',
  starts_after: 'startGt',
  ends_before: 'endLt',
  ends_after: 'endGt',
};

/** Resolves the list date filters into bounds, `rest_url` values and validation failures (§5.5). */
export function resolveEventWindow(params: EventWindowParams, settings: WindowSettings): EventWindow {
  const now = settings.now ?? new Date();
  const strict = Boolean(params.strict_dates);
  const opts: BoundOptions = { strict, siteTimezone: settings.siteTimezone, cutoff: settings.cutoff ?? '00:00', now };
  const defaults = defaultWindow({ now, siteTimezone: settings.siteTimezone });
  const useDefaults = params.useDefaults !== false;

  const invalid: BoundKind[] = [];
  const values: Partial<Record<BoundKind, string>> = {};
  const given = BOUND_KINDS.filter((k) => params[k] !== undefined && params[k] !== null);
  for (const kind of given) {
    const normalized = normalizeBound(kind, params[kind], opts);
    if (normalized === null) invalid.push(kind);
    else values[kind] = normalized;
  }

  if (params.include) {
    return {
      bounds: {},
      boundsUtc: {},
      restUrlValues: useDefaults ? { start_date: defaults.startDateRaw, end_date: defaults.endDateRaw } : {},
      invalid,
      defaults,
    };
  }

  const anyRelative = RELATIVE_KINDS.some((k) => given.includes(k));
  if (useDefaults && !anyRelative) {
    if (!given.includes('start_date')) {
      values.start_date = strict ? defaults.startDateRaw : normalizeBound('start_date', defaults.startDateRaw, opts)!;
    }
    if (!given.includes('end_date')) {
      values.end_date = strict ? defaults.endDateRaw : normalizeBound('end_date', defaults.endDateRaw, opts)!;
    }
  }

  const bounds: WindowBounds = {};
  const boundsUtc: WindowBounds = {};
  const restUrlValues: Partial<Record<BoundKind, string>> = {};
  for (const kind of BOUND_KINDS) {
    const value = values[kind];
    if (value === undefined) continue;
    bounds[BOUND_KEY[kind]] = value;
    boundsUtc[BOUND_KEY[kind]] = localToUtc(value, settings.siteTimezone);
    restUrlValues[kind] = value;
  }
  return { bounds, boundsUtc, restUrlValues, invalid, defaults };
}
