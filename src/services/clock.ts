import { DateTime } from 'luxon';
import { resolveTimezone } from '../domain/timezone.ts';
import type { Context } from './context.ts';
import { wallClockToDate } from '../domain/wall-clock.ts';

/** `now` as UTC instant and as site-local wall clock, for dateUtc/dateLocal/modified columns. */
export function stamp(ctx: Context): { utc: Date; local: Date } {
  const zone = resolveTimezone(ctx.settings.timezone)?.zone ?? 'UTC';
  const local = DateTime.fromJSDate(ctx.now).setZone(zone).toFormat('yyyy-MM-dd HH:mm:ss');
  return { utc: new Date(Math.floor(ctx.now.getTime() / 1000) * 1000), local: wallClockToDate(local) };
}
