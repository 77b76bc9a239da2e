/**
 * iCalendar (RFC 5545) feeds built with ical-generator from the REST API's own event records, so
 * every instant is the one `utc_start_date`/`utc_end_date` states. Timed events carry `TZID` with a
 * `VTIMEZONE` per zone used (@touch4it/ical-timezones); zones without a definition fall back to
 * the calendar's zone (same instant). All-day events are `VALUE=DATE` with an exclusive end.
 */
import { createHash } from 'node:crypto';
import ical, { ICalEventStatus } from 'ical-generator';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import { DateTime } from 'luxon';
import { htmlToText } from '../domain/text.ts';

/** The subset of a REST event (`GET /events`, `GET /events/{id}`) a feed uses. */
export interface RestEvent {
  id: number;
  global_id: string;
  status: string;
  url: string;
  title: string;
  description: string;
  excerpt: string;
  all_day: boolean;
  start_date: string;
  end_date: string;
  utc_start_date: string;
  utc_end_date: string;
  timezone: string;
  modified_utc: string;
  date_utc: string;
  cost?: string;
  website?: string;
  venue?: { venue?: string; address?: string; city?: string; state?: string; province?: string; zip?: string; country?: string; geo_lat?: number; geo_lng?: number } | unknown[];
  organizer?: Array<{ organizer?: string; email?: string }>;
  categories?: Array<{ name: string }>;
  tags?: Array<{ name: string }>;
}

const utc = (text: string) => DateTime.fromSQL(text, { zone: 'utc' });

export function venueAddress(v: RestEvent['venue']): { title: string; address: string } | null {
  if (!v || Array.isArray(v) || !v.venue) return null;
  const address = [v.address, v.city, v.state || v.province, v.zip, v.country].filter((x) => x && String(x).trim()).join(', ');
  return { title: v.venue, address };
}

/** When the newest record was modified (feeds: `Last-Modified`), or null for an empty feed. */
export function lastModified(events: readonly RestEvent[]): Date | null {
  let max: number | null = null;
  for (const e of events) {
    const t = utc(e.modified_utc).toMillis();
    if (Number.isFinite(t) && (max === null || t > max)) max = t;
  }
  return max === null ? null : new Date(Math.floor(max / 1000) * 1000);
}

export interface FeedOptions {
  name: string;
  siteTimezone: string;
  /** Host part of UIDs (stable across requests). */
  host: string;
  url: string;
}

const hasZone = (zone: string) => Boolean(zone && getVtimezoneComponent(zone));

export function buildCalendar(events: readonly RestEvent[], opts: FeedOptions): string {
  const calendarZone = hasZone(opts.siteTimezone) ? opts.siteTimezone : 'UTC';
  const cal = ical({
    name: opts.name,
    prodId: { company: 'cal-events', product: 'cal-events', language: 'EN' },
    url: opts.url,
    // No calendar zone: DTSTAMP, CREATED and LAST-MODIFIED stay UTC; each event's zone gets its VTIMEZONE.
    timezone: { name: null as unknown as string, generator: getVtimezoneComponent },
  });
  for (const e of events) {
    const zone = hasZone(e.timezone) ? e.timezone : calendarZone;
    // Drafts have no publication date (`0000-00-00 00:00:00`): no CREATED then.
    const modified = utc(e.modified_utc);
    const created = utc(e.date_utc);
    const location = venueAddress(e.venue);
    const organizer = (e.organizer ?? []).find((o) => o.organizer);
    let start: DateTime;
    let end: DateTime;
    if (e.all_day) {
      // Dates as the REST API shows them; DTEND is the day after the last day (RFC 5545 §3.6.1).
      start = DateTime.fromISO(e.start_date.slice(0, 10), { zone });
      end = DateTime.fromISO(e.end_date.slice(0, 10), { zone }).plus({ days: 1 });
    } else {
      start = utc(e.utc_start_date).setZone(zone);
      end = utc(e.utc_end_date).setZone(zone);
    }
    cal.createEvent({
      id: `cal-events-${e.id}@${opts.host}`,
      start,
      end,
      allDay: e.all_day,
      timezone: zone,
      summary: htmlToText(e.title),
      description: htmlToText(e.description || e.excerpt || ''),
      url: e.url,
      location: location ? { title: htmlToText(location.title), address: location.address || undefined } : undefined,
      organizer: organizer ? { name: htmlToText(organizer.organizer as string), email: organizer.email || 'noreply@invalid' } : undefined,
      categories: [...(e.categories ?? []), ...(e.tags ?? [])].map((c) => ({ name: htmlToText(c.name) })),
      // SEQUENCE grows with every modification: seconds since the record was created.
      sequence: modified.isValid && created.isValid ? Math.max(0, Math.floor(modified.diff(created, 'seconds').seconds)) : 0,
      lastModified: modified.isValid ? modified : null,
      created: created.isValid ? created : null,
      stamp: modified.isValid ? modified : DateTime.utc().startOf('second'),
      status: ICalEventStatus.CONFIRMED,
    });
  }
  return cal.toString();
}

/** A strong validator of a feed's text. */
export function etagOf(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}
