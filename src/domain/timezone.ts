/**
 * Time zone labels as TEC stores and shows them (contract §4.1 `timezone`/`timezone_abbr`, §7.2).
 *
 * Labels are IANA names (`America/New_York`), `UTC`, fixed offsets written `UTC±h[:mm]` (`UTC+2`,
 * `UTC-5:30`, `UTC+0`) or PHP time zone abbreviations (`EST`, `CEST`), which PHP treats as fixed
 * offsets. Pure functions, no I/O.
 */
import { DateTime, FixedOffsetZone, IANAZone, type Zone } from 'luxon';

export interface ResolvedTimezone {
  /** The label TEC would store: IANA as is (canonical case), offsets as `UTC±h[:mm]`, abbreviations upper-cased. */
  name: string;
  zone: Zone;
  kind: 'iana' | 'utc' | 'offset' | 'abbreviation';
}

/**
 * PHP (timelib) abbreviations accepted by `new DateTimeZone()` and `strtotime`, with their fixed UTC
 * offsets in minutes. PHP looks abbreviations up *before* IANA identifiers, so `EST`/`CET` are fixed
 * offsets there even though they are also (legacy) IANA names.
 */
export const TIMEZONE_ABBREVIATIONS: Readonly<Record<string, number>> = {
  UT: 0,
  UTC: 0,
  GMT: 0,
  Z: 0,
  WET: 0,
  WEST: 60,
  BST: 60,
  CET: 60,
  CEST: 120,
  MET: 60,
  MEST: 120,
  MEZ: 60,
  MESZ: 120,
  EET: 120,
  EEST: 180,
  MSK: 180,
  MSD: 240,
  EST: -300,
  EDT: -240,
  CST: -360,
  CDT: -300,
  MST: -420,
  MDT: -360,
  PST: -480,
  PDT: -420,
  AKST: -540,
  AKDT: -480,
  HST: -600,
  HDT: -540,
  AST: -240,
  ADT: -180,
  NST: -210,
  NDT: -150,
  JST: 540,
  KST: 540,
  HKT: 480,
  AWST: 480,
  ACST: 570,
  ACDT: 630,
  AEST: 600,
  AEDT: 660,
  NZST: 720,
  NZDT: 780,
  SAST: 120,
  WAT: 60,
  CAT: 120,
  EAT: 180,
  PKT: 300,
  WIB: 420,
};

let ianaIndex: Map<string, string> | undefined;

/** Canonical-case IANA name for a case-insensitive one, or the input when Intl does not list it. */
function canonicalIana(name: string): string {
  if (!ianaIndex) {
    ianaIndex = new Map();
    const list = Intl.supportedValuesOf('timeZone');
    for (const n of list) ianaIndex.set(n.toLowerCase(), n);
    for (const n of ['UTC', 'Etc/UTC', 'GMT', 'Etc/GMT', 'US/Eastern', 'US/Central', 'US/Mountain', 'US/Pacific', 'US/Alaska', 'US/Hawaii', 'US/Arizona', 'Asia/Calcutta', 'Europe/Kiev', 'Asia/Saigon', 'Asia/Katmandu', 'America/Buenos_Aires', 'America/Indianapolis']) {
      if (!ianaIndex.has(n.toLowerCase())) ianaIndex.set(n.toLowerCase(), n);
    }
  }
  return ianaIndex.get(name.toLowerCase()) ?? name;
}

/** `UTC±h[:mm]` label for an offset in minutes (`UTC+0`, `UTC+2`, `UTC-5:30`). */
export function offsetLabel(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  const h = Math.floor(abs / 60);
  const m = abs % 60;
  return `UTC${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}

function fixed(minutes: number): Zone {
  return minutes === 0 ? FixedOffsetZone.utcInstance : FixedOffsetZone.instance(minutes);
}

/**
 * Parses `+02:00`, `+0200`, `+2`, `-05:30` and WordPress' decimal hours (`+5.5`) into minutes.
 * Returns null if the text is not an offset.
 */
function parseOffset(text: string): number | null {
  let m = /^([+-])(\d{1,2})(?::?(\d{2}))?$/.exec(text);
  if (m) {
    const h = Number(m[2]);
    const min = m[3] ? Number(m[3]) : 0;
    if (h > 14 || min > 59) return null;
    return (m[1] === '-' ? -1 : 1) * (h * 60 + min);
  }
  m = /^([+-])(\d{1,2})\.(\d+)$/.exec(text); // WordPress style `UTC+5.5`
  if (m) {
    const hours = Number(`${m[2]}.${m[3]}`);
    if (hours > 14) return null;
    return (m[1] === '-' ? -1 : 1) * Math.round(hours * 60);
  }
  return null;
}

/**
 * Resolves a time zone label as sent by a client or stored with an event. Accepts IANA names (case-
 * insensitively), `UTC`, `UTC±h[:mm]`, bare offsets (`+02:00`) and PHP abbreviations (`EST`). Returns
 * null for anything PHP's `DateTimeZone` would reject (and for `""`: the caller decides the default).
 */
export function resolveTimezone(label: string | null | undefined): ResolvedTimezone | null {
  if (typeof label !== 'string') return null;
  const known = resolvedCache.get(label);
  return known !== undefined ? known : remember(resolvedCache, label, resolveUncached(label));
}

// Zone lookups and abbreviations go through Intl and cost tens of microseconds each; a page of
// events asks for the same few again and again. Both functions are pure, so their answers are kept
// (bounded: the caches start over when full). A hit is one lookup, with no closure made for the
// miss: a page of 50 events asks for ~100 of them.
const MEMO_LIMIT = 10_000;
const resolvedCache = new Map<string, ResolvedTimezone | null>();
const abbrCache = new Map<string, string>();
function remember<T>(cache: Map<string, T>, key: string, value: T): T {
  if (cache.size >= MEMO_LIMIT) cache.clear();
  cache.set(key, value);
  return value;
}

function resolveUncached(label: string): ResolvedTimezone | null {
  const text = label.trim();
  if (!text) return null;
  const upper = text.toUpperCase();

  if (upper === 'UTC' || upper === 'Z' || upper === 'UT') {
    return { name: 'UTC', zone: FixedOffsetZone.utcInstance, kind: 'utc' };
  }

  // `UTC+2`, `UTC-5:30`, `GMT+2`, `UTC+0`
  const utcOffset = /^(?:UTC|GMT)\s*([+-].*)$/i.exec(text);
  if (utcOffset) {
    const minutes = parseOffset((utcOffset[1] ?? '').replace(/\s+/g, ''));
    if (minutes === null) return null;
    return { name: offsetLabel(minutes), zone: fixed(minutes), kind: 'offset' };
  }

  // `+02:00`, `-0500`
  if (/^[+-]/.test(text)) {
    const minutes = parseOffset(text);
    if (minutes === null) return null;
    return { name: offsetLabel(minutes), zone: fixed(minutes), kind: 'offset' };
  }

  // PHP looks abbreviations up before identifiers (`EST` is a fixed -05:00 there).
  const minutes = /^[A-Za-z]{1,6}$/.test(text) && upper !== 'GMT' ? TIMEZONE_ABBREVIATIONS[upper] : undefined;
  if (minutes !== undefined) {
    return { name: upper, zone: fixed(minutes), kind: 'abbreviation' };
  }

  if (IANAZone.isValidZone(text)) {
    const name = canonicalIana(text);
    if (/^(Etc\/)?(UTC|UCT|Universal|Zulu)$/i.test(name)) {
      return { name, zone: FixedOffsetZone.utcInstance, kind: 'iana' };
    }
    return { name, zone: IANAZone.create(name), kind: 'iana' };
  }
  return null;
}

/** Zone for a label or a luxon Zone; throws for labels that do not resolve (a programming error). */
export function toZone(zone: string | Zone): Zone {
  if (typeof zone !== 'string') return zone;
  const resolved = resolveTimezone(zone);
  if (!resolved) throw new RangeError(`Unknown time zone: ${zone}`);
  return resolved.zone;
}

/** Abbreviations from tzdata (what PHP prints with format `T`) that ICU's English names lack. */
const TZDATA_ABBR: Readonly<Record<string, readonly [string, string]>> = {
  'Asia/Tokyo': ['JST', 'JDT'],
  'Asia/Seoul': ['KST', 'KDT'],
  'Asia/Pyongyang': ['KST', 'KST'],
  'Asia/Shanghai': ['CST', 'CDT'],
  'Asia/Chongqing': ['CST', 'CDT'],
  'Asia/Harbin': ['CST', 'CDT'],
  'Asia/Taipei': ['CST', 'CDT'],
  'Asia/Macau': ['CST', 'CDT'],
  'PRC': ['CST', 'CDT'],
  'Asia/Hong_Kong': ['HKT', 'HKST'],
  'Asia/Manila': ['PST', 'PDT'],
  'Asia/Karachi': ['PKT', 'PKST'],
  'Asia/Jakarta': ['WIB', 'WIB'],
  'Asia/Pontianak': ['WIB', 'WIB'],
  'Asia/Makassar': ['WITA', 'WITA'],
  'Asia/Jayapura': ['WIT', 'WIT'],
  'Asia/Jerusalem': ['IST', 'IDT'],
  'Asia/Tel_Aviv': ['IST', 'IDT'],
  'Israel': ['IST', 'IDT'],
  'Asia/Kolkata': ['IST', 'IST'],
  'Asia/Calcutta': ['IST', 'IST'],
  'Europe/Moscow': ['MSK', 'MSD'],
  'Europe/Simferopol': ['MSK', 'MSK'],
  'Europe/Dublin': ['GMT', 'IST'],
  'Eire': ['GMT', 'IST'],
  'Africa/Johannesburg': ['SAST', 'SAST'],
  'Africa/Lagos': ['WAT', 'WAT'],
  'Africa/Nairobi': ['EAT', 'EAT'],
  'Africa/Maputo': ['CAT', 'CAT'],
  'Africa/Cairo': ['EET', 'EEST'],
  'Africa/Tripoli': ['EET', 'EET'],
  'Pacific/Auckland': ['NZST', 'NZDT'],
  'NZ': ['NZST', 'NZDT'],
  'America/St_Johns': ['NST', 'NDT'],
  'Canada/Newfoundland': ['NST', 'NDT'],
  'Pacific/Honolulu': ['HST', 'HDT'],
  'US/Hawaii': ['HST', 'HDT'],
};

/** PHP's numeric abbreviation for zones without a letter one: `+04`, `+0530`, `-03`. */
function numericAbbr(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const h = String(Math.floor(abs / 60)).padStart(2, '0');
  const m = abs % 60;
  return `${sign}${h}${m ? String(m).padStart(2, '0') : ''}`;
}

/** English-locale short names in which ICU has the tzdata-style abbreviation, by zone family. */
function localesFor(name: string): string[] {
  if (name.startsWith('Europe/') || name === 'GB' || name === 'WET' || name === 'CET' || name === 'MET' || name === 'EET') return ['en-GB', 'en-IE'];
  if (name.startsWith('Australia/')) return ['en-AU'];
  if (name.startsWith('America/') || name.startsWith('US/') || name.startsWith('Canada/')) return ['en-US', 'en-CA'];
  if (name.startsWith('Africa/')) return ['en-ZA', 'en-GB'];
  if (name.startsWith('Atlantic/')) return ['en-GB'];
  if (name.startsWith('Pacific/')) return ['en-US', 'en-NZ', 'en-AU'];
  return ['en-US'];
}

const isLetterAbbr = (s: string | null | undefined): s is string => !!s && /^[A-Z]{2,5}$/.test(s);

/**
 * The abbreviation PHP prints (format `T`) for a zone at a local wall-clock time
 * (`YYYY-MM-DD HH:MM:SS`): `EST`/`EDT`, `CET`/`CEST`, `GMT`/`BST`, `AEDT`, numeric `+04` where tzdata
 * has no letters. For offset labels (`UTC+2`) and abbreviation labels (`EST`) the label itself.
 */
export function timezoneAbbr(tzName: string, localWallClock: string): string {
  // DST changes on whole minutes: the abbreviation is the same for every second of a minute.
  const key = `${tzName}\u0000${(localWallClock ?? '').slice(0, 16)}`;
  return abbrCache.get(key) ?? remember(abbrCache, key, abbrUncached(tzName, localWallClock));
}

function abbrUncached(tzName: string, localWallClock: string): string {
  const resolved = resolveTimezone(tzName);
  if (!resolved) return tzName;
  if (resolved.kind === 'utc') return 'UTC';
  if (resolved.kind === 'offset' || resolved.kind === 'abbreviation') return resolved.name;
  const name = resolved.name;
  if (resolved.zone.isUniversal) {
    // Etc/UTC and friends; Etc/GMT±n are fixed too but named after their offset.
    const offset = resolved.zone.offset(Date.now());
    if (/^(Etc\/)?(GMT|Greenwich)/i.test(name)) return offset === 0 ? 'GMT' : numericAbbr(offset);
    return offset === 0 ? 'UTC' : numericAbbr(offset);
  }
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?/.exec(localWallClock ?? '');
  const [, year = '', month = '', day = '', hour, minute, second] = m ?? [];
  const dt = m
    ? DateTime.fromObject(
        { year: +year, month: +month, day: +day, hour: hour ? +hour : 0, minute: minute ? +minute : 0, second: second ? +second : 0 },
        { zone: resolved.zone },
      )
    : DateTime.now().setZone(resolved.zone);
  if (!dt.isValid) return name;
  if (/^(Etc\/)?(GMT|GMT0|GMT[+-]0|Greenwich)$/i.test(name)) return 'GMT';
  const known = TZDATA_ABBR[name];
  if (known) return dt.isInDST ? known[1] : known[0];
  for (const locale of localesFor(name)) {
    const short = dt.setLocale(locale).offsetNameShort;
    if (short && isLetterAbbr(short)) return short;
  }
  return numericAbbr(dt.offset);
}
