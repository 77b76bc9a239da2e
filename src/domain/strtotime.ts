/**
 * A PHP `strtotime`-compatible date parser (contract §7.3.1). `parseDateText` follows timelib
 * (PHP's date parser): the same token formats, the same "longest match wins, first rule on ties"
 * scanning, the same hole filling from "now" and the same relative arithmetic (month overflow:
 * Jan 31 + 1 month = Mar 3, `tomorrow 11:00` ≠ `11:00 tomorrow`).
 */
import { DateTime, FixedOffsetZone, IANAZone, type Zone } from 'luxon';
import { TIMEZONE_ABBREVIATIONS, toZone } from './timezone.ts';
import { wallFieldsToMillis, wallMillis } from './wall-clock.ts';

class ParseFailure extends Error {}
const fail = (why: string): never => {
  throw new ParseFailure(why);
};

/** Year, month, day, hour, minute, second (timelib's names). */
interface Ymdhis {
  y: number;
  m: number;
  d: number;
  h: number;
  i: number;
  s: number;
}

interface Relative extends Ymdhis {
  weekday: number;
  weekdayBehavior: number;
  haveWeekday: boolean;
  firstLast: 0 | 1 | 2;
  special: 0 | 1 | 2; // 1: nth weekday of month, 2: last weekday of month
}

interface ParseState {
  y: number | null;
  m: number | null;
  d: number | null;
  h: number | null;
  i: number | null;
  s: number | null;
  ms: number | null;
  haveDate: boolean;
  haveTime: number;
  haveZone: number;
  haveRelative: boolean;
  zone: Zone | null;
  rel: Relative;
}

function newState(): ParseState {
  return {
    y: null,
    m: null,
    d: null,
    h: null,
    i: null,
    s: null,
    ms: null,
    haveDate: false,
    haveTime: 0,
    haveZone: 0,
    haveRelative: false,
    zone: null,
    rel: { y: 0, m: 0, d: 0, h: 0, i: 0, s: 0, weekday: 0, weekdayBehavior: 0, haveWeekday: false, firstLast: 0, special: 0 },
  };
}

function haveTime(st: ParseState) {
  if (st.haveTime) fail('Double time specification');
  unhaveTime(st);
  st.haveTime = 1;
}
function unhaveTime(st: ParseState) {
  st.haveTime = 0;
  st.h = 0;
  st.i = 0;
  st.s = 0;
  st.ms = 0;
}
function haveDate(st: ParseState) {
  if (st.haveDate) fail('Double date specification');
  st.haveDate = true;
}
/** Returns false when the zone must be ignored (second zone: a warning in PHP). */
function haveZone(st: ParseState): boolean {
  if (st.haveZone) {
    if (st.haveZone > 1) fail('Double timezone specification');
    st.haveZone++;
    return false;
  }
  st.haveZone++;
  return true;
}

const processYear = (text: string): number => {
  const y = parseInt(text, 10);
  if (text.replace(/^[+-]/, '').length >= 4) return y;
  return y < 100 ? y + (y < 70 ? 2000 : 1900) : y;
};
const num = (text: string | undefined): number => parseInt(text ?? '0', 10);
const fracMs = (text: string | undefined): number => (text ? Math.round(Number(`0.${text}`) * 1000) : 0);
/** Group `i` of a rule's match, one its pattern always captures. */
const group = (m: RegExpExecArray, i: number): string => m[i] ?? fail(`unparsed part of the date (group ${i})`);
/** The entry of a word table (months, weekdays, relative texts) for a word a rule's pattern only matches when listed. */
const lookup = <T>(table: Record<string, T>, word: string | undefined): T => (word === undefined ? undefined : table[word]) ?? fail(`unknown word ${word}`);

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6,
  jul: 7, july: 7, aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11,
  november: 11, dec: 12, december: 12,
};
const WEEKDAYS: Record<string, number> = {
  sun: 0, sunday: 0, mon: 1, monday: 1, tue: 2, tuesday: 2, wed: 3, wednesday: 3, thu: 4, thursday: 4,
  fri: 5, friday: 5, sat: 6, saturday: 6,
};
const RELTEXT: Record<string, [number, number]> = {
  first: [1, 0], next: [1, 0], second: [2, 0], third: [3, 0], fourth: [4, 0], fifth: [5, 0], sixth: [6, 0],
  seventh: [7, 0], eight: [8, 0], eighth: [8, 0], ninth: [9, 0], tenth: [10, 0], eleventh: [11, 0],
  twelfth: [12, 0], last: [-1, 0], previous: [-1, 0], this: [0, 1],
};

// Regex fragments, after timelib's parse_date.re (input is lower-cased first).
const HOUR24 = '(?:2[0-4]|[01]?[0-9])';
const HOUR24LZ = '(?:[01][0-9]|2[0-4])';
const HOUR12 = '(?:1[0-2]|0?[1-9])';
const MINUTE = '(?:[0-5]?[0-9])';
const MINUTELZ = '(?:[0-5][0-9])';
const SECOND = '(?:60|[0-5]?[0-9])';
const SECONDLZ = '(?:60|[0-5][0-9])';
const MERIDIAN = '([ap])\\.?m\\.?(?![a-z0-9])';
const SPACE = '[ \\t]+';
const MONTH = '(?:1[0-2]|0?[0-9])';
const MONTHLZ = '(?:0[0-9]|1[0-2])';
const DAY = '(?:3[01]|[0-2]?[0-9])(?:st|nd|rd|th)?';
const DAYLZ = '(?:0[0-9]|[12][0-9]|3[01])';
const MONTHFULL = 'january|february|march|april|may|june|july|august|september|october|november|december';
const MONTHABBR = 'jan|feb|mar|apr|may|jun|jul|aug|sept|sep|oct|nov|dec';
const MONTHTEXT = `(?:${MONTHFULL}|${MONTHABBR})(?![a-z])`;
const DAYFULL = 'sunday|monday|tuesday|wednesday|thursday|friday|saturday';
const DAYABBR = 'sun|mon|tue|wed|thu|fri|sat';
const DAYNAME = `(?:${DAYFULL}|${DAYABBR})(?![a-z])`;
const RELTEXTNUMBER = 'first|second|third|fourth|fifth|sixth|seventh|eighth|eight|ninth|tenth|eleventh|twelfth';
const RELTEXTTEXT = 'next|last|previous|this';
const RELUNIT = `(?:(?:seconds?|secs?|minutes?|mins?|hours?|days?|fortnights?|forthnights?|months?|years?|weeks?)(?![a-z])|${DAYNAME})`;
const TZCORRECTION = `(?:gmt|utc)?[+-]${HOUR24}(?::?${MINUTE})?`;
const TZ = '(?:[a-z][a-z]+(?:[_-][a-z]+)*(?:\\/[a-z][a-z_-]*)+|\\(?[a-z]{1,6}\\)?(?![a-z]))';
/** re2c has no look-ahead: a rule matches a prefix and the rest must be consumed by other rules. */
const NOT_DIGIT = '';

type Action = (m: RegExpExecArray, st: ParseState) => void;
interface Rule {
  name: string;
  re: RegExp;
  act: Action;
}

function unitOf(word: string): { unit: 's' | 'i' | 'h' | 'd' | 'm' | 'y' | 'weekday'; mult: number } | null {
  const w = word.toLowerCase();
  const weekday = WEEKDAYS[w];
  if (weekday !== undefined) return { unit: 'weekday', mult: weekday };
  if (/^(sec|secs|second|seconds)$/.test(w)) return { unit: 's', mult: 1 };
  if (/^(min|mins|minute|minutes)$/.test(w)) return { unit: 'i', mult: 1 };
  if (/^hours?$/.test(w)) return { unit: 'h', mult: 1 };
  if (/^days?$/.test(w)) return { unit: 'd', mult: 1 };
  if (/^weeks?$/.test(w)) return { unit: 'd', mult: 7 };
  if (/^forth?nights?$/.test(w) || /^fortnights?$/.test(w)) return { unit: 'd', mult: 14 };
  if (/^months?$/.test(w)) return { unit: 'm', mult: 1 };
  if (/^years?$/.test(w)) return { unit: 'y', mult: 1 };
  return null;
}

/** timelib_set_relative. `keepTime` is TIMELIB_TIME_PART_KEEP (numeric relatives like `+1 monday`). */
function setRelative(st: ParseState, amount: number, behavior: number, word: string, keepTime = false) {
  const u = unitOf(word);
  if (!u) fail(`unknown unit ${word}`);
  const { unit, mult } = u!;
  const r = st.rel;
  if (unit !== 'weekday') {
    r[unit] += amount * mult;
    return;
  }
  st.haveRelative = true;
  r.haveWeekday = true;
  if (!keepTime) unhaveTime(st);
  r.d += (amount > 0 ? amount - 1 : amount) * 7;
  r.weekday = mult;
  r.weekdayBehavior = behavior;
}

function meridian(h: number, ap: string): number {
  if (ap === 'a') return h === 12 ? 0 : h;
  return h === 12 ? 12 : h + 12;
}

function zoneFromToken(token: string): Zone | null {
  let t = token.replace(/^\(|\)$/g, '');
  const corr = /^(?:gmt|utc)?([+-])(\d{1,2})(?::?(\d{1,2}))?$/.exec(t);
  if (corr) {
    let minutes: number;
    const digits = corr[2] + (corr[3] ?? '');
    if (corr[3] === undefined) minutes = num(corr[2]) * 60;
    else if (t.includes(':')) minutes = num(corr[2]) * 60 + num(corr[3]);
    else {
      const n = num(digits);
      minutes = digits.length <= 2 ? n * 60 : Math.floor(n / 100) * 60 + (n % 100);
    }
    const signed = corr[1] === '-' ? -minutes : minutes;
    return signed === 0 ? FixedOffsetZone.utcInstance : FixedOffsetZone.instance(signed);
  }
  t = t.toUpperCase();
  if (t === 'UTC' || t === 'GMT' || t === 'Z' || t === 'UT') return FixedOffsetZone.utcInstance;
  const o = TIMEZONE_ABBREVIATIONS[t];
  if (o !== undefined) {
    return o === 0 ? FixedOffsetZone.utcInstance : FixedOffsetZone.instance(o);
  }
  if (token.includes('/') && IANAZone.isValidZone(token)) return IANAZone.create(token);
  return null;
}

function setZone(st: ParseState, token: string, counted = true) {
  if (counted && !haveZone(st)) return;
  const z = zoneFromToken(token.trim());
  if (!z) fail('The timezone could not be found in the database');
  st.zone = z;
}

const R: Rule[] = [];
function rule(name: string, src: string, act: Action) {
  R.push({ name, re: new RegExp(src, 'y'), act });
}

rule('yesterday', 'yesterday(?![a-z])', (_m, st) => {
  st.haveRelative = true;
  unhaveTime(st);
  st.rel.d = -1;
});
rule('now', 'now(?![a-z])', () => {});
rule('noon', 'noon(?![a-z])', (_m, st) => {
  unhaveTime(st);
  haveTime(st);
  st.h = 12;
});
rule('midnight|today', '(?:midnight|today)(?![a-z])', (_m, st) => unhaveTime(st));
rule('tomorrow', 'tomorrow(?![a-z])', (_m, st) => {
  st.haveRelative = true;
  unhaveTime(st);
  st.rel.d = 1;
});
rule('timestamp', '@(-?[0-9]+)(?:\\.([0-9]{1,6}))?', (m, st) => {
  st.haveRelative = true;
  st.haveDate = false;
  unhaveTime(st);
  if (haveZone(st)) st.zone = FixedOffsetZone.utcInstance;
  st.y = 1970;
  st.m = 1;
  st.d = 1;
  st.h = st.i = st.s = 0;
  st.ms = 0;
  st.rel.s += num(m[1]);
  if (m[2]) st.ms = (group(m, 1).startsWith('-') ? -1 : 1) * fracMs(m[2]);
});
rule('firstdayof|lastdayof', '(first|last) day of(?![a-z])', (m, st) => {
  st.haveRelative = true;
  st.rel.firstLast = m[1] === 'last' ? 2 : 1;
});
rule('backof|frontof', `(back|front) of (${HOUR24})(?:${SPACE})?(?:${MERIDIAN})?`, (m, st) => {
  unhaveTime(st);
  haveTime(st);
  let h = num(m[2]);
  if (m[1] === 'back') {
    st.i = 15;
  } else {
    h -= 1;
    st.i = 45;
  }
  st.h = m[3] ? meridian(h, m[3]) : h;
});
rule('weekdayof', `(${RELTEXTNUMBER}|${RELTEXTTEXT})${SPACE}(${DAYFULL}|${DAYABBR})${SPACE}of(?![a-z])`, (m, st) => {
  st.haveRelative = true;
  const [amount, behavior] = lookup(RELTEXT, m[1]);
  if (amount > 0) {
    st.rel.special = 1;
    setRelative(st, amount, 1, group(m, 2));
  } else {
    st.rel.special = 2;
    setRelative(st, amount, behavior, group(m, 2));
  }
});
rule('time12', `(${HOUR12})(?:[:.](${MINUTE})(?:[:.](${SECONDLZ}))?)?(?:${SPACE})?${MERIDIAN}`, (m, st) => {
  haveTime(st);
  st.h = meridian(num(m[1]), group(m, 4));
  st.i = m[2] ? num(m[2]) : 0;
  st.s = m[3] ? num(m[3]) : 0;
});
rule('time24', `t?(${HOUR24})[:.](${MINUTE})(?:[:.](${SECOND})(?:\\.([0-9]+))?)?${NOT_DIGIT}`, (m, st) => {
  haveTime(st);
  st.h = num(m[1]);
  st.i = num(m[2]);
  st.s = m[3] ? num(m[3]) : 0;
  st.ms = fracMs(m[4]);
});
rule('gnunocolon', `t?(${HOUR24LZ})(${MINUTELZ})${NOT_DIGIT}`, (m, st) => {
  if (st.haveTime === 0) {
    st.h = num(m[1]);
    st.i = num(m[2]);
    st.s = 0;
  } else if (st.haveTime === 1) {
    st.y = num(group(m, 1) + group(m, 2));
  } else fail('Double time specification');
  st.haveTime++;
});
rule('iso8601nocolon', `t?(${HOUR24LZ})(${MINUTELZ})(${SECONDLZ})${NOT_DIGIT}`, (m, st) => {
  haveTime(st);
  st.h = num(m[1]);
  st.i = num(m[2]);
  st.s = num(m[3]);
});
rule('american', `(${MONTH})\\/(${DAY})(?:\\/([0-9]{1,4}))?${NOT_DIGIT}`, (m, st) => {
  haveDate(st);
  st.m = num(m[1]);
  st.d = num(m[2]);
  if (m[3]) st.y = processYear(m[3]);
});
rule(
  'iso8601date4|dateslash',
  `(?:([+-]?[0-9]{4})-(${MONTHLZ})-(${DAYLZ})|([0-9]{4})\\/(${MONTHLZ})\\/(${DAYLZ})\\/?|([0-9]{4})\\/(${MONTH})\\/(${DAY}))${NOT_DIGIT}`,
  (m, st) => {
    haveDate(st);
    const y = m[1] ?? m[4] ?? m[7];
    st.y = num(y);
    st.m = num(m[2] ?? m[5] ?? m[8]);
    st.d = num(m[3] ?? m[6] ?? m[9]);
  },
);
rule('iso8601date2', `([0-9]{2})-(${MONTHLZ})-(${DAYLZ})${NOT_DIGIT}`, (m, st) => {
  haveDate(st);
  st.y = processYear(group(m, 1));
  st.m = num(m[2]);
  st.d = num(m[3]);
});
rule('gnudateshorter', `([0-9]{4})-(${MONTH})${NOT_DIGIT}`, (m, st) => {
  haveDate(st);
  st.y = processYear(group(m, 1));
  st.m = num(m[2]);
  st.d = 1;
});
rule('gnudateshort', `([0-9]{1,4})-(${MONTH})-(${DAY})${NOT_DIGIT}`, (m, st) => {
  haveDate(st);
  st.y = processYear(group(m, 1));
  st.m = num(m[2]);
  st.d = num(m[3]);
});
rule('datefull', `(${DAY})[ \\t.-]*(${MONTHTEXT})[ \\t.-]*([0-9]{1,4})${NOT_DIGIT}`, (m, st) => {
  haveDate(st);
  st.d = num(m[1]);
  st.m = lookup(MONTHS, m[2]);
  st.y = processYear(group(m, 3));
});
rule('pointeddate4', `(${DAY})[.\\t-](${MONTH})[.-]([0-9]{4})${NOT_DIGIT}`, (m, st) => {
  haveDate(st);
  st.d = num(m[1]);
  st.m = num(m[2]);
  st.y = num(m[3]);
});
rule('pointeddate2', `(${DAY})[.\\t](${MONTH})\\.([0-9]{2})${NOT_DIGIT}`, (m, st) => {
  haveDate(st);
  st.d = num(m[1]);
  st.m = num(m[2]);
  st.y = processYear(group(m, 3));
});
rule('datenoday', `(${MONTHTEXT})[ .\\t-]*([0-9]{4})${NOT_DIGIT}`, (m, st) => {
  haveDate(st);
  st.m = lookup(MONTHS, m[1]);
  st.y = num(m[2]);
  st.d = 1;
});
rule('datenodayrev', `([0-9]{4})[ .\\t-]*(${MONTHTEXT})`, (m, st) => {
  haveDate(st);
  st.y = num(m[1]);
  st.m = lookup(MONTHS, m[2]);
  st.d = 1;
});
rule(
  'datetextual|datenoyear',
  `(${MONTHTEXT})[ .\\t-]*(${DAY})(?:[,.stndrh\\t ]+([0-9]{1,4})|[,.stndrh\\t ]*)`,
  (m, st) => {
    haveDate(st);
    st.m = lookup(MONTHS, m[1]);
    st.d = num(m[2]);
    if (m[3]) st.y = processYear(m[3]);
  },
);
rule('datenoyearrev', `(${DAY})[ .\\t-]*(${MONTHTEXT})`, (m, st) => {
  haveDate(st);
  st.d = num(m[1]);
  st.m = lookup(MONTHS, m[2]);
});
rule('datenocolon', `([0-9]{4})(${MONTHLZ})(${DAYLZ})${NOT_DIGIT}`, (m, st) => {
  haveDate(st);
  st.y = num(m[1]);
  st.m = num(m[2]);
  st.d = num(m[3]);
});
rule(
  'soap|xmlrpc|wddx|exif',
  `(?:([0-9]{4})-(${MONTHLZ})-(${DAYLZ})t(${HOUR24LZ}):(${MINUTELZ}):(${SECONDLZ})\\.([0-9]+)(${TZCORRECTION})?` +
    `|([0-9]{4})(${MONTHLZ})(${DAYLZ})t(${HOUR24}):?(${MINUTELZ}):?(${SECONDLZ})` +
    `|([0-9]{4})-(${MONTH})-(${DAY})t(${HOUR24}):(${MINUTE}):(${SECOND})` +
    `|([0-9]{4}):(${MONTHLZ}):(${DAYLZ}) (${HOUR24LZ}):(${MINUTELZ}):(${SECONDLZ}))${NOT_DIGIT}`,
  (m, st) => {
    haveTime(st);
    haveDate(st);
    const base = m[1] ? 1 : m[9] ? 9 : m[15] ? 15 : 21;
    st.y = num(m[base]);
    st.m = num(m[base + 1]);
    st.d = num(m[base + 2]);
    st.h = num(m[base + 3]);
    st.i = num(m[base + 4]);
    st.s = num(m[base + 5]);
    if (base === 1) {
      st.ms = fracMs(m[7]);
      if (m[8]) setZone(st, m[8], false);
    }
  },
);
rule('pgtextshort', `(${MONTHABBR})-(${DAYLZ})-([0-9]{1,4})${NOT_DIGIT}`, (m, st) => {
  haveDate(st);
  st.m = lookup(MONTHS, m[1]);
  st.d = num(m[2]);
  st.y = processYear(group(m, 3));
});
rule('pgtextreverse', `([0-9]{1,4})-(${MONTHABBR})-(${DAYLZ})${NOT_DIGIT}`, (m, st) => {
  haveDate(st);
  st.y = processYear(group(m, 1));
  st.m = lookup(MONTHS, m[2]);
  st.d = num(m[3]);
});
rule('year4', `([0-9]{4})${NOT_DIGIT}`, (m, st) => {
  st.y = num(m[1]);
});
rule('ago', 'ago(?![a-z])', (_m, st) => {
  const r = st.rel;
  r.y = -r.y;
  r.m = -r.m;
  r.d = -r.d;
  r.h = -r.h;
  r.i = -r.i;
  r.s = -r.s;
  r.weekday = -r.weekday;
  if (r.weekday === 0) r.weekday = -7;
});
rule('daytext', `(${DAYFULL}|${DAYABBR})(?![a-z])`, (m, st) => {
  st.haveRelative = true;
  st.rel.haveWeekday = true;
  unhaveTime(st);
  st.rel.weekday = lookup(WEEKDAYS, m[1]);
  if (st.rel.weekdayBehavior !== 2) st.rel.weekdayBehavior = 1;
});
rule('relativetextweek', `(${RELTEXTTEXT})${SPACE}week(?![a-z])`, (m, st) => {
  st.haveRelative = true;
  const [amount, behavior] = lookup(RELTEXT, m[1]);
  setRelative(st, amount, behavior, 'week');
  st.rel.weekdayBehavior = 2;
  if (!st.rel.haveWeekday) {
    st.rel.haveWeekday = true;
    st.rel.weekday = 1;
  }
});
rule('relativetext', `(${RELTEXTNUMBER}|${RELTEXTTEXT})${SPACE}(${RELUNIT})`, (m, st) => {
  st.haveRelative = true;
  const [amount, behavior] = lookup(RELTEXT, m[1]);
  setRelative(st, amount, behavior, group(m, 2));
});
rule('monthtext', `(${MONTHFULL}|${MONTHABBR})(?![a-z])`, (m, st) => {
  haveDate(st);
  st.m = lookup(MONTHS, m[1]);
});
rule('tzcorrection|tz', `(${TZCORRECTION}|${TZ})`, (m, st) => setZone(st, group(m, 1)));
rule(
  'dateshortwithtime12',
  `(${MONTHTEXT})[ .\\t-]*(${DAY})[,.stndrh\\t ]*(${HOUR12})[:.](${MINUTE})(?:[:.](${SECONDLZ}))?(?:${SPACE})?${MERIDIAN}`,
  (m, st) => {
    haveDate(st);
    st.m = lookup(MONTHS, m[1]);
    st.d = num(m[2]);
    haveTime(st);
    st.h = meridian(num(m[3]), group(m, 6));
    st.i = num(m[4]);
    st.s = m[5] ? num(m[5]) : 0;
  },
);
rule(
  'dateshortwithtime24',
  `(${MONTHTEXT})[ .\\t-]*(${DAY})[,.stndrh\\t ]*t?(${HOUR24})[:.](${MINUTE})(?:[:.](${SECOND})(?:\\.([0-9]+))?)?${NOT_DIGIT}(?:(?:${SPACE})?(${TZCORRECTION}|${TZ}))?`,
  (m, st) => {
    haveDate(st);
    st.m = lookup(MONTHS, m[1]);
    st.d = num(m[2]);
    haveTime(st);
    st.h = num(m[3]);
    st.i = num(m[4]);
    st.s = m[5] ? num(m[5]) : 0;
    st.ms = fracMs(m[6]);
    if (m[7]) setZone(st, m[7], false);
  },
);
rule('relative', `([+-]*)[ \\t]*([0-9]{1,13})(?:${SPACE})?(${RELUNIT})`, (m, st) => {
  st.haveRelative = true;
  const negative = (group(m, 1).match(/-/g)?.length ?? 0) % 2 === 1;
  const amount = (negative ? -1 : 1) * num(m[2]);
  setRelative(st, amount, 1, group(m, 3), true);
});

const SKIP = /[ .,\t\n\r\v\f]+/y;

function scan(text: string): ParseState {
  const st = newState();
  let pos = 0;
  while (pos < text.length) {
    SKIP.lastIndex = pos;
    if (SKIP.exec(text)) {
      pos = SKIP.lastIndex;
      continue;
    }
    let best: { rule: Rule; m: RegExpExecArray } | null = null;
    for (const r of R) {
      r.re.lastIndex = pos;
      const m = r.re.exec(text);
      if (m && m[0].length > 0 && (!best || m[0].length > best.m[0].length)) best = { rule: r, m };
    }
    if (!best) fail(`Unexpected character at ${pos}`);
    best!.rule.act(best!.m, st);
    pos += best!.m[0].length;
  }
  return st;
}

interface Fields extends Ymdhis {
  ms: number;
}

function normalize(f: Fields): Fields {
  const t = wallMillis({ year: f.y, month: f.m, day: f.d, hour: f.h, minute: f.i, second: f.s, millisecond: f.ms });
  if (!Number.isFinite(t)) fail('out of range');
  const d = new Date(t);
  return {
    y: d.getUTCFullYear(),
    m: d.getUTCMonth() + 1,
    d: d.getUTCDate(),
    h: d.getUTCHours(),
    i: d.getUTCMinutes(),
    s: d.getUTCSeconds(),
    ms: d.getUTCMilliseconds(),
  };
}

const dayOfWeek = (f: Fields): number => new Date(wallMillis({ year: f.y, month: f.m, day: f.d, hour: 0, minute: 0, second: 0 })).getUTCDay();

function adjustForWeekday(f: Fields, r: Relative) {
  const current = dayOfWeek(f);
  let weekday = r.weekday;
  if (r.weekdayBehavior === 2) {
    if (current === 0 && weekday !== 0) weekday -= 7;
    if (weekday === 0 && current !== 0) weekday = 7;
    f.d += weekday - current;
    return;
  }
  let difference = weekday - current;
  if ((r.d < 0 && difference < 0) || (r.d >= 0 && difference <= -r.weekdayBehavior)) difference += 7;
  if (weekday >= 0) f.d += difference;
  else f.d -= 7 - (Math.abs(weekday) - current);
}

/** timelib_fill_holes + timelib_update_ts: the resulting epoch ms. */
function resolve(st: ParseState, now: Date, defaultZone: Zone): number {
  const zone = st.zone ?? defaultZone;
  const n = DateTime.fromJSDate(now, { zone });
  let { y, m, d, h, i, s, ms } = st;
  if (st.haveDate && !st.haveTime) {
    h = 0;
    i = 0;
    s = 0;
    ms = 0;
  }
  if (y !== null || m !== null || d !== null || h !== null || i !== null || s !== null) ms ??= 0;
  else ms ??= n.millisecond;
  let f: Fields = { y: y ?? n.year, m: m ?? n.month, d: d ?? n.day, h: h ?? n.hour, i: i ?? n.minute, s: s ?? n.second, ms };
  const r = st.rel;
  if (r.special === 1) {
    f.d = 1;
    f.m += r.m;
    r.m = 0;
  } else if (r.special === 2) {
    f.d = 1;
    f.m += r.m + 1;
    r.m = 0;
  }
  if (r.haveWeekday) {
    f = normalize(f);
    adjustForWeekday(f, r);
  }
  f = normalize(f);
  if (st.haveRelative) {
    f.s += r.s;
    f.i += r.i;
    f.h += r.h;
    f.d += r.d;
    f.m += r.m;
    f.y += r.y;
  }
  if (r.firstLast === 1) f.d = 1;
  else if (r.firstLast === 2) {
    f.d = 0;
    f.m += 1;
  }
  f = normalize(f);
  const t = wallFieldsToMillis({ year: f.y, month: f.m, day: f.d, hour: f.h, minute: f.i, second: f.s, millisecond: f.ms }, zone);
  if (!Number.isFinite(t)) fail('out of range');
  return t;
}

/**
 * Parses date text the way the plugin does (contract §7.3.1): an integer (or integer string) is an
 * epoch in seconds; anything else goes through a port of PHP's `strtotime`. Relative phrases are
 * relative to `now` in `zone`; text without an offset is wall time in `zone`; text with an offset or
 * zone name (`Z`, `+02:00`, `EST`, `Europe/Paris`) is read in that zone. The result is the instant,
 * expressed in `zone`. Returns null for text PHP rejects (`garbage`, `""`, quoted words…) and for
 * a zone label that does not resolve.
 */
export function parseDateText(text: string | number, zone: string | Zone, now: Date = new Date()): DateTime | null {
  let z: Zone;
  try {
    z = toZone(zone);
  } catch {
    return null;
  }
  if (typeof text === 'number') {
    if (!Number.isInteger(text)) return null;
    const dt = DateTime.fromMillis(text * 1000, { zone: z });
    return dt.isValid ? dt : null;
  }
  if (typeof text !== 'string') return null;
  const trimmed = text.trim();
  if (!trimmed || trimmed.length > 200) return null;
  if (/^[+-]?[0-9]+$/.test(trimmed)) {
    const seconds = Number(trimmed);
    if (!Number.isSafeInteger(seconds)) return null;
    const dt = DateTime.fromMillis(seconds * 1000, { zone: z });
    return dt.isValid ? dt : null;
  }
  try {
    const st = scan(trimmed.toLowerCase());
    const ms = resolve(st, now, z);
    const dt = DateTime.fromMillis(ms, { zone: z });
    return dt.isValid ? dt : null;
  } catch (e) {
    if (e instanceof ParseFailure) return null;
    throw e;
  }
}

/** True when `parseDateText` accepts the text (the `is_time` validator). */
export function isDateText(text: unknown): boolean {
  if (typeof text !== 'string' && typeof text !== 'number') return false;
  return parseDateText(text, 'UTC') !== null;
}
