/**
 * An iCalendar (RFC 5545) feed read for `cal import --ics`: fetched (http, https, webcal) or read
 * from a file, parsed with ical.js, and turned into one entry per UID — the event (or series, with
 * its RRULE/EXDATE/RDATE), its overrides (RECURRENCE-ID) and what links to it (LOCATION, ORGANIZER,
 * CATEGORIES) — as event-local wall clocks in an IANA zone, the way the event services take them.
 *
 * Zones: a TZID that is an IANA name is kept; Mozilla-style prefixed names (`/mozilla.org/…/Europe/Berlin`)
 * lose their prefix; Windows names (Outlook's `W. Europe Standard Time`) are mapped by windows-iana;
 * any other zone with a VTIMEZONE gets the IANA zone whose offsets match the VTIMEZONE's around the
 * event (the calendar's zone first), else its instants are kept in the calendar's zone. Floating
 * times and all-day dates belong to the calendar's zone: `X-WR-TIMEZONE`, else the site's zone.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ICAL from 'ical.js';
import { findIana, WINDOWS_TO_IANA_MAP } from 'windows-iana';
import { resolveTimezone } from '../domain/timezone.ts';
import { localToUtc, utcToLocal, wallClockToDate, dateToWallClock } from '../domain/wall-clock.ts';
import { Source, type SourceOptions } from './source.ts';

/** Fields of one VEVENT as the event services take them (EventInput, without links). */
export interface IcsFields {
  title: string;
  description: string;
  startDate: string;
  endDate: string;
  allDay: boolean;
  timezone: string;
  website: string | null;
  status: 'publish' | 'private';
}

export interface IcsEntry {
  uid: string;
  cancelled: boolean;
  fields: IcsFields;
  venue: { name: string; address: string; latitude: number | null; longitude: number | null } | null;
  organizer: { name: string; email: string } | null;
  categories: string[];
  recurrence: { rule: string; exdates: string[]; rdates: string[] } | null;
  /** Occurrences edited on their own: the slot (series-local wall clock, or `YYYY-MM-DD` all-day) and their fields. */
  overrides: { recurrenceId: string; fields: IcsFields }[];
}

export interface IcsFeed {
  entries: IcsEntry[];
  /** VEVENTs that could not be read, with why. */
  failures: { uid: string | null; reason: string }[];
}

export class IcsFeedError extends Error {}

/** `webcal://` is the same feed over https (http for a local host). */
export function feedUrl(location: string): URL | null {
  if (!/^(https?|webcal):\/\//i.test(location)) return null;
  const url = new URL(location);
  if (url.protocol === 'webcal:') {
    const local = ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
    return new URL(`${local ? 'http' : 'https'}:${url.href.slice('webcal:'.length)}`);
  }
  return url;
}

/** The feed's identity in the mapping table: its URL, or the file's absolute path. */
export function feedKey(location: string): string {
  const url = feedUrl(location);
  return `ics:${url ? url.href : `file:${path.resolve(location)}`}`;
}

/** The feed's text: fetched with the import's retries and timeouts (src/transfer/source.ts), or read from a file. */
export async function loadFeedText(location: string, source: Partial<SourceOptions> = {}): Promise<string> {
  const url = feedUrl(location);
  if (!url) {
    try {
      return await readFile(location, 'utf8');
    } catch (error) {
      throw new IcsFeedError(`cannot read ${location}: ${(error as Error).message}`);
    }
  }
  const client = new Source({ ...source, root: url.origin });
  const res = await client.text(url.href, 'text/calendar, text/plain;q=0.5, */*;q=0.1');
  if (res.status !== 200) throw new IcsFeedError(`${url.href}: answered ${res.status}`);
  return res.body;
}

type Wall = { wall: string; zone: string; date: boolean };

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const fieldsOf = (t: ICAL.Time) => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
const ianaOf = (name: string | null | undefined) => {
  const tz = resolveTimezone(name ?? '');
  return tz && (tz.kind === 'iana' || tz.kind === 'utc') ? tz.name : null;
};
/**
 * Zones a VTIMEZONE's offsets are matched against: each Windows zone's main IANA zone first (the
 * one a person there would name: America/New_York before America/Detroit), then every other.
 */
const candidateZones = () => [
  ...WINDOWS_TO_IANA_MAP.filter((z) => z.territory === '001').map((z) => z.iana[0]),
  ...Intl.supportedValuesOf('timeZone'),
];

/** Reads a feed's VEVENTs; a text that is not an iCalendar feed is an IcsFeedError. */
export function parseFeed(text: string, siteTimezone: string): IcsFeed {
  let root: ICAL.Component;
  try {
    const parsed = ICAL.parse(text);
    if (!Array.isArray(parsed) || typeof parsed[0] !== 'string') throw new Error(text.trim() ? 'several top-level components' : 'empty');
    root = new ICAL.Component(parsed);
  } catch (error) {
    throw new IcsFeedError(`not an iCalendar feed: ${(error as Error).message}`);
  }
  if (root.name !== 'vcalendar') throw new IcsFeedError(`not an iCalendar feed: it holds a ${root.name.toUpperCase()}, not a VCALENDAR`);
  const calendarZone = ianaOf(String(root.getFirstPropertyValue('x-wr-timezone') ?? '').trim()) ?? siteTimezone;
  const zones = new Zones(root, calendarZone);
  const failures: IcsFeed['failures'] = [];
  const byUid = new Map<string, { master?: ICAL.Component; overrides: ICAL.Component[] }>();
  for (const vevent of root.getAllSubcomponents('vevent')) {
    const uid = String(vevent.getFirstPropertyValue('uid') ?? '').trim();
    if (!uid) {
      failures.push({ uid: null, reason: `a VEVENT without UID (${String(vevent.getFirstPropertyValue('summary') ?? 'no SUMMARY')})` });
      continue;
    }
    const group = byUid.get(uid) ?? { overrides: [] };
    if (vevent.hasProperty('recurrence-id')) group.overrides.push(vevent);
    else group.master = vevent;
    byUid.set(uid, group);
  }
  const entries: IcsEntry[] = [];
  for (const [uid, group] of byUid) {
    try {
      if (!group.master) throw new IcsFeedError('only overrides (RECURRENCE-ID), no VEVENT of the event itself');
      entries.push(readEntry(uid, group.master, group.overrides, zones));
    } catch (error) {
      failures.push({ uid, reason: (error as Error).message.split('\n')[0] ?? '' });
    }
  }
  return { entries, failures };
}

function readEntry(uid: string, master: ICAL.Component, overrides: ICAL.Component[], zones: Zones): IcsEntry {
  const fields = readFields(master, zones, null);
  const inZone = (w: Wall) => (fields.allDay || w.date ? w.wall.slice(0, 10) : zones.convert(w, fields.timezone));
  const dates = (name: string) =>
    master.getAllProperties(name).flatMap((p) =>
      p.getValues().map((v) => inZone(zones.wall(v instanceof ICAL.Period ? v.start : (v as ICAL.Time), p.getParameter('tzid')))),
    );
  const rrule = master.getAllProperties('rrule');
  if (rrule.length > 1) throw new IcsFeedError('several RRULEs in one VEVENT are not supported');
  const cancelled: string[] = [];
  const edited: IcsEntry['overrides'] = [];
  for (const o of overrides) {
    const prop = o.getFirstProperty('recurrence-id')!;
    const slot = inZone(zones.wall(prop.getFirstValue() as ICAL.Time, prop.getParameter('tzid')));
    if (String(o.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED') cancelled.push(slot);
    else edited.push({ recurrenceId: slot, fields: readFields(o, zones, fields.timezone) });
  }
  const [ruleProperty] = rrule;
  const recurrence = ruleProperty ? { rule: String(ruleProperty.getFirstValue()), exdates: [...dates('exdate'), ...cancelled], rdates: dates('rdate') } : null;
  const location = String(master.getFirstPropertyValue('location') ?? '').trim();
  const [place, ...addressLines] = location.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const geo = master.getFirstPropertyValue('geo') as [number, number] | null;
  const organizer = master.getFirstProperty('organizer');
  const address = String(organizer?.getFirstValue() ?? '').replace(/^mailto:/i, '').trim();
  // cal-events writes `noreply@invalid` for an organizer without e-mail (RFC 2606's reserved TLD).
  const email = /^[^@\s]+@[^@\s]+$/.test(address) && !/\.?invalid$/i.test(address) ? address : '';
  const name = String(organizer?.getParameter('cn') ?? '').trim() || email;
  return {
    uid,
    cancelled: String(master.getFirstPropertyValue('status') ?? '').toUpperCase() === 'CANCELLED',
    fields,
    venue: place ? { name: place, address: addressLines.join(', '), latitude: geo?.[0] ?? null, longitude: geo?.[1] ?? null } : null,
    organizer: name ? { name, email } : null,
    categories: [...new Set(master.getAllProperties('categories').flatMap((p) => p.getValues().map((v) => String(v).trim())).filter(Boolean))],
    recurrence: recurrence && { ...recurrence, exdates: [...new Set(recurrence.exdates)].sort(), rdates: [...new Set(recurrence.rdates)].sort() },
    overrides: edited,
  };
}

/** The fields of a VEVENT; `zone`: the series' zone an override's dates are written in. */
function readFields(v: ICAL.Component, zones: Zones, zone: string | null): IcsFields {
  const dtstart = v.getFirstProperty('dtstart');
  if (!dtstart) throw new IcsFeedError('no DTSTART');
  const start = zones.wall(dtstart.getFirstValue() as ICAL.Time, dtstart.getParameter('tzid'));
  const timezone = zone ?? start.zone;
  const startWall = start.date ? start.wall : zones.convert(start, timezone);
  const dtend = v.getFirstProperty('dtend');
  const duration = v.getFirstPropertyValue('duration') as ICAL.Duration | null;
  let endWall: string;
  if (dtend) {
    const end = zones.wall(dtend.getFirstValue() as ICAL.Time, dtend.getParameter('tzid'));
    endWall = start.date ? end.wall : zones.convert(end, timezone);
  } else if (duration) {
    endWall = dateToWallClock(new Date(wallClockToDate(startWall).getTime() + duration.toSeconds() * 1000));
  } else {
    // No DTEND nor DURATION: a day for a date, an instant for a date-time (RFC 5545 §3.6.1).
    endWall = start.date ? dateToWallClock(new Date(wallClockToDate(startWall).getTime() + 86_400_000)) : startWall;
  }
  if (start.date) {
    // DTEND of a date is exclusive: the event's last day is the day before.
    const last = new Date(wallClockToDate(endWall.slice(0, 10) + ' 00:00:00').getTime() - 86_400_000);
    endWall = dateToWallClock(last < wallClockToDate(startWall) ? wallClockToDate(startWall) : last);
  }
  if (endWall < startWall) throw new IcsFeedError('DTEND is before DTSTART');
  const html = v.getAllProperties('x-alt-desc').find((p) => String(p.getParameter('fmttype') ?? '').toLowerCase() === 'text/html');
  const text = String(v.getFirstPropertyValue('description') ?? '');
  const url = String(v.getFirstPropertyValue('url') ?? '').trim();
  const klass = String(v.getFirstPropertyValue('class') ?? '').toUpperCase();
  return {
    title: String(v.getFirstPropertyValue('summary') ?? '').trim() || '(no title)',
    description: html ? String(html.getFirstValue()) : escapeHtml(text),
    startDate: start.date ? startWall.slice(0, 10) : startWall,
    endDate: start.date ? endWall.slice(0, 10) : endWall,
    allDay: start.date,
    timezone,
    website: /^https?:\/\//i.test(url) ? url : null,
    status: klass === 'PRIVATE' || klass === 'CONFIDENTIAL' ? 'private' : 'publish',
  };
}

const escapeHtml = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The feed's zones: TZIDs resolved once to an IANA name, or kept as a VTIMEZONE definition. */
class Zones {
  private readonly resolved = new Map<string, { iana: string } | { vtimezone: ICAL.Timezone }>();
  private readonly definitions = new Map<string, ICAL.Component>();

  constructor(
    root: ICAL.Component,
    private readonly calendarZone: string,
  ) {
    for (const vtz of root.getAllSubcomponents('vtimezone')) {
      const tzid = String(vtz.getFirstPropertyValue('tzid') ?? '');
      if (tzid) this.definitions.set(tzid, vtz);
    }
  }

  /** A DATE / DATE-TIME value with its TZID as a wall clock and the zone it is in. */
  wall(t: ICAL.Time, tzid: string | string[] | undefined | null): Wall {
    if (t.isDate) return { wall: `${fieldsOf(t).slice(0, 10)} 00:00:00`, zone: this.calendarZone, date: true };
    if (t.zone === ICAL.Timezone.utcTimezone) return { wall: utcToLocal(fieldsOf(t), this.calendarZone), zone: this.calendarZone, date: false };
    const id = Array.isArray(tzid) ? tzid[0] : tzid;
    if (!id) return { wall: fieldsOf(t), zone: this.calendarZone, date: false };
    const zone = this.resolve(id, t);
    if ('iana' in zone) return { wall: fieldsOf(t), zone: zone.iana, date: false };
    // A VTIMEZONE no IANA zone matches: the instant it gives, in the calendar's zone.
    const utc = new Date(wallClockToDate(fieldsOf(t)).getTime() - zone.vtimezone.utcOffset(t) * 1000);
    return { wall: utcToLocal(utc, this.calendarZone), zone: this.calendarZone, date: false };
  }

  /** A wall clock in another zone (same instant). */
  convert(w: Wall, zone: string): string {
    return w.zone === zone ? w.wall : utcToLocal(localToUtc(w.wall, w.zone), zone);
  }

  private resolve(tzid: string, at: ICAL.Time) {
    let found = this.resolved.get(tzid);
    if (!found) {
      const iana = ianaOf(tzid) ?? ianaOf(/([A-Za-z_]+\/[A-Za-z_+-]+(?:\/[A-Za-z_+-]+)?)$/.exec(tzid)?.[1]) ?? ianaOf(findIana(tzid)[0]) ?? this.matchDefinition(tzid, at);
      if (iana) found = { iana };
      else if (this.definitions.has(tzid)) found = { vtimezone: new ICAL.Timezone({ component: this.definitions.get(tzid)!, tzid }) };
      else throw new IcsFeedError(`unknown time zone "${tzid}" (not an IANA or Windows name, and no VTIMEZONE defines it)`);
      this.resolved.set(tzid, found);
    }
    return found;
  }

  /** The IANA zone whose UTC offsets equal the VTIMEZONE's twice a month over the year of `at` and the next. */
  private matchDefinition(tzid: string, at: ICAL.Time): string | null {
    const component = this.definitions.get(tzid);
    if (!component) return null;
    const tz = new ICAL.Timezone({ component, tzid });
    const samples: { wall: string; offset: number }[] = [];
    for (let m = 0; m < 24; m++) {
      for (const day of [1, 15]) {
        const t = ICAL.Time.fromData({ year: at.year + Math.floor(m / 12), month: (m % 12) + 1, day, hour: 12, minute: 0, second: 0, isDate: false });
        samples.push({ wall: fieldsOf(t), offset: tz.utcOffset(t) });
      }
    }
    const fits = (zone: string) => samples.every((s) => wallClockToDate(s.wall).getTime() - wallClockToDate(localToUtc(s.wall, zone)).getTime() === s.offset * 1000);
    for (const zone of [this.calendarZone, ...candidateZones()]) if (ianaOf(zone) && fits(zone)) return zone;
    return null;
  }
}
