/** Live (settings/clock dependent) argument defaults shown in the index and applied to requests. */
import { DateTime } from 'luxon';
import type { ArgEnv } from '../../wp/types.ts';

const FMT = 'yyyy-MM-dd HH:mm:ss';

/** Site posts-per-page, as the *string* the index shows (`"10"`). */
export function perPageDefault(env: ArgEnv): string {
  return String(env.settings.postsPerPage);
}

/**
 * `GET /events` `start_date` default (§5.5): today's UTC midnight minus one minute, converted to
 * site time (`"2026-11-20 18:59:00"` in New York on 2026-11-21).
 */
export function eventsStartDateDefault(env: ArgEnv): string {
  const utc = DateTime.fromJSDate(env.now, { zone: 'utc' }).startOf('day').minus({ minutes: 1 });
  const local = utc.setZone(env.settings.siteTimezone);
  return (local.isValid ? local : utc).toFormat(FMT);
}

/** `GET /events` `end_date` default (§5.5): now + 24 months as a UTC wall-clock string. */
export function eventsEndDateDefault(env: ArgEnv): string {
  return DateTime.fromJSDate(env.now, { zone: 'utc' }).plus({ months: 24 }).toFormat(FMT);
}
