/**
 * An independent reading of an iCalendar text: ical.js's own expansion (`ICAL.Event` with its
 * exceptions, `RecurExpansion`, `getOccurrenceDetails`) over a window, each occurrence as instants
 * (or dates), summary, location and description. It shares no code with src/transfer/ics-source.ts.
 *
 * Where ical.js reads less than RFC 5545 says, and where cal-events' documented reading of sloppy
 * input differs, the difference is an explicit option here (`Rules`), named by the test that uses it.
 * Always: the recurrence set is a set (ical.js gives an occurrence twice when two rules, or a rule
 * and an RDATE, give it); DTSTART is its first instance also without RRULE (RFC 5545 §3.8.2.4;
 * ical.js leaves it out when only RDATEs follow); and the instant of a TZID that names an IANA zone
 * is read with the IANA database rather than its VTIMEZONE (which may cover some years only:
 * fablab_cottbus.ics's starts in 2018).
 */
import ICAL from 'ical.js';
import { DateTime } from 'luxon';

export interface Occurrence {
  start: string;
  end: string;
  allDay: boolean;
  summary: string;
  location: string;
  description: string;
}

/** Readings of sloppy input that cal-events documents (docs/moving-from-other-calendars.md); each is off unless asked. */
export interface Rules {
  /** DTEND before DTSTART: swapped (ical.js keeps the end before the start). */
  swapReversed?: boolean;
  /** An override whose RECURRENCE-ID the set does not give is an extra occurrence (ical.js drops it). */
  extraOverrides?: boolean;
  /** An RDATE period ends at its own end (RFC 5545 §3.8.5.2; ical.js gives it the series' duration). */
  periodEnds?: boolean;
  /** A date-time RECURRENCE-ID of an all-day series (Outlook) names that day (ical.js matches none). */
  ridDates?: boolean;
  /**
   * An end of the other type than the start is read as the start's: a date-time DTEND of an
   * all-day event ends on its day (an end not after the start: one day later), a date DTEND of a
   * timed one at 00:00 (ical.js keeps each as written).
   */
  sloppyEnds?: boolean;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const wallOf = (t: ICAL.Time) => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}T${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;

/** An IANA zone for a TZID ical.js has no definition of: the name, or its trailing IANA segments. */
function ianaZone(tzid: string | null | undefined): string | null {
  if (!tzid) return null;
  const segments = tzid.split('/').filter(Boolean);
  for (const n of [3, 2, 1]) {
    const name = segments.slice(-n).join('/');
    if (segments.length >= n && DateTime.now().setZone(name).isValid && (n > 1 || /^(UTC|GMT)$/i.test(name))) return name;
  }
  return null;
}

/**
 * A DATE as `YYYY-MM-DD`, a DATE-TIME as its UTC instant (ISO): a TZID naming an IANA zone by the
 * IANA database, another by its VTIMEZONE (ical.js), floating times in the calendar's zone.
 */
function instant(t: ICAL.Time, tzid: string | null, calendarZone: string): string {
  if (t.isDate) return `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)}`;
  let dt: DateTime;
  const iana = tzid && DateTime.now().setZone(tzid).isValid ? tzid : null;
  if (t.zone === ICAL.Timezone.utcTimezone) dt = DateTime.fromISO(wallOf(t), { zone: 'utc' });
  else if (iana) dt = DateTime.fromISO(wallOf(t), { zone: iana });
  else if (t.zone && t.zone !== ICAL.Timezone.localTimezone && t.zone.tzid !== 'floating') dt = DateTime.fromSeconds(t.toUnixTime(), { zone: 'utc' });
  else dt = DateTime.fromISO(wallOf(t), { zone: ianaZone(tzid) ?? calendarZone });
  return dt.toUTC().toISO({ suppressMilliseconds: true })!;
}

const textOf = (v: ICAL.Component, name: string) => String(v.getFirstPropertyValue(name) ?? '');
const tzidOf = (v: ICAL.Component, name: string) => (v.getFirstProperty(name)?.getParameter('tzid') as string | undefined) ?? null;

function details(v: ICAL.Component): Pick<Occurrence, 'summary' | 'location' | 'description'> {
  const html = v.getAllProperties('x-alt-desc').find((p) => String(p.getParameter('fmttype') ?? '').toLowerCase() === 'text/html');
  return {
    summary: textOf(v, 'summary').trim(),
    location: textOf(v, 'location').trim(),
    description: html ? `html:${String(html.getFirstValue())}` : textOf(v, 'description'),
  };
}

/** Occurrences starting in [from, to), in start order. `calendarZone`: floating times (X-WR-TIMEZONE wins). */
export function referenceOccurrences(text: string, window: { from: Date; to: Date }, siteZone: string, rules: Rules = {}): Occurrence[] {
  const parsed = ICAL.parse(text) as unknown[];
  // A VEVENT outside any VCALENDAR is read as if in one.
  const roots = (typeof parsed[0] === 'string' ? [parsed] : parsed)
    .map((j) => new ICAL.Component(j as never))
    .map((c) => {
      if (c.name === 'vcalendar') return c;
      const calendar = new ICAL.Component('vcalendar');
      calendar.addSubcomponent(c);
      return calendar;
    });
  ICAL.TimezoneService.reset();
  for (const root of roots) for (const vtz of root.getAllSubcomponents('vtimezone')) if (vtz.getFirstPropertyValue('tzid')) ICAL.TimezoneService.register(vtz);
  const out: Occurrence[] = [];
  const inWindow = (start: string) => {
    const ms = Date.parse(start.length === 10 ? `${start}T00:00:00Z` : start);
    return ms >= window.from.getTime() && ms < window.to.getTime();
  };
  for (const root of roots) {
    const zone = textOf(root, 'x-wr-timezone').trim();
    const calendarZone = zone && DateTime.now().setZone(zone).isValid ? zone : siteZone;
    const groups = new Map<string, { masters: ICAL.Component[]; overrides: ICAL.Component[] }>();
    root.getAllSubcomponents('vevent').forEach((v, i) => {
      const uid = textOf(v, 'uid') || `#${i}`;
      const g = groups.get(uid) ?? { masters: [], overrides: [] };
      (v.hasProperty('recurrence-id') ? g.overrides : g.masters).push(v);
      groups.set(uid, g);
    });
    const push = (v: ICAL.Component, start: ICAL.Time, end: ICAL.Time, item: ICAL.Component) => {
      if (textOf(item, 'status').toUpperCase() === 'CANCELLED') return;
      let s = instant(start, tzidOf(item, 'dtstart') ?? tzidOf(v, 'dtstart'), calendarZone);
      let e = instant(end, tzidOf(item, 'dtend') ?? tzidOf(item, 'dtstart') ?? tzidOf(v, 'dtstart'), calendarZone);
      if (rules.swapReversed && Date.parse(e) < Date.parse(s)) [s, e] = [e, s];
      if (rules.sloppyEnds && start.isDate) {
        e = e.slice(0, 10);
        if (e <= s) e = new Date(Date.parse(`${s}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
      } else if (rules.sloppyEnds && end.isDate) {
        e = DateTime.fromISO(`${e}T00:00:00`, { zone: ianaZone(tzidOf(item, 'dtstart')) ?? calendarZone }).toUTC().toISO({ suppressMilliseconds: true })!;
      }
      if (inWindow(s)) out.push({ start: s, end: e, allDay: start.isDate, ...details(item) });
    };
    for (const [, g] of groups) {
      const bySequence = (list: ICAL.Component[]) => list.reduce((a, b) => (Number(b.getFirstPropertyValue('sequence') ?? 0) >= Number(a.getFirstPropertyValue('sequence') ?? 0) ? b : a));
      const byRid = new Map<string, ICAL.Component[]>();
      for (const o of g.overrides) byRid.set(String(o.getFirstPropertyValue('recurrence-id')), [...(byRid.get(String(o.getFirstPropertyValue('recurrence-id'))) ?? []), o]);
      const overrides = [...byRid.values()].map(bySequence);
      if (!g.masters.length) {
        // No series in the feed: each override stands alone.
        for (const o of overrides) {
          const e = new ICAL.Event(o);
          push(o, e.startDate, e.endDate, o);
        }
        continue;
      }
      const master = bySequence(g.masters);
      if (textOf(master, 'status').toUpperCase() === 'CANCELLED') continue;
      if (rules.ridDates && (master.getFirstPropertyValue('dtstart') as ICAL.Time | null)?.isDate) {
        for (const o of overrides) {
          const rid = o.getFirstProperty('recurrence-id')!;
          const t = rid.getFirstValue() as ICAL.Time;
          if (t.isDate) continue;
          const day = ICAL.Time.fromData({ year: t.year, month: t.month, day: t.day, isDate: true });
          o.removeProperty(rid);
          o.addPropertyWithValue('recurrence-id', day);
        }
      }
      // ical.js's expansion cannot take RDATE periods (its iterator fails on them): their starts,
      // and their ends kept aside.
      const periods = new Map<string, ICAL.Period>();
      for (const p of master.getAllProperties('rdate')) {
        const values = p.getValues();
        if (!values.some((v) => v instanceof ICAL.Period)) continue;
        for (const v of values) if (v instanceof ICAL.Period) periods.set(v.start.toString(), v);
        const plain = new ICAL.Property('rdate', master);
        const tzid = p.getParameter('tzid');
        if (tzid) plain.setParameter('tzid', tzid);
        plain.setValues(values.map((v) => (v instanceof ICAL.Period ? v.start : v)) as ICAL.Time[]);
        master.removeProperty(p);
        master.addProperty(plain);
      }
      const event = new ICAL.Event(master, { strictExceptions: false, exceptions: overrides.map((o) => new ICAL.Event(o)) });
      if (!event.isRecurring()) {
        push(master, event.startDate, event.endDate, master);
        continue;
      }
      const seen = new Set<string>();
      const it = event.iterator();
      // Without RRULE, ical.js yields the RDATEs only: DTSTART comes first (unless excluded).
      const dtstart = event.startDate;
      const ruleless = !master.hasProperty('rrule');
      const dtstartExcluded = master.getAllProperties('exdate').some((p) => p.getValues().some((x) => (x as ICAL.Time).compare(dtstart) === 0));
      if (ruleless && !dtstartExcluded) {
        seen.add(dtstart.toString());
        const d = event.getOccurrenceDetails(dtstart);
        push(master, d.startDate, d.endDate, d.item.component);
      }
      const past = (t: ICAL.Time) => Date.parse(t.isDate ? `${t.toString()}T00:00:00Z` : instant(t, tzidOf(master, 'dtstart'), calendarZone)) >= window.to.getTime();
      for (let next = it.next(); next && !past(next); next = it.next()) {
        if (seen.has(next.toString())) continue;
        seen.add(next.toString());
        const d = event.getOccurrenceDetails(next);
        let end = d.endDate;
        const period = periods.get(next.toString());
        if (rules.periodEnds && period && d.item === event) end = period.end ?? period.start.clone();
        if (rules.periodEnds && period && d.item === event && !period.end) end.addDuration(period.duration);
        push(master, d.startDate, end, d.item.component);
      }
      if (rules.extraOverrides) {
        for (const o of overrides) {
          const rid = (o.getFirstPropertyValue('recurrence-id') as ICAL.Time).toString();
          const excluded = master.getAllProperties('exdate').some((p) => p.getValues().some((x) => String(x) === rid));
          if (seen.has(rid) || excluded) continue;
          const e = new ICAL.Event(o);
          push(o, e.startDate, e.endDate, o);
        }
      }
    }
  }
  return out.sort((a, b) => (a.start < b.start ? -1 : a.start > b.start ? 1 : a.summary < b.summary ? -1 : 1));
}
