/** Rule checks and expansion (src/domain/recurrence.ts), without a database. */
import { describe, expect, it } from 'vitest';
import { expandSeries, parseSeriesRule } from '../../src/domain/recurrence.ts';
import { dateToWallClock, wallClockToDate } from '../../src/domain/wall-clock.ts';

const expand = (rule: string, start: string, until = '2040-01-01 00:00:00', zone = 'UTC') =>
  expandSeries(parseSeriesRule(rule, zone), wallClockToDate(start), [], [], wallClockToDate(until)).starts.map(dateToWallClock);

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
    const r = expandSeries(parseSeriesRule('FREQ=WEEKLY', 'UTC'), wallClockToDate('2027-01-01 10:00:00'), [], [], wallClockToDate('2027-01-31 00:00:00'));
    expect(r.starts).toHaveLength(5);
    expect(r.more).toBe(true);
  });
});
