import { describe, expect, it } from 'vitest';
import { defaultWindow, normalizeBound, resolveEventWindow } from '../../src/domain/date-window.ts';

const NY = 'America/New_York';
const NOW = new Date('2026-11-21T11:55:56Z');
const settings = { now: NOW, siteTimezone: NY, cutoff: '00:00' };

describe('defaultWindow', () => {
  it('is "yesterday 23:59" (UTC) in site time and now + 24 months in UTC', () => {
    expect(defaultWindow({ now: NOW, siteTimezone: NY })).toEqual({
      startDateRaw: '2026-11-20 18:59:00',
      endDateRaw: '2028-11-21 11:55:56',
    });
  });

  it('depends on the site zone for the start only', () => {
    expect(defaultWindow({ now: NOW, siteTimezone: 'Asia/Tokyo' })).toEqual({
      startDateRaw: '2026-11-21 08:59:00',
      endDateRaw: '2028-11-21 11:55:56',
    });
  });
});

describe('normalizeBound', () => {
  const opts = { strict: false, siteTimezone: NY, cutoff: '00:00', now: NOW };
  it('uses whole days in non-strict mode', () => {
    expect(normalizeBound('startDate', '2026-12-09', opts)).toBe('2026-12-09 00:00:00');
    expect(normalizeBound('endDate', '2026-12-15', opts)).toBe('2026-12-15 23:59:59');
    expect(normalizeBound('startsAfter', '2026-12-11 00:00:00', opts)).toBe('2026-12-11 23:59:59');
    expect(normalizeBound('startsBefore', '2026-12-11 10:00:00', opts)).toBe('2026-12-11 23:59:59');
    expect(normalizeBound('endsBefore', '2026-12-11', opts)).toBe('2026-12-11 23:59:59');
    expect(normalizeBound('endsAfter', '2017-12-31', opts)).toBe('2017-12-31 23:59:59');
    expect(normalizeBound('startDate', '2026-11-20 18:59:00', opts)).toBe('2026-11-20 00:00:00');
    expect(normalizeBound('endDate', '2028-11-21 11:55:56', opts)).toBe('2028-11-21 23:59:59');
  });

  it('takes the UTC date of epochs and offset text', () => {
    expect(normalizeBound('startDate', 1767398400, opts)).toBe('2026-01-03 00:00:00');
    expect(normalizeBound('startDate', '2026-12-05T01:00:00+02:00', opts)).toBe('2026-12-04 00:00:00');
  });

  it('applies the multi-day cutoff', () => {
    const cut = { ...opts, cutoff: '06:00' };
    expect(normalizeBound('startDate', '2026-12-09', cut)).toBe('2026-12-09 06:00:00');
    expect(normalizeBound('endDate', '2026-12-15', cut)).toBe('2026-12-16 05:59:59');
  });

  it('uses exact instants in strict mode (UTC unless an offset is given, shown in site time)', () => {
    const strict = { ...opts, strict: true };
    expect(normalizeBound('startDate', '2026-12-09 12:00:00', strict)).toBe('2026-12-09 07:00:00');
    expect(normalizeBound('startsAfter', '2026-12-09T12:00:00-05:00', strict)).toBe('2026-12-09 12:00:00');
  });

  it('returns null for unparseable values', () => {
    expect(normalizeBound('startDate', 'garbage', opts)).toBeNull();
    expect(normalizeBound('endDate', '', opts)).toBeNull();
  });
});

describe('resolveEventWindow', () => {
  it('applies the normalized default window (GET_events.json)', () => {
    const w = resolveEventWindow({}, settings);
    expect(w.bounds).toEqual({ startDate: '2026-11-20 00:00:00', endDate: '2028-11-21 23:59:59' });
    expect(w.applied).toEqual({ startDate: '2026-11-20 00:00:00', endDate: '2028-11-21 23:59:59' });
    expect(w.boundsUtc).toEqual({ startDate: '2026-11-20 05:00:00', endDate: '2028-11-22 04:59:59' });
    expect(w.invalid).toEqual([]);
  });

  it('normalizes an explicit range (GET_events_date_range.json)', () => {
    const w = resolveEventWindow({ startDate: '2026-12-09', endDate: '2026-12-15' }, settings);
    expect(w.applied).toEqual({ startDate: '2026-12-09 00:00:00', endDate: '2026-12-15 23:59:59' });
    expect(w.bounds).toEqual({ startDate: '2026-12-09 00:00:00', endDate: '2026-12-15 23:59:59' });
  });

  it('drops the defaults when a relative bound is given (GET_events_starts_after.json)', () => {
    const w = resolveEventWindow({ startsAfter: '2026-12-11 00:00:00' }, settings);
    expect(w.bounds).toEqual({ startsAfter: '2026-12-11 23:59:59' });
    expect(w.applied).toEqual({ startsAfter: '2026-12-11 23:59:59' });
  });

  it('keeps explicit start/end next to relative bounds', () => {
    const w = resolveEventWindow({ endsAfter: '2017-12-31', startsBefore: '2018-01-02', endDate: '2018-02-01' }, settings);
    expect(w.bounds).toEqual({ endDate: '2018-02-01 23:59:59', startsBefore: '2018-01-02 23:59:59', endsAfter: '2017-12-31 23:59:59' });
    expect(Object.keys(w.applied)).toEqual(['endDate', 'startsBefore', 'endsAfter']);
  });

  it('keeps the other default when only one of start/end is given', () => {
    const w = resolveEventWindow({ endDate: '2026-12-15' }, settings);
    expect(w.bounds).toEqual({ startDate: '2026-11-20 00:00:00', endDate: '2026-12-15 23:59:59' });
  });

  it('applies no bound with include but shows the raw default pair (GET_events_include.json)', () => {
    const now = new Date('2026-11-21T12:12:43Z');
    const w = resolveEventWindow({ include: true, startDate: '2026-12-01' }, { ...settings, now });
    expect(w.bounds).toEqual({});
    expect(w.applied).toEqual({ startDate: '2026-11-20 18:59:00', endDate: '2028-11-21 12:12:43' });
  });

  it('uses the raw defaults unchanged in strict mode (REC)', () => {
    const w = resolveEventWindow({ strictDates: true }, settings);
    expect(w.bounds).toEqual({ startDate: '2026-11-20 18:59:00', endDate: '2028-11-21 11:55:56' });
  });

  it('can skip the defaults', () => {
    expect(resolveEventWindow({ useDefaults: false }, settings).bounds).toEqual({});
  });

  it('reports unparseable parameters, even with include', () => {
    expect(resolveEventWindow({ startDate: 'garbage', endsBefore: '' }, settings).invalid).toEqual(['startDate', 'endsBefore']);
    expect(resolveEventWindow({ include: true, endDate: 'garbage' }, settings).invalid).toEqual(['endDate']);
  });
});
