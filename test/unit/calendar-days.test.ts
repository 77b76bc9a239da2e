import { describe, expect, it } from 'vitest';
import { addDays, dayStart, eachDay, eventDaySpan, parseCalendarDate } from '../../src/domain/calendar-days.ts';

describe('calendar days (month and day views)', () => {
  it('a timed event covers the days from its start to the day before an end at the day boundary', () => {
    expect(eventDaySpan('2026-12-05 19:00:00', '2026-12-05 22:00:00', false)).toEqual({ first: '2026-12-05', last: '2026-12-05' });
    expect(eventDaySpan('2026-12-10 10:00:00', '2026-12-12 18:00:00', false)).toEqual({ first: '2026-12-10', last: '2026-12-12' });
    expect(eventDaySpan('2026-12-18 22:00:00', '2026-12-19 00:00:00', false)).toEqual({ first: '2026-12-18', last: '2026-12-18' });
    expect(eventDaySpan('2026-12-18 22:00:00', '2026-12-19 00:00:01', false)).toEqual({ first: '2026-12-18', last: '2026-12-19' });
    // A moment (start = end) is on its day.
    expect(eventDaySpan('2026-12-19 00:00:00', '2026-12-19 00:00:00', false)).toEqual({ first: '2026-12-19', last: '2026-12-19' });
  });

  it('the multi-day cutoff moves the day boundary; all-day events keep their dates', () => {
    expect(eventDaySpan('2026-12-18 22:00:00', '2026-12-19 05:00:00', false, '06:00')).toEqual({ first: '2026-12-18', last: '2026-12-18' });
    expect(eventDaySpan('2026-12-19 02:00:00', '2026-12-19 04:00:00', false, '06:00')).toEqual({ first: '2026-12-18', last: '2026-12-18' });
    expect(eventDaySpan('2026-12-18 22:00:00', '2026-12-19 07:00:00', false, '06:00')).toEqual({ first: '2026-12-18', last: '2026-12-19' });
    expect(eventDaySpan('2026-12-20 00:00:00', '2026-12-21 23:59:59', true, '06:00')).toEqual({ first: '2026-12-20', last: '2026-12-21' });
    // As an all-day event is stored with that cutoff: from 06:00 on its day to 05:59:59 the next.
    expect(eventDaySpan('2026-12-20 06:00:00', '2026-12-21 05:59:59', true, '06:00')).toEqual({ first: '2026-12-20', last: '2026-12-20' });
    expect(dayStart('2026-12-19', '06:00')).toBe('2026-12-19 06:00:00');
  });

  it('dates: real ones only; ranges across months and years', () => {
    expect(parseCalendarDate('2026-02-30')).toBeNull();
    expect(parseCalendarDate('2026-13-01')).toBeNull();
    expect(parseCalendarDate('2026-1-01')).toBeNull();
    expect(parseCalendarDate('2028-02-29')?.toISODate()).toBe('2028-02-29');
    expect(eachDay('2026-12-30', '2027-01-02')).toEqual(['2026-12-30', '2026-12-31', '2027-01-01', '2027-01-02']);
    expect(addDays('2026-02-28', 1)).toBe('2026-03-01');
  });
});
