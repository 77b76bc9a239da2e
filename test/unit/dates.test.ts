import { describe, expect, it } from 'vitest';
import { beginningOfDay, dateToWallClock, endOfDay, formatWallClock, localToUtc, utcToLocal, wallClockToDate } from '../../src/domain/wall-clock.ts';
import { isDateText, parseDateText } from '../../src/domain/strtotime.ts';
import { dateDetails } from '../../rest-facade/presenters/util.ts';
import { describeCases } from '../helpers/cases.ts';

const NY = 'America/New_York';
// Saturday 2026-11-21 06:55:56 in New York (the samples' clock).
const NOW = new Date('2026-11-21T11:55:56Z');
/** The wall clock `text` names, read in `zone` at `now` (null: no date). */
const wallIn = (text: string | number, zone: string, now = NOW) => {
  const dt = parseDateText(text, zone, now);
  return dt ? formatWallClock(dt) : null;
};
/** The same in New York at the samples' clock. */
const wall = (text: string | number) => wallIn(text, NY);

describe('wall-clock helpers', () => {
  it('maps wall clocks to Dates whose UTC components equal them, and back', () => {
    expect(wallClockToDate('2026-12-05 19:00:00').getTime()).toBe(Date.UTC(2026, 11, 5, 19));
    expect(dateToWallClock(new Date(Date.UTC(2026, 11, 5, 19, 0, 7)))).toBe('2026-12-05 19:00:07');
    expect(dateToWallClock(wallClockToDate('0999-01-02 03:04:05'))).toBe('0999-01-02 03:04:05');
    expect(() => wallClockToDate('garbage')).toThrow();
  });

  it('splits date details into zero-padded strings (§4.2.1)', () => {
    expect(dateDetails('2026-12-05 19:00:00')).toEqual({ year: '2026', month: '12', day: '05', hour: '19', minutes: '00', seconds: '00' });
    expect(dateDetails('2026-01-02 03:04:05')).toEqual({ year: '2026', month: '01', day: '02', hour: '03', minutes: '04', seconds: '05' });
  });

  it('converts between local and UTC wall clocks', () => {
    expect(localToUtc('2026-12-05 19:00:00', NY)).toBe('2026-12-06 00:00:00');
    expect(localToUtc('2026-12-12 00:00:00', 'Europe/Paris')).toBe('2026-12-11 23:00:00');
    expect(localToUtc('2026-12-13 23:59:59', 'Europe/Paris')).toBe('2026-12-13 22:59:59');
    expect(localToUtc('2026-07-01 12:00:00', 'UTC+2')).toBe('2026-07-01 10:00:00');
    expect(localToUtc('2026-07-01 12:00:00', 'UTC-5:30')).toBe('2026-07-01 17:30:00');
    expect(utcToLocal('2026-12-06 00:00:00', NY)).toBe('2026-12-05 19:00:00');
    expect(utcToLocal(new Date('2026-11-20T23:59:00Z'), NY)).toBe('2026-11-20 18:59:00');
  });

  it('resolves DST gaps forward and overlaps to the first (DST) reading, like PHP', () => {
    expect(localToUtc('2026-03-08 02:30:00', NY)).toBe('2026-03-08 07:30:00');
    expect(localToUtc('2026-11-01 01:30:00', NY)).toBe('2026-11-01 05:30:00');
  });

  it('computes day boundaries with the multi-day cutoff', () => {
    expect(beginningOfDay('2026-12-12')).toBe('2026-12-12 00:00:00');
    expect(endOfDay('2026-12-13')).toBe('2026-12-13 23:59:59');
    expect(beginningOfDay('2026-12-12', '06:00')).toBe('2026-12-12 06:00:00');
    expect(endOfDay('2026-12-31', '06:00')).toBe('2027-01-01 05:59:59');
  });
});

describe('parseDateText: the "must work" list of §7.3.1', () => {
  describeCases({ wall }, {
    "reads the list in New York at the samples' clock": [
      ['2026-12-05 19:00:00', '2026-12-05 19:00:00'],
      ['2026-12-05', '2026-12-05 00:00:00'],
      ['2026-12-05 19:00', '2026-12-05 19:00:00'],
      ['2026-12-05T19:00:00Z', '2026-12-05 14:00:00'],
      ['2026-12-05T19:00:00+02:00', '2026-12-05 12:00:00'],
      ['@1767398400', '2026-01-02 19:00:00'],
      ['1767398400', '2026-01-02 19:00:00'],
      ['12/05/2026', '2026-12-05 00:00:00'],
      ['5 December 2026 7pm', '2026-12-05 19:00:00'],
      ['now', '2026-11-21 06:55:56'],
      ['today', '2026-11-21 00:00:00'],
      ['tomorrow', '2026-11-22 00:00:00'],
      ['yesterday', '2026-11-20 00:00:00'],
      ['midnight', '2026-11-21 00:00:00'],
      ['noon', '2026-11-21 12:00:00'],
      ['tomorrow 9am', '2026-11-22 09:00:00'],
      ['tomorrow 00:00:00', '2026-11-22 00:00:00'],
      ['tomorrow 23:59:59', '2026-11-22 23:59:59'],
      ['next wednesday 4pm', '2026-11-25 16:00:00'],
      ['+5 days 11am', '2026-11-26 11:00:00'],
      ['+1 month', '2026-12-21 06:55:56'],
      ['-1 week', '2026-11-14 06:55:56'],
      ['2018-01-01 4pm', '2018-01-01 16:00:00'],
      ['tomorrow 11am', '2026-11-22 11:00:00'],
    ],
    'follows PHP relative arithmetic': [
      ['11am tomorrow', '2026-11-22 00:00:00'], // "tomorrow" resets the time
      ['1 week ago', '2026-11-14 06:55:56'],
      ['+1 week 2 days', '2026-11-30 06:55:56'],
      ['saturday', '2026-11-21 00:00:00'], // today counts
      ['next saturday', '2026-11-28 00:00:00'],
      ['last saturday', '2026-11-14 00:00:00'],
      ['first day of next month', '2026-12-01 06:55:56'],
      ['last day of next month', '2026-12-31 06:55:56'],
      ['first monday of january 2027', '2027-01-04 00:00:00'],
      ['last friday of next month', '2026-12-25 00:00:00'],
      ['monday next week', '2026-11-23 00:00:00'],
    ],
    'understands the usual date and time spellings': [
      ['December 2026', '2026-12-01 00:00:00'],
      ['Dec 5, 2026', '2026-12-05 00:00:00'],
      ['December 5th 2026 7:30 PM', '2026-12-05 19:30:00'],
      ['dec 5 19:00', '2026-12-05 19:00:00'],
      ['05-12-2026', '2026-12-05 00:00:00'],
      ['5.12.2026', '2026-12-05 00:00:00'],
      ['2026/12/05', '2026-12-05 00:00:00'],
      ['2026-12-05T19:00', '2026-12-05 19:00:00'],
      ['2026-12-05 1600', '2026-12-05 16:00:00'],
      ['10:30', '2026-11-21 10:30:00'],
      ['7:30 p.m.', '2026-11-21 19:30:00'],
      ['12am', '2026-11-21 00:00:00'],
      ['12pm', '2026-11-21 12:00:00'],
      ['24:00', '2026-11-22 00:00:00'],
      ['2026-02-30', '2026-03-02 00:00:00'], // PHP: a warning, not an error
      ['  TOMORROW  ', '2026-11-22 00:00:00'],
    ],
  });

  it('accepts epoch numbers', () => {
    expect(wall(1767398400)).toBe('2026-01-02 19:00:00');
    expect(parseDateText(1767398400, 'UTC')?.toISO()).toBe('2026-01-03T00:00:00.000Z');
    expect(parseDateText(1.5, 'UTC')).toBeNull();
  });

  it('returns the instant: offsets in the text are honoured', () => {
    expect(parseDateText('2026-12-05T19:00:00+02:00', NY, NOW)?.toUTC().toISO()).toBe('2026-12-05T17:00:00.000Z');
    expect(parseDateText('2026-12-05T19:00:00.250Z', 'UTC', NOW)?.toISO()).toBe('2026-12-05T19:00:00.250Z');
    expect(wall('2026-12-05 19:00:00 Europe/Paris')).toBe('2026-12-05 13:00:00');
    expect(wallIn('2026-12-05 19:00 EST', 'UTC')).toBe('2026-12-06 00:00:00');
    expect(wall('Sat, 05 Dec 2026 19:00:00 +0000')).toBe('2026-12-05 14:00:00');
  });

  it('reads relative phrases relative to now in the given zone', () => {
    // 2026-11-21 23:30 New York is already the 22nd in UTC and in Paris.
    const late = new Date('2026-11-22T04:30:00Z');
    expect(wallIn('tomorrow 9am', NY, late)).toBe('2026-11-22 09:00:00');
    expect(wallIn('tomorrow 9am', 'Europe/Paris', late)).toBe('2026-11-23 09:00:00');
    expect(wallIn('today', 'UTC+2', late)).toBe('2026-11-22 00:00:00');
  });

  it('follows PHP relative arithmetic in other zones and at other times', () => {
    expect(wallIn('+1 month', 'UTC', new Date('2027-01-31T10:00:00Z'))).toBe('2027-03-03 10:00:00'); // overflow
    expect(wallIn('yesterday 23:59', 'UTC')).toBe('2026-11-20 23:59:00');
    expect(wallIn('+24 months', 'UTC')).toBe('2028-11-21 11:55:56');
  });

  it('rejects the "must fail" list and other garbage', () => {
    for (const text of ['garbage', '"before my birthday"', 'not a strtotime parsable string', '', '   ', 'foo', '2026-13-01', 'tomorrow tomorrow 9am 10am', '2026-12-05 2026-12-06']) {
      expect(parseDateText(text, NY, NOW), text).toBeNull();
    }
    expect(isDateText('garbage')).toBe(false);
    expect(isDateText('tomorrow')).toBe(true);
    expect(isDateText(1767398400)).toBe(true);
  });
});
