import { describe, expect, it } from 'vitest';
import { dateToWallClock } from '../../src/domain/wall-clock.ts';
import { computeEventDates, type EventDates, type EventDatesInput, type EventDatesResult } from '../../src/domain/event-dates.ts';

const NOW = new Date('2026-11-21T12:12:41Z');

function ok(result: EventDatesResult): EventDates {
  if ('invalid' in result) throw new Error(`invalid ${result.invalid}`);
  return result;
}
/** The dates computed at NOW, checked to carry these start and end wall clocks, local and UTC. */
function expectWalls(input: Omit<EventDatesInput, 'now'>, [startLocal, endLocal]: [string, string], [startUtc, endUtc]: [string, string]): EventDates {
  const d = ok(computeEventDates({ ...input, now: NOW }));
  expect({
    startLocal: dateToWallClock(d.startLocal),
    endLocal: dateToWallClock(d.endLocal),
    startUtc: dateToWallClock(d.startUtc),
    endUtc: dateToWallClock(d.endUtc),
  }).toEqual({ startLocal, endLocal, startUtc, endUtc });
  return d;
}

describe('computeEventDates', () => {
  it('reads text in the event zone and derives UTC (sample POST_events_201)', () => {
    const d = expectWalls(
      { start: '2026-12-05 19:00:00', end: '2026-12-05 22:30:00', timezone: 'America/New_York' },
      ['2026-12-05 19:00:00', '2026-12-05 22:30:00'],
      ['2026-12-06 00:00:00', '2026-12-06 03:30:00'],
    );
    expect(d.text.startUtc).toBe('2026-12-06 00:00:00');
    expect(d.timezone).toBe('America/New_York');
    expect(d.timezoneAbbr).toBe('EST');
    expect(d.allDay).toBe(false);
  });

  it('makes all-day events span whole days (sample POST_events_201_all_day)', () => {
    const d = expectWalls(
      { start: '2026-12-12', end: '2026-12-13', allDay: true, timezone: 'Europe/Paris' },
      ['2026-12-12 00:00:00', '2026-12-13 23:59:59'],
      ['2026-12-11 23:00:00', '2026-12-13 22:59:59'],
    );
    expect(d.timezoneAbbr).toBe('CET');
  });

  it('shifts all-day bounds by the multi-day cutoff', () => {
    const d = ok(
      computeEventDates({ start: '2026-12-12 15:00', end: '2026-12-13 10:00', allDay: true, timezone: 'UTC', multiDayCutoff: '06:00', now: NOW }),
    );
    expect(d.text.startLocal).toBe('2026-12-12 06:00:00');
    expect(d.text.endLocal).toBe('2026-12-14 05:59:59');
  });

  it('clamps an end before the start, UTC included (sample POST_events_201_end_before_start, REC)', () => {
    const d = expectWalls(
      { start: '2026-12-10 10:00:00', end: '2026-12-10 09:00:00', timezone: 'America/New_York' },
      ['2026-12-10 10:00:00', '2026-12-10 10:00:00'],
      ['2026-12-10 15:00:00', '2026-12-10 15:00:00'],
    );
    expect(d.clamped).toBe(true);
  });

  it('clamps all-day events to the end of the start day', () => {
    const d = ok(computeEventDates({ start: '2026-12-13', end: '2026-12-12', allDay: true, timezone: 'UTC', now: NOW }));
    expect(d.text.startLocal).toBe('2026-12-13 00:00:00');
    expect(d.text.endLocal).toBe('2026-12-13 23:59:59');
  });

  it('converts epochs to the event zone (REC)', () => {
    expectWalls(
      { start: 1767398400, end: '1767402000', timezone: 'America/New_York' },
      ['2026-01-02 19:00:00', '2026-01-02 20:00:00'],
      ['2026-01-03 00:00:00', '2026-01-03 01:00:00'],
    );
  });

  it('reads relative text relative to now in the event zone', () => {
    const d = ok(computeEventDates({ start: 'tomorrow 9am', end: 'tomorrow 11am', timezone: 'Europe/Paris', now: NOW }));
    expect(d.text.startLocal).toBe('2026-11-22 09:00:00');
    expect(d.text.startUtc).toBe('2026-11-22 08:00:00');
  });

  it('uses fixed offsets for UTC±h labels', () => {
    const d = ok(computeEventDates({ start: '2026-07-01 12:00:00', end: '2026-07-01 13:00:00', timezone: 'UTC+2', now: NOW }));
    expect(d.text.startUtc).toBe('2026-07-01 10:00:00');
    expect(d.timezone).toBe('UTC+2');
    expect(d.timezoneAbbr).toBe('UTC+2');
  });

  it('stores the label TEC would store', () => {
    const d = ok(computeEventDates({ start: '2026-07-01 12:00:00', end: '2026-07-01 13:00:00', timezone: '+05:30', now: NOW }));
    expect(d.timezone).toBe('UTC+5:30');
    expect(d.text.startUtc).toBe('2026-07-01 06:30:00');
  });

  it('names the unparseable input', () => {
    expect(computeEventDates({ start: 'garbage', end: '2026-12-10 10:00:00', timezone: 'UTC', now: NOW })).toEqual({ invalid: 'startDate' });
    expect(computeEventDates({ start: '2026-12-10', end: '', timezone: 'UTC', now: NOW })).toEqual({ invalid: 'endDate' });
    expect(computeEventDates({ start: '2026-12-10', end: '2026-12-11', timezone: 'Mars/Olympus', now: NOW })).toEqual({ invalid: 'timezone' });
  });
});
