import { describe, expect, it } from 'vitest';
import { offsetLabel, resolveTimezone, timezoneAbbr } from '../../src/domain/timezone.ts';

describe('resolveTimezone', () => {
  it('keeps IANA names (canonical case)', () => {
    expect(resolveTimezone('America/New_York')?.name).toBe('America/New_York');
    expect(resolveTimezone('america/new_york')?.name).toBe('America/New_York');
    expect(resolveTimezone('Europe/Paris')?.kind).toBe('iana');
    expect(resolveTimezone('US/Eastern')?.name).toBe('US/Eastern');
  });

  it('accepts UTC and UTC±h[:mm] labels as fixed offsets', () => {
    expect(resolveTimezone('UTC')).toMatchObject({ name: 'UTC', kind: 'utc' });
    expect(resolveTimezone('UTC+0')).toMatchObject({ name: 'UTC+0', kind: 'offset' });
    expect(resolveTimezone('UTC+2')?.zone.offset(0)).toBe(120);
    expect(resolveTimezone('utc+2')?.name).toBe('UTC+2');
    expect(resolveTimezone('UTC-5:30')).toMatchObject({ name: 'UTC-5:30' });
    expect(resolveTimezone('UTC-5:30')?.zone.offset(0)).toBe(-330);
    expect(resolveTimezone('UTC+5.5')?.name).toBe('UTC+5:30');
    expect(resolveTimezone('UTC+02:00')?.name).toBe('UTC+2');
  });

  it('turns bare PHP offsets into UTC±h labels', () => {
    expect(resolveTimezone('+02:00')?.name).toBe('UTC+2');
    expect(resolveTimezone('-0500')?.name).toBe('UTC-5');
    expect(resolveTimezone('+05:45')?.name).toBe('UTC+5:45');
  });

  it('treats PHP abbreviations as fixed offsets, like DateTimeZone does', () => {
    expect(resolveTimezone('EST')).toMatchObject({ name: 'EST', kind: 'abbreviation' });
    expect(resolveTimezone('EST')?.zone.offset(Date.UTC(2026, 6, 1))).toBe(-300);
    expect(resolveTimezone('edt')?.zone.offset(0)).toBe(-240);
    expect(resolveTimezone('CET')?.zone.offset(Date.UTC(2026, 6, 1))).toBe(60);
    expect(resolveTimezone('CEST')?.zone.offset(0)).toBe(120);
  });

  it('rejects what PHP rejects', () => {
    expect(resolveTimezone('')).toBeNull();
    expect(resolveTimezone('Foo/Bar')).toBeNull();
    expect(resolveTimezone('garbage')).toBeNull();
    expect(resolveTimezone('UTC+25')).toBeNull();
    expect(resolveTimezone(undefined)).toBeNull();
  });

  it('formats offset labels', () => {
    expect(offsetLabel(0)).toBe('UTC+0');
    expect(offsetLabel(-300)).toBe('UTC-5');
    expect(offsetLabel(330)).toBe('UTC+5:30');
  });
});

describe('timezoneAbbr', () => {
  it('gives EST/EDT for New York (samples)', () => {
    expect(timezoneAbbr('America/New_York', '2026-12-05 19:00:00')).toBe('EST');
    expect(timezoneAbbr('America/New_York', '2026-07-05 19:00:00')).toBe('EDT');
  });

  it('gives CET/CEST for central European zones (sample POST_events_201_all_day)', () => {
    expect(timezoneAbbr('Europe/Paris', '2026-12-12 00:00:00')).toBe('CET');
    expect(timezoneAbbr('Europe/Paris', '2026-07-12 00:00:00')).toBe('CEST');
    expect(timezoneAbbr('Europe/Berlin', '2026-01-01 00:00:00')).toBe('CET');
    expect(timezoneAbbr('Europe/Madrid', '2026-08-01 12:00:00')).toBe('CEST');
  });

  it('gives tzdata abbreviations for other common zones', () => {
    expect(timezoneAbbr('Europe/London', '2026-01-01 00:00:00')).toBe('GMT');
    expect(timezoneAbbr('Europe/London', '2026-07-01 00:00:00')).toBe('BST');
    expect(timezoneAbbr('Europe/Dublin', '2026-07-01 00:00:00')).toBe('IST');
    expect(timezoneAbbr('Europe/Lisbon', '2026-07-01 00:00:00')).toBe('WEST');
    expect(timezoneAbbr('Europe/Athens', '2026-01-01 00:00:00')).toBe('EET');
    expect(timezoneAbbr('Europe/Helsinki', '2026-07-01 00:00:00')).toBe('EEST');
    expect(timezoneAbbr('Europe/Moscow', '2026-01-01 00:00:00')).toBe('MSK');
    expect(timezoneAbbr('America/Los_Angeles', '2026-01-01 00:00:00')).toBe('PST');
    expect(timezoneAbbr('America/Phoenix', '2026-07-01 00:00:00')).toBe('MST');
    expect(timezoneAbbr('Asia/Tokyo', '2026-07-01 00:00:00')).toBe('JST');
    expect(timezoneAbbr('Asia/Kolkata', '2026-07-01 00:00:00')).toBe('IST');
    expect(timezoneAbbr('Australia/Sydney', '2026-01-01 00:00:00')).toBe('AEDT');
  });

  it('falls back to numeric abbreviations like PHP', () => {
    expect(timezoneAbbr('Asia/Dubai', '2026-01-01 00:00:00')).toBe('+04');
    expect(timezoneAbbr('America/Sao_Paulo', '2026-01-01 00:00:00')).toBe('-03');
    expect(timezoneAbbr('Asia/Kathmandu', '2026-01-01 00:00:00')).toBe('+0545');
  });

  it('uses the label itself for offsets and abbreviations', () => {
    expect(timezoneAbbr('UTC+2', '2026-01-01 00:00:00')).toBe('UTC+2');
    expect(timezoneAbbr('UTC-5:30', '2026-01-01 00:00:00')).toBe('UTC-5:30');
    expect(timezoneAbbr('UTC+0', '2026-01-01 00:00:00')).toBe('UTC+0');
    expect(timezoneAbbr('EST', '2026-07-01 00:00:00')).toBe('EST');
    expect(timezoneAbbr('UTC', '2026-07-01 00:00:00')).toBe('UTC');
    expect(timezoneAbbr('GMT', '2026-07-01 00:00:00')).toBe('GMT');
  });
});
