/**
 * An iCalendar (RFC 5545) feed read for `cal import --ics`: fetched (http, https, webcal) or read
 * from a file, parsed with ical.js, and turned into one entry per UID — the event (or series, with
 * its RRULEs/EXDATE/RDATE), its overrides (RECURRENCE-ID) and what links to it (LOCATION, ORGANIZER,
 * CATEGORIES) — as event-local wall clocks in an IANA zone, the way the event services take them.
 *
 * Real feeds are sloppy, and one bad line must not cost a whole calendar: the text is read line by
 * line (ical.js parses each property), and what cannot be read is skipped or repaired and listed
 * (`repairs`), as Google Calendar, Thunderbird and python-recurring-ical-events do: several
 * VCALENDARs in one file, text outside them, blank lines inside folded ones, components never
 * ended, lines without a value, white space inside an RRULE, dates written without `VALUE=DATE`,
 * events without UID (a stable one is derived from the content, so a re-import finds the same event),
 * DTEND before DTSTART (swapped), overrides whose series is not in the feed (events of their own),
 * RANGE=THISANDFUTURE (the series is split there), RDATE periods (their own end, as an override).
 *
 * Zones: a TZID that is an IANA name is kept; globally unique names (`/mozilla.org/…/Europe/Berlin`,
 * `/freeassociation.sourceforge.net/Tzfile/Europe/Berlin`) are read by their trailing IANA name;
 * Windows names (Outlook's `W. Europe Standard Time`) are mapped by windows-iana; any other zone with
 * a VTIMEZONE gets the IANA zone whose offsets match the VTIMEZONE's around the event (the calendar's
 * zone first), else its instants are kept in the calendar's zone. Floating times and all-day dates
 * belong to the calendar's zone: `X-WR-TIMEZONE`, else the site's zone.
 */
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import ICAL from 'ical.js';
import { findIana, WINDOWS_TO_IANA_MAP } from 'windows-iana';
import { expandSeries, parseSeriesRule, splitRules } from '../domain/recurrence.ts';
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

export interface IcsVenue {
  name: string;
  address: string;
  latitude: number | null;
  longitude: number | null;
}

export interface IcsOrganizer {
  name: string;
  email: string;
}

/** What a VEVENT links to and says beside its fields. */
interface IcsLinks {
  venue: IcsVenue | null;
  organizer: IcsOrganizer | null;
}

/** An occurrence edited on its own: its slot (series-local wall clock, or `YYYY-MM-DD` all-day), fields and links. */
export interface IcsOverride extends IcsLinks {
  recurrenceId: string;
  fields: IcsFields;
}

export interface IcsEntry extends IcsLinks {
  uid: string;
  cancelled: boolean;
  fields: IcsFields;
  categories: string[];
  /** RRULEs (none: RDATEs only), EXDATEs and RDATEs, event-local. */
  recurrence: { rules: string[]; exdates: string[]; rdates: string[] } | null;
  overrides: IcsOverride[];
}

export interface IcsFeed {
  entries: IcsEntry[];
  /** VEVENTs that could not be read, with why. */
  failures: { uid: string | null; reason: string }[];
  /** What was read other than as written, or left out, and why (the import lists it). */
  repairs: { uid: string | null; note: string }[];
}

export interface IcsReadOptions {
  /** The site's zone: floating times and dates of a feed without X-WR-TIMEZONE. */
  timezone: string;
  /** How far a series split by RANGE=THISANDFUTURE is written out as dates when its rule cannot move (event-local). */
  until: Date;
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

type JCal = [string, unknown[], JCal[]];
type Note = (note: string) => void;

const quote = (text: string, max = 60) => JSON.stringify(text.length > max ? `${text.slice(0, max)}…` : text);

/** Content lines (RFC 5545 §3.1): folds joined; blank lines, which some writers put inside a fold, dropped. */
function contentLines(text: string): { no: number; text: string }[] {
  const lines: { no: number; text: string }[] = [];
  text
    .replace(/^\uFEFF/, '')
    .split(/\r\n|\n|\r/)
    .forEach((line, i) => {
      if (!line.trim()) return;
      const last = lines.at(-1);
      if ((line[0] === ' ' || line[0] === '\t') && last) last.text += line.slice(1);
      else lines.push({ no: i + 1, text: line });
    });
  return lines;
}

/** Name, parameter text and value of a content line (the first `:` outside quotes ends the parameters). */
function splitLine(line: string): { name: string; params: string; value: string } | null {
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (c === '"') quoted = !quoted;
    else if (c === ':' && !quoted) {
      const head = line.slice(0, i);
      const semi = head.indexOf(';');
      return { name: (semi === -1 ? head : head.slice(0, semi)).toUpperCase(), params: semi === -1 ? '' : head.slice(semi), value: line.slice(i + 1) };
    }
  }
  return null;
}

const DATE_PROPERTIES = new Set(['DTSTART', 'DTEND', 'DUE', 'RECURRENCE-ID', 'EXDATE', 'RDATE']);

/** One property line as jCal, repaired where its meaning is plain; null (and a note) when it cannot be read. */
function parseProperty(text: string, note: Note): unknown[] | null {
  let line = text;
  const parts = splitLine(line);
  if (parts && (parts.name === 'RRULE' || parts.name === 'EXRULE') && /\s/.test(parts.value)) {
    note(`${parts.name} ${quote(parts.value)}: white space removed`);
    line = `${parts.name}${parts.params}:${parts.value.replace(/\s+/g, '')}`;
  }
  if (parts && DATE_PROPERTIES.has(parts.name) && !/;VALUE=/i.test(parts.params) && /^\d{8}Z?(,\d{8}Z?)*$/.test(parts.value.trim())) {
    note(`${parts.name}:${parts.value.trim()} read as a date (no VALUE=DATE)`);
    line = `${parts.name}${parts.params};VALUE=DATE:${parts.value.trim().replace(/Z/g, '')}`;
  }
  try {
    return ICAL.parse.property(line, ICAL.design.defaultSet) as unknown[];
  } catch (error) {
    note(`line ${quote(text)} skipped: ${(error as Error).message.replace(/ in '.*'$/, '')}`);
    return null;
  }
}

/**
 * The VCALENDARs of a text, read leniently into jCal: several in one file, VEVENTs outside any
 * (an implicit calendar), components never ended (ended at the end of their parent) and lines that
 * cannot be read (skipped) are noted, each with the component it was in.
 */
function readCalendars(text: string): { calendars: JCal[]; notes: { component: JCal | null; note: string }[] } {
  const calendars: JCal[] = [];
  const notes: { component: JCal | null; note: string }[] = [];
  const stack: JCal[] = [];
  let implicit: JCal | null = null;
  let nested = 0;
  const noteIn = (component: JCal | null) => (note: string) => notes.push({ component, note });
  for (const { no, text: line } of contentLines(text)) {
    const parts = splitLine(line);
    const top = stack.at(-1) ?? null;
    const keyword = parts && !parts.params ? parts.name : '';
    if (keyword === 'BEGIN') {
      const name = parts!.value.trim().toLowerCase();
      if (name === 'vcalendar' && stack.length) {
        // A VCALENDAR inside one: its contents are read as the outer one's.
        nested++;
        noteIn(top)(`line ${no}: BEGIN:VCALENDAR inside a VCALENDAR read as part of it`);
        continue;
      }
      const component: JCal = [name, [], []];
      if (top) top[2].push(component);
      else if (name === 'vcalendar') calendars.push(component);
      else {
        if (!implicit) {
          implicit = ['vcalendar', [], []];
          calendars.push(implicit);
          noteIn(null)(`line ${no}: BEGIN:${name.toUpperCase()} outside a VCALENDAR read as if in one`);
        }
        implicit[2].push(component);
      }
      stack.push(component);
    } else if (keyword === 'END') {
      const name = parts!.value.trim().toLowerCase();
      if (name === 'vcalendar' && nested > 0 && stack.length > 1) {
        nested--;
        continue;
      }
      const at = stack.map((c) => c[0]).lastIndexOf(name);
      if (at === -1) {
        noteIn(top)(`line ${no}: END:${name.toUpperCase()} without its BEGIN skipped`);
        continue;
      }
      for (const open of stack.splice(at + 1)) noteIn(open)(`BEGIN:${open[0].toUpperCase()} never ended: ended at line ${no}`);
      stack.pop();
    } else if (!top) {
      noteIn(null)(`line ${no} ${quote(line)} outside any component skipped`);
    } else {
      const property = parseProperty(line, (note) => noteIn(top)(`line ${no}: ${note}`));
      if (property) top[1].push(property);
    }
  }
  for (const open of stack) noteIn(open)(`BEGIN:${open[0].toUpperCase()} never ended: ended at the end of the feed`);
  return { calendars, notes };
}

type Wall = { wall: string; zone: string; date: boolean };

const pad = (n: number, w = 2) => String(n).padStart(w, '0');
const fieldsOf = (t: ICAL.Time) => `${pad(t.year, 4)}-${pad(t.month)}-${pad(t.day)} ${pad(t.hour)}:${pad(t.minute)}:${pad(t.second)}`;
const ianaOf = (name: string | null | undefined) => {
  const tz = resolveTimezone(name ?? '');
  return tz && (tz.kind === 'iana' || tz.kind === 'utc') ? tz.name : null;
};
/** The IANA name a globally unique TZID ends with (`/freeassociation.sourceforge.net/Tzfile/America/Argentina/Buenos_Aires`). */
const trailingIana = (tzid: string) => {
  const segments = tzid.split('/').filter(Boolean);
  for (const n of [3, 2, 1]) {
    if (segments.length < n) continue;
    const iana = ianaOf(segments.slice(-n).join('/'));
    if (iana && (n > 1 || iana === 'UTC')) return iana;
  }
  return null;
};
/**
 * Zones a VTIMEZONE's offsets are matched against: each Windows zone's main IANA zone first (the
 * one a person there would name: America/New_York before America/Detroit), then every other.
 */
const candidateZones = () => [
  ...WINDOWS_TO_IANA_MAP.filter((z) => z.territory === '001').map((z) => z.iana[0]),
  ...Intl.supportedValuesOf('timeZone'),
];

const digest = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex');
const text = (v: ICAL.Component, name: string) => {
  const value = v.getFirstPropertyValue(name);
  return value === null || value === undefined ? '' : String(value);
};
const sequenceOf = (v: ICAL.Component) => Number(v.getFirstPropertyValue('sequence')) || 0;

/** A VEVENT with the zones of its calendar. */
interface Vevent {
  v: ICAL.Component;
  zones: Zones;
  notes: string[];
}

/** Reads a feed's VEVENTs; a text in which no VCALENDAR can be found is an IcsFeedError. */
export function parseFeed(feed: string, opts: IcsReadOptions): IcsFeed {
  const { calendars, notes } = readCalendars(feed);
  if (!calendars.length) {
    const first = contentLines(feed)[0]?.text;
    throw new IcsFeedError(`not an iCalendar feed: no BEGIN:VCALENDAR${first === undefined ? ' (the text is empty)' : ` (it begins ${quote(first, 40)})`}`);
  }
  const repairs: IcsFeed['repairs'] = [];
  const failures: IcsFeed['failures'] = [];
  const own = new Map<JCal, string[]>();
  for (const { component, note } of notes) {
    if (component && component[0] === 'vevent') own.set(component, [...(own.get(component) ?? []), note]);
    else repairs.push({ uid: null, note });
  }
  if (calendars.length > 1) repairs.push({ uid: null, note: `${calendars.length} VCALENDARs in the feed: their events read together` });

  const vevents: Vevent[] = [];
  for (const jcal of calendars) {
    const root = new ICAL.Component(jcal);
    const calendarZone = ianaOf(text(root, 'x-wr-timezone').trim()) ?? opts.timezone;
    const zones = new Zones(root, calendarZone);
    // VEVENTs in other components (a VEVENT in a VEVENT) are read too.
    const all = (c: ICAL.Component): ICAL.Component[] => c.getAllSubcomponents().flatMap((s) => (s.name === 'vevent' ? [s, ...all(s)] : all(s)));
    for (const v of all(root)) vevents.push({ v, zones, notes: own.get(v.jCal as JCal) ?? [] });
  }

  // UIDs: the VEVENT's, or one derived from what it says (the same text gets the same UID again).
  const derived = new Map<string, number>();
  const byUid = new Map<string, { masters: Vevent[]; overrides: Map<string, Vevent[]> }>();
  for (const e of vevents) {
    let uid = text(e.v, 'uid').trim();
    if (!uid) {
      const basis = digest(['dtstart', 'summary', 'recurrence-id'].map((name) => e.v.getFirstProperty(name)?.toJSON() ?? null)).slice(0, 32);
      const n = (derived.get(basis) ?? 0) + 1;
      derived.set(basis, n);
      uid = `ics-${basis}${n > 1 ? `-${n}` : ''}@derived.cal-events`;
      e.notes.push(`no UID: ${uid} derived from DTSTART and SUMMARY`);
    }
    const group = byUid.get(uid) ?? { masters: [], overrides: new Map<string, Vevent[]>() };
    const rid = e.v.getFirstProperty('recurrence-id');
    if (rid) {
      const key = String(rid.getFirstValue());
      group.overrides.set(key, [...(group.overrides.get(key) ?? []), e]);
    } else group.masters.push(e);
    byUid.set(uid, group);
  }

  const entries: IcsEntry[] = [];
  for (const [uid, group] of byUid) {
    const notes: string[] = [];
    const pick = (list: Vevent[], what: string) => {
      for (const e of list) notes.push(...e.notes);
      if (list.length > 1) notes.push(`${what} given ${list.length} times: the one with the highest SEQUENCE (else the last) kept`);
      return list.reduce((a, b) => (sequenceOf(b.v) >= sequenceOf(a.v) ? b : a));
    };
    const overrides = [...group.overrides.entries()].map(([key, list]) => pick(list, `RECURRENCE-ID ${key}`));
    try {
      if (!group.masters.length) {
        // Overrides of a series the feed does not hold (a shared occurrence of someone else's
        // series): each is an event of its own.
        for (const o of overrides) {
          const slot = String(o.v.getFirstPropertyValue('recurrence-id'));
          const own = `${uid}#${slot}`;
          const read = readOrphan(own, o, notes);
          if (read) entries.push(read);
        }
        if (overrides.length) notes.push(`${overrides.length === 1 ? 'an override' : `${overrides.length} overrides`} (RECURRENCE-ID) without their series: imported as events of their own`);
      } else {
        entries.push(...readEntry(uid, pick(group.masters, 'the event'), overrides, notes, opts));
      }
    } catch (error) {
      failures.push({ uid, reason: (error as Error).message.split('\n')[0] ?? '' });
    }
    for (const note of notes) repairs.push({ uid, note });
  }
  return { entries, failures, repairs };
}

/** An override whose series is not in the feed, as an event of its own (a cancelled one is none). */
function readOrphan(uid: string, o: Vevent, notes: string[]): IcsEntry | null {
  const fields = readFields(o.v, o.zones, null, (n) => notes.push(n));
  return {
    uid,
    cancelled: text(o.v, 'status').toUpperCase() === 'CANCELLED',
    fields,
    ...readLinks(o.v),
    categories: readCategories(o.v),
    recurrence: null,
    overrides: [],
  };
}

/** The links of a VEVENT: LOCATION (lines after the first: its address; GEO), ORGANIZER. */
function readLinks(v: ICAL.Component): IcsLinks {
  const location = text(v, 'location').trim();
  const [place, ...addressLines] = location.split(/\r?\n/).map((l) => l.trim()).filter(Boolean);
  const geo = v.getFirstPropertyValue('geo') as [number, number] | null;
  const organizer = v.getFirstProperty('organizer');
  const address = String(organizer?.getFirstValue() ?? '').replace(/^mailto:/i, '').trim();
  // cal-events writes `noreply@invalid` for an organizer without e-mail (RFC 2606's reserved TLD).
  const email = /^[^@\s]+@[^@\s]+$/.test(address) && !/\.?invalid$/i.test(address) ? address : '';
  const name = escapeMarkup(String(organizer?.getParameter('cn') ?? '').trim()) || email;
  return {
    venue: place ? { name: escapeMarkup(place), address: addressLines.join(', '), latitude: Number.isFinite(geo?.[0]) ? geo![0] : null, longitude: Number.isFinite(geo?.[1]) ? geo![1] : null } : null,
    organizer: name ? { name, email } : null,
  };
}

const readCategories = (v: ICAL.Component) => [
  ...new Set(v.getAllProperties('categories').flatMap((p) => p.getValues().map((c) => String(c).trim())).filter(Boolean)),
];

/** The RRULEs of a VEVENT that the calendar can expand (RFC 7529 RSCALE calendars other than Gregorian cannot). */
function readRules(master: ICAL.Component, timezone: string, note: Note): string[] {
  const rules: string[] = [];
  for (const p of master.getAllProperties('rrule')) {
    const recur = p.getFirstValue() as ICAL.Recur;
    const raw = (p.toJSON() as unknown[])[3] as Record<string, unknown>;
    const rscale = String(raw.rscale ?? 'GREGORIAN').toUpperCase();
    const skip = String(raw.skip ?? 'OMIT').toUpperCase();
    if (!recur.freq) {
      note('an empty RRULE ignored');
      continue;
    }
    const rule = recur.toString();
    if (rscale !== 'GREGORIAN' || skip !== 'OMIT') {
      note(`RRULE ${quote(rule)} with RSCALE=${rscale}${skip !== 'OMIT' ? `;SKIP=${skip}` : ''} (RFC 7529) skipped: only the Gregorian calendar with SKIP=OMIT is expanded`);
      continue;
    }
    try {
      parseSeriesRule(rule, timezone);
      if (!rules.includes(rule)) rules.push(rule);
    } catch (error) {
      note(`RRULE ${quote(rule)} skipped: ${(error as Error).message}`);
    }
  }
  return rules;
}

interface ReadOverride extends IcsOverride {
  /** RANGE=THISANDFUTURE: it edits the following occurrences too. */
  range: boolean;
}

/**
 * The entries of a UID: the event or series with its overrides, and one more series per
 * RANGE=THISANDFUTURE override (the series is split there; UID `<uid>#<RECURRENCE-ID>+`).
 */
function readEntry(uid: string, masterEvent: Vevent, overrides: Vevent[], notes: string[], opts: IcsReadOptions): IcsEntry[] {
  const { v: master, zones } = masterEvent;
  const note: Note = (n) => notes.push(n);
  const fields = readFields(master, zones, null, note);
  const inZone = (w: Wall) => (fields.allDay || w.date ? w.wall.slice(0, 10) : zones.convert(w, fields.timezone));
  const dates = (name: string) =>
    master.getAllProperties(name).flatMap((p) => {
      try {
        return p.getValues().map((v) => ({ at: inZone(zones.wall(v instanceof ICAL.Period ? v.start : (v as ICAL.Time), p.getParameter('tzid'))), period: v instanceof ICAL.Period ? v : null, tzid: p.getParameter('tzid') }));
      } catch (error) {
        // ical.js reads a value when it is first asked for: a bad one is found here.
        note(`an ${name.toUpperCase()} skipped: ${(error as Error).message}`);
        return [];
      }
    });
  const rules = readRules(master, fields.timezone, note);
  if (master.hasProperty('exrule')) note('EXRULE (deprecated since RFC 5545) ignored');
  const cancelled: string[] = [];
  const edited: ReadOverride[] = [];
  for (const o of overrides) {
    const prop = o.v.getFirstProperty('recurrence-id')!;
    const slot = inZone(zones.wall(prop.getFirstValue() as ICAL.Time, prop.getParameter('tzid')));
    if (text(o.v, 'status').toUpperCase() === 'CANCELLED') cancelled.push(slot);
    else
      edited.push({
        recurrenceId: slot,
        fields: readFields(o.v, o.zones, fields.timezone, note),
        ...readLinks(o.v),
        range: String(prop.getParameter('range') ?? '').toUpperCase() === 'THISANDFUTURE',
      });
  }
  const links = readLinks(master);
  const rdateList = dates('rdate');
  // An RDATE period has its own end (RFC 5545 §3.8.5.2): its occurrence is an override with that end.
  for (const r of rdateList) {
    if (!r.period || edited.some((o) => o.recurrenceId === r.at)) continue;
    const end = r.period.end ?? r.period.start.clone();
    if (!r.period.end && r.period.duration) end.addDuration(r.period.duration);
    const endWall = fields.allDay ? end.toString().slice(0, 10) : zones.convert(zones.wall(end, r.tzid), fields.timezone);
    edited.push({ recurrenceId: r.at, fields: { ...fields, startDate: r.at, endDate: endWall < r.at ? r.at : endWall }, ...links, range: false });
  }
  const exdates = [...new Set([...dates('exdate').map((d) => d.at), ...cancelled])].sort();
  // With no rule, DTSTART is the first instance anyway.
  const rdates = [...new Set(rdateList.map((d) => d.at))].filter((d) => rules.length || d !== fields.startDate);
  const isSeries = rules.length > 0 || rdates.length > 0;
  if (!isSeries && edited.length) note(`${edited.length} override(s) (RECURRENCE-ID) of an event that does not recur ignored`);
  if (isSeries) {
    // What the rules give: DTSTART is the first instance (RFC 5545 §3.8.2.4) even when no rule
    // gives it, and an override of a slot the set does not hold is an extra occurrence, as Google
    // Calendar shows them; both become RDATEs. An override of an excluded slot stays excluded.
    const set = { rules: rules.map((r) => parseSeriesRule(r, fields.timezone)), anchor: wallOf(fields.startDate), rdates: rdates.map(wallOf), exdates: [] };
    const gives = (slot: string) => expandSeries(set, { from: wallOf(slot), until: wallOf(slot) }).starts.length > 0;
    if (rules.length && !gives(fields.startDate) && !exdates.includes(fields.startDate)) {
      rdates.push(fields.startDate);
      note(`DTSTART ${fields.startDate} is no occurrence of the RRULE: kept as the first one (an RDATE)`);
    }
    for (const o of edited.filter((x) => !x.range)) {
      if (exdates.includes(o.recurrenceId)) {
        edited.splice(edited.indexOf(o), 1);
        note(`the override of ${o.recurrenceId} is of an excluded occurrence (EXDATE): ignored`);
      } else if (!gives(o.recurrenceId) && !rdates.includes(o.recurrenceId)) {
        rdates.push(o.recurrenceId);
        note(`RECURRENCE-ID ${o.recurrenceId} is no occurrence of the series: an extra one (an RDATE)`);
      }
    }
  }
  // A series whose every occurrence is excluded holds no event: as a cancelled one, it is not imported.
  const empty =
    isSeries &&
    !expandSeries(
      { rules: rules.map((r) => parseSeriesRule(r, fields.timezone)), anchor: wallOf(fields.startDate), rdates: rdates.map(wallOf), exdates: exdates.map(wallOf) },
      { until: wallClockToDate('9999-12-31 00:00:00') },
    ).starts.length;
  if (empty) note('every occurrence is excluded (EXDATE or cancelled): nothing to import');
  let entry: IcsEntry = {
    uid,
    cancelled: empty || text(master, 'status').toUpperCase() === 'CANCELLED',
    fields,
    ...links,
    categories: readCategories(master),
    recurrence: isSeries ? { rules, exdates, rdates: [...new Set(rdates)].sort() } : null,
    overrides: [],
  };
  if (!isSeries) return [entry];
  const entries: IcsEntry[] = [];
  edited.sort((a, b) => (a.recurrenceId < b.recurrenceId ? -1 : 1));
  // How far the occurrences of the entry being read are from the master's (RANGE=THISANDFUTURE
  // moved them): each RECURRENCE-ID names a slot of the master's set.
  let offset = 0;
  for (const o of edited) {
    const slot = asEntryDate(wallOf(o.recurrenceId).getTime() + offset, fields.allDay);
    if (!o.range) {
      entry.overrides.push({ recurrenceId: slot, fields: o.fields, venue: o.venue, organizer: o.organizer });
      continue;
    }
    // RANGE=THISANDFUTURE: this occurrence and the following ones move by its shift and take its fields.
    const split = splitEntry(entry, { ...o, recurrenceId: slot }, `${uid}#${o.recurrenceId}+`, opts, note);
    if (split.before) entries.push(split.before);
    entry = split.after;
    offset = wallOf(o.fields.startDate).getTime() - wallOf(o.recurrenceId).getTime();
  }
  entries.push(entry);
  return entries;
}

const wallOf = (d: string) => wallClockToDate(d.length === 10 ? `${d} 00:00:00` : d);
const asEntryDate = (ms: number, allDay: boolean) => dateToWallClock(new Date(ms)).slice(0, allDay ? 10 : 19);

/** A series split at a RANGE=THISANDFUTURE override: what stays before it, and the series from it on. */
function splitEntry(entry: IcsEntry, o: ReadOverride, uid: string, opts: IcsReadOptions, note: Note): { before: IcsEntry | null; after: IcsEntry } {
  const recurrence = entry.recurrence!;
  const { allDay, timezone } = entry.fields;
  const cut = wallOf(o.recurrenceId);
  const anchor = wallOf(entry.fields.startDate);
  const shift = wallOf(o.fields.startDate).getTime() - cut.getTime();
  const rules = recurrence.rules.map((r) => parseSeriesRule(r, timezone));
  const split = splitRules(rules, anchor, cut, timezone, shift);
  const moved = (d: string) => asEntryDate(wallOf(d).getTime() + shift, allDay);
  const from = (list: string[]) => list.filter((d) => wallOf(d) > cut).map(moved);
  const before = (list: string[]) => list.filter((d) => wallOf(d) < cut);
  let rdates = from(recurrence.rdates);
  if (!split.after) {
    // The rules cannot be moved so (a change of day for a rule bound to days): their occurrences
    // from the cut on, up to the horizon, become dates of the new series.
    const set = { rules, anchor, rdates: recurrence.rdates.map(wallOf), exdates: [] };
    const { starts } = expandSeries(set, { from: new Date(cut.getTime() + 1000), until: opts.until });
    rdates = [...new Set([...starts.map((d) => asEntryDate(d.getTime() + shift, allDay)), ...rdates])].sort();
    note(`RANGE=THISANDFUTURE at ${o.recurrenceId} moves the occurrences to other days: the following ones are written out as dates up to ${dateToWallClock(opts.until).slice(0, 10)}`);
  }
  const after: IcsEntry = {
    ...entry,
    uid,
    fields: o.fields,
    venue: o.venue,
    organizer: o.organizer,
    recurrence: { rules: split.after ?? [], exdates: from(recurrence.exdates), rdates },
    overrides: entry.overrides.filter((x) => wallOf(x.recurrenceId) > cut).map((x) => ({ ...x, recurrenceId: moved(x.recurrenceId) })),
  };
  const keepsSome = split.before.length > 0 || before(recurrence.rdates).length > 0 || anchor < cut;
  if (!keepsSome) return { before: null, after: { ...after, uid: entry.uid } };
  note(`RANGE=THISANDFUTURE at ${o.recurrenceId}: the series is split there (the following occurrences are the series ${after.uid})`);
  return {
    before: {
      ...entry,
      recurrence: { rules: split.before, exdates: before(recurrence.exdates), rdates: before(recurrence.rdates) },
      overrides: entry.overrides.filter((x) => wallOf(x.recurrenceId) < cut),
    },
    after,
  };
}

/** The fields of a VEVENT; `zone`: the series' zone an override's dates are written in. */
function readFields(v: ICAL.Component, zones: Zones, zone: string | null, note: Note): IcsFields {
  const dtstart = v.getFirstProperty('dtstart');
  if (!dtstart) throw new IcsFeedError('no DTSTART');
  const start = zones.wall(dtstart.getFirstValue() as ICAL.Time, dtstart.getParameter('tzid'));
  const timezone = zone ?? start.zone;
  const startWall = start.date ? start.wall : zones.convert(start, timezone);
  const dtend = v.getFirstProperty('dtend');
  const duration = v.getFirstPropertyValue('duration') as ICAL.Duration | null;
  const plus = (wall: string, ms: number) => dateToWallClock(new Date(wallClockToDate(wall).getTime() + ms));
  let endWall: string;
  if (dtend) {
    const end = zones.wall(dtend.getFirstValue() as ICAL.Time, dtend.getParameter('tzid'));
    endWall = start.date ? end.wall : zones.convert(end, timezone);
  } else if (duration) {
    const seconds = duration.toSeconds();
    if (seconds < 0) note(`DURATION ${duration.toString()} is negative: read as ${duration.toString().replace('-', '')}`);
    endWall = plus(startWall, Math.abs(seconds) * 1000);
  } else {
    // No DTEND nor DURATION: a day for a date, an instant for a date-time (RFC 5545 §3.6.1).
    endWall = start.date ? plus(startWall, 86_400_000) : startWall;
  }
  let first = startWall;
  if (endWall < startWall && dtend) {
    note(`DTEND ${dtend.getFirstValue()!.toString()} is before DTSTART ${dtstart.getFirstValue()!.toString()}: swapped`);
    [first, endWall] = [endWall, startWall];
  }
  if (start.date) {
    // DTEND of a date is exclusive: the event's last day is the day before (a DTEND on DTSTART: one day).
    const last = new Date(wallClockToDate(`${endWall.slice(0, 10)} 00:00:00`).getTime() - 86_400_000);
    endWall = dateToWallClock(last < wallClockToDate(first) ? wallClockToDate(first) : last);
  }
  const html = v.getAllProperties('x-alt-desc').find((p) => String(p.getParameter('fmttype') ?? '').toLowerCase() === 'text/html');
  const description = text(v, 'description');
  const url = text(v, 'url').trim();
  const klass = text(v, 'class').toUpperCase();
  return {
    title: escapeMarkup(text(v, 'summary').trim()) || '(no title)',
    // X-ALT-DESC has no value type ical.js knows: its TEXT escapes are decoded here.
    description: html ? unescapeText(String(html.getFirstValue() ?? '')) : escapeHtml(description),
    startDate: start.date ? first.slice(0, 10) : first,
    endDate: start.date ? endWall.slice(0, 10) : endWall,
    allDay: start.date,
    timezone,
    website: /^https?:\/\//i.test(url) ? url : null,
    status: klass === 'PRIVATE' || klass === 'CONFIDENTIAL' ? 'private' : 'publish',
  };
}

const escapeHtml = (value: string) => value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/**
 * A title or name is text, where WordPress reads markup: `<` and `>` are escaped (`sahaja <> frashed`
 * would lose its `<>`), and an `&` only where it would be read as an entity (`AT&T` stays as typed).
 */
const escapeMarkup = (value: string) =>
  value.replace(/&(?=#?[a-z0-9]+;)/gi, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
/** RFC 5545 §3.3.11 TEXT escapes: `\\`, `\;`, `\,`, `\n`/`\N`. */
const unescapeText = (value: string) => value.replace(/\\([\\;,nN])/g, (_, c: string) => (c === 'n' || c === 'N' ? '\n' : c));

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
      const iana = ianaOf(tzid) ?? trailingIana(tzid) ?? ianaOf(findIana(tzid)[0]) ?? this.matchDefinition(tzid, at);
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
