/** Rule checks and expansion (src/domain/recurrence.ts), without a database. */
import { describe, expect, it } from 'vitest';
import { expandSeries, materializationStart, parseSeriesRule, splitRules, MAX_OCCURRENCES_PER_SERIES } from '../../src/domain/recurrence.ts';
import { dateToWallClock, wallClockToDate } from '../../src/domain/wall-clock.ts';

const at = wallClockToDate;
const setOf = (rules: string[], start: string, zone = 'UTC', rdates: string[] = [], exdates: string[] = []) => ({
  rules: rules.map((r) => parseSeriesRule(r, zone)),
  anchor: at(start),
  rdates: rdates.map(at),
  exdates: exdates.map(at),
});
const expand = (rule: string, start: string, until = '2040-01-01 00:00:00', zone = 'UTC') =>
  expandSeries(setOf([rule], start, zone), { until: at(until) }).starts.map(dateToWallClock);

describe('expandSeries', () => {
  it('finds leap days only in leap years', () => {
    expect(expand('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=3', '2028-02-29 12:00:00')).toEqual([
      '2028-02-29 12:00:00',
      '2032-02-29 12:00:00',
      '2036-02-29 12:00:00',
    ]);
    expect(expand('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1;COUNT=2', '2027-02-28 12:00:00')).toEqual(['2027-02-28 12:00:00', '2028-02-29 12:00:00']);
  });

  it('reads UNTIL in UTC as an instant and a bare UNTIL as the local day', () => {
    expect(expand('FREQ=DAILY;UNTIL=20270107T000000Z', '2027-01-05 19:00:00', undefined, 'America/New_York')).toEqual([
      '2027-01-05 19:00:00',
      '2027-01-06 19:00:00',
    ]);
    expect(expand('FREQ=DAILY;UNTIL=20270107', '2027-01-05 19:00:00', undefined, 'America/New_York')).toHaveLength(3);
  });

  it('stops at the horizon and says there is more', () => {
    const r = expandSeries(setOf(['FREQ=WEEKLY'], '2027-01-01 10:00:00'), { until: at('2027-01-31 00:00:00') });
    expect(r.starts).toHaveLength(5);
    expect(r.more).toBe(true);
    expect(dateToWallClock(r.until)).toBe('2027-01-31 00:00:00');
  });

  it('unions several rules and RDATEs; a set of RDATEs only starts at DTSTART', () => {
    const two = expandSeries(setOf(['FREQ=WEEKLY;BYDAY=MO;COUNT=2', 'FREQ=WEEKLY;BYDAY=WE;COUNT=2'], '2027-01-04 10:00:00', 'UTC', ['2027-01-05 08:00:00']), {
      until: at('2028-01-01 00:00:00'),
    });
    expect(two.starts.map(dateToWallClock)).toEqual(['2027-01-04 10:00:00', '2027-01-05 08:00:00', '2027-01-06 10:00:00', '2027-01-11 10:00:00', '2027-01-13 10:00:00']);
    expect(two.more).toBe(false);
    const dates = expandSeries(setOf([], '2027-01-04 10:00:00', 'UTC', ['2027-02-01 10:00:00'], []), { until: at('2028-01-01 00:00:00') });
    expect(dates.starts.map(dateToWallClock)).toEqual(['2027-01-04 10:00:00', '2027-02-01 10:00:00']);
  });

  it('bounds a set denser than the cap at its last occurrence kept instead of refusing it, counting from capFrom', () => {
    const daily = expandSeries(setOf(['FREQ=DAILY;COUNT=5000'], '2027-01-01 10:00:00'), { until: at('2040-01-01 00:00:00') });
    expect(daily.starts).toHaveLength(MAX_OCCURRENCES_PER_SERIES);
    expect(daily.more).toBe(true);
    expect(daily.until).toEqual(daily.starts.at(-1));
    // Occurrences before capFrom (the past) do not count.
    const past = expandSeries(setOf(['FREQ=DAILY'], '2020-01-01 10:00:00'), { until: at('2027-01-01 00:00:00'), capFrom: at('2026-06-01 00:00:00') });
    expect(past.starts.length).toBeGreaterThan(2500);
    expect(past.more).toBe(true);
  });
});

describe('materializationStart', () => {
  it('is DTSTART unless more than the cap lie before now: then the first of the last ones kept', () => {
    const now = at('2026-11-21 12:00:00');
    expect(materializationStart(setOf(['FREQ=WEEKLY'], '2020-01-06 10:00:00'), now)).toEqual(at('2020-01-06 10:00:00'));
    const start = materializationStart(setOf(['FREQ=DAILY'], '2015-01-01 10:00:00'), now);
    expect(dateToWallClock(start)).toBe('2024-02-26 10:00:00');
    const { starts } = expandSeries(setOf(['FREQ=DAILY'], '2015-01-01 10:00:00'), { from: start, until: now });
    expect(starts).toHaveLength(MAX_OCCURRENCES_PER_SERIES);
  });
});

describe('splitRules', () => {
  it('ends the rules before the cut and continues them from it: COUNT keeps what is left, UNTIL moves with the shift', () => {
    const set = setOf(['FREQ=DAILY;COUNT=10', 'FREQ=WEEKLY;UNTIL=20270301T000000Z'], '2027-01-04 10:00:00');
    const split = splitRules(set.rules, set.anchor, at('2027-01-08 10:00:00'), 'UTC', 3_600_000);
    expect(split.before).toEqual(['FREQ=DAILY;UNTIL=20270108T095959Z', 'FREQ=WEEKLY;UNTIL=20270108T095959Z']);
    expect(split.after).toEqual(['FREQ=DAILY;COUNT=6', 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20270301T010000Z']);
  });

  it('gives up (null) when the shift changes the day of a rule bound to days', () => {
    const set = setOf(['FREQ=WEEKLY;BYDAY=MO'], '2027-01-04 10:00:00');
    expect(splitRules(set.rules, set.anchor, at('2027-01-11 10:00:00'), 'UTC', 86_400_000).after).toBeNull();
    expect(splitRules(set.rules, set.anchor, at('2027-01-11 10:00:00'), 'UTC', 3_600_000).after).toEqual(['FREQ=WEEKLY;BYDAY=MO']);
  });
});
