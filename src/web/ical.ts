/**
 * iCalendar (RFC 5545) feeds built with ical-generator from the REST API's own event records, so
 * every instant is the one `utc_start_date`/`utc_end_date` states. Timed events carry `TZID` with a
 * `VTIMEZONE` per zone used (@touch4it/ical-timezones); zones without a definition fall back to
 * the calendar's zone (same instant). All-day events are `VALUE=DATE` with an exclusive end. Texts
 * are written as stored (`texts`), not as the REST API renders them: the plugin's iCal export
 * writes the raw title, and a calendar client shows `--` and `'` as typed, not `—` and `’`.
 */
import { createHash } from 'node:crypto';
import ical, { ICalEventStatus, type ICalCalendar } from 'ical-generator';
import { getVtimezoneComponent } from '@touch4it/ical-timezones';
import { DateTime } from 'luxon';
import { htmlToText } from '../domain/text.ts';
import { icalRecurrenceLines } from '../domain/recurrence.ts';
import type { FeedRecurrence, FeedSeries, FeedTexts } from './feed-series.ts';

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
  /** The description of a protected event the visitor has not opened (TEC's "Content is protected.", translated). */
  protectedText: string;
}

const hasZone = (zone: string) => Boolean(zone && getVtimezoneComponent(zone));

/**
 * The feed. With `recurrence` (src/web/feed-series.ts), occurrences of a series are not VEVENTs of
 * their own: the series is one VEVENT (UID of the series, DTSTART = the rule's start, RRULE,
 * EXDATE, RDATE, fields from a listed occurrence or `masters`), and each override (an occurrence
 * edited on its own) a VEVENT with the series' UID and its RECURRENCE-ID, all with TZID.
 */
export function buildCalendar(
  events: readonly RestEvent[],
  opts: FeedOptions,
  recurrence?: FeedRecurrence,
  masters: ReadonlyMap<number, RestEvent> = new Map(),
): string {
  const calendarZone = hasZone(opts.siteTimezone) ? opts.siteTimezone : 'UTC';
  const cal = ical({
    name: opts.name,
    prodId: { company: 'cal-events', product: 'cal-events', language: 'EN' },
    url: opts.url,
    // No calendar zone: DTSTAMP, CREATED and LAST-MODIFIED stay UTC; each event's zone gets its VTIMEZONE.
    timezone: { name: null, generator: getVtimezoneComponent },
  });
  const zoneOf = (e: { timezone: string }) => (hasZone(e.timezone) ? e.timezone : calendarZone);
  const add = (e: RestEvent, zone: string, over: VeventOverrides) => addEvent(cal, e, zone, over, recurrence?.texts.get(e.id), opts.protectedText);
  const uid = (id: number) => `cal-events-${id}@${opts.host}`;
  const done = new Set<number>();
  const master = (series: FeedSeries, source: RestEvent) => {
    done.add(series.id);
    const zone = zoneOf(series);
    let start: DateTime;
    let end: DateTime;
    if (series.allDay) {
      const days = DateTime.fromISO(series.endDate.slice(0, 10)).diff(DateTime.fromISO(series.startDate.slice(0, 10)), 'days').days;
      start = DateTime.fromISO(series.start.slice(0, 10), { zone });
      end = start.plus({ days: days + 1 });
    } else {
      // Every occurrence lasts the series row's wall-clock length (src/services/recurrence.ts).
      const length = DateTime.fromSQL(series.endDate, { zone: 'utc' }).diff(DateTime.fromSQL(series.startDate, { zone: 'utc' }));
      const wallEnd = DateTime.fromSQL(series.start, { zone: 'utc' }).plus(length).toFormat('yyyy-MM-dd HH:mm:ss');
      start = DateTime.fromSQL(series.start, { zone: series.timezone }).setZone(zone);
      end = DateTime.fromSQL(wallEnd, { zone: series.timezone }).setZone(zone);
    }
    add(source, zone, { id: uid(series.id), start, end, allDay: series.allDay, repeating: icalRecurrenceLines(series, zone) });
  };
  const overridesOnly = new Map<number, RestEvent>();
  for (const e of events) {
    const member = recurrence?.members.get(e.id);
    const series = member && recurrence!.series.get(member.seriesId);
    if (!member || !series) {
      add(e, zoneOf(e), { id: uid(e.id) });
    } else if (member.overridden && member.seriesId !== e.id) {
      // RECURRENCE-ID: the slot the rule gave it, in the series' zone (written in the VEVENT's TZID);
      // of an all-day series, a DATE as its DTSTART (RFC 5545 §3.8.4.4), which ical-generator does
      // not write: the line goes out as a raw recurrence line.
      if (series.allDay) {
        add(e, zoneOf(e), { id: uid(series.id), repeating: `RECURRENCE-ID;VALUE=DATE:${member.recurrenceId.slice(0, 10).replace(/-/g, '')}` });
      } else {
        const slot = DateTime.fromSQL(member.recurrenceId, { zone: series.timezone }).setZone(zoneOf(series));
        add(e, zoneOf(e), { id: uid(series.id), recurrenceId: slot });
      }
      if (!overridesOnly.has(series.id)) overridesOnly.set(series.id, e);
    } else if (!done.has(series.id)) {
      master(series, masters.get(series.id) ?? e);
    }
  }
  // Series listed through overrides only: their VEVENT from the series' own record.
  for (const [id, e] of overridesOnly) if (!done.has(id)) master(recurrence!.series.get(id)!, masters.get(id) ?? e);
  // ical-generator prefixes a one-line recurrence with `RRULE:`: a series of RDATEs only has no
  // RRULE, and an all-day override's RECURRENCE-ID goes out that way (above).
  return cal.toString().replace(/^RRULE:(?=(RDATE|EXDATE|RECURRENCE-ID)[;:])/gm, '');
}

interface VeventOverrides {
  id: string;
  start?: DateTime;
  end?: DateTime;
  allDay?: boolean;
  recurrenceId?: DateTime;
  repeating?: string;
}

function addEvent(cal: ICalCalendar, e: RestEvent, zone: string, over: VeventOverrides, texts: FeedTexts | undefined, protectedText: string) {
  // Drafts have no publication date (`0000-00-00 00:00:00`): no CREATED then.
  const modified = utc(e.modified_utc);
  const created = utc(e.date_utc);
  // A protected event the visitor has not opened comes redacted from the REST list; TEC 6.1.3+'s
  // feed keeps its time, title, place, organizer (by e-mail) and categories, and says the content
  // is protected (its recorded VEVENT).
  const shut = texts?.locked ? texts.protected : null;
  const location = shut ? (texts!.venue === null ? null : { title: texts!.venue, address: shut.address }) : venueAddress(e.venue);
  const organizer = shut
    ? texts!.organizer !== null && shut.organizerEmail
      ? { organizer: texts!.organizer, email: shut.organizerEmail }
      : undefined
    : (e.organizer ?? []).find((o) => o.organizer);
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
    id: over.id,
    start: over.start ?? start,
    end: over.end ?? end,
    allDay: over.allDay ?? e.all_day,
    timezone: zone,
    recurrenceId: over.recurrenceId,
    repeating: over.repeating,
    summary: htmlToText(texts?.title ?? e.title),
    description: shut ? protectedText : htmlToText((e.description && texts?.description) || e.description || e.excerpt || ''),
    url: e.url,
    location: location ? { title: htmlToText(texts?.venue ?? location.title), address: location.address || undefined } : undefined,
    organizer: organizer ? { name: htmlToText(texts?.organizer ?? (organizer.organizer as string)), email: organizer.email || 'noreply@invalid' } : undefined,
    categories: shut ? shut.categories.map((name) => ({ name: htmlToText(name) })) : [...(e.categories ?? []), ...(e.tags ?? [])].map((c) => ({ name: htmlToText(c.name) })),
    // SEQUENCE grows with every modification: seconds since the record was created.
    sequence: modified.isValid && created.isValid ? Math.max(0, Math.floor(modified.diff(created, 'seconds').seconds)) : 0,
    lastModified: modified.isValid ? modified : null,
    created: created.isValid ? created : null,
    stamp: modified.isValid ? modified : DateTime.utc().startOf('second'),
    status: ICalEventStatus.CONFIRMED,
  });
}

/** A strong validator of a feed's text. */
export function etagOf(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}
