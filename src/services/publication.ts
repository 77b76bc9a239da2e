import { DateTime } from 'luxon';
import type { Context } from './context.ts';
import type { Status } from '../domain/capabilities.ts';
import { wallClockToDate } from '../domain/wall-clock.ts';
import { parseDateText } from '../domain/strtotime.ts';
import { ValidationError } from '../domain/errors.ts';
import { resolveTimezone } from '../domain/timezone.ts';

/**
 * Publication date and the status it implies: `publish` with a future date becomes `future`,
 * `future` with a past date becomes `publish` (contract §7.2). Drafts never published keep no UTC
 * date ("0000-00-00 00:00:00" on the wire).
 */
export async function resolvePublicationDate(
  ctx: Context,
  input: { date?: string | null; dateUtc?: string | null; timezone: string; status: Status; current?: Date | null },
): Promise<{ status: Status; dateUtc: Date | null; dateLocal: Date }> {
  const siteZone = resolveTimezone(ctx.settings.timezone)?.zone ?? 'UTC';
  let instant: DateTime | null = null;
  // Blank text is no date (the plugin's `is_time` refuses it: 400), not "no date given".
  if (input.dateUtc != null) {
    instant = parseDateText(input.dateUtc, 'UTC', ctx.now);
    if (!instant) throw new ValidationError('Invalid dateUtc.', 'dateUtc', 'INVALID_DATE');
  } else if (input.date != null) {
    // The text is read in the record's zone (relative phrases, explicit offsets) and, as TEC then
    // hands WordPress its wall clock there, that wall clock is the site-local publication date.
    const zone = resolveTimezone(input.timezone)?.zone ?? siteZone;
    const parsed = parseDateText(input.date, zone, ctx.now);
    if (!parsed) throw new ValidationError('Invalid date.', 'date', 'INVALID_DATE');
    instant = DateTime.fromFormat(parsed.setZone(zone).toFormat('yyyy-MM-dd HH:mm:ss'), 'yyyy-MM-dd HH:mm:ss', { zone: siteZone });
  }
  let status = input.status;
  const unpublished = status === 'draft' || status === 'pending';
  const at = instant ?? (input.current ? DateTime.fromJSDate(input.current, { zone: 'UTC' }) : null) ?? DateTime.fromJSDate(ctx.now);
  if (status === 'publish' && at.toMillis() > ctx.now.getTime()) status = 'future';
  else if (status === 'future' && at.toMillis() <= ctx.now.getTime()) status = 'publish';
  const utc = at.toUTC().startOf('second');
  return {
    status,
    dateUtc: unpublished && !instant && !input.current ? null : utc.toJSDate(),
    dateLocal: wallClockToDate(utc.setZone(siteZone).toFormat('yyyy-MM-dd HH:mm:ss')),
  };
}
