import { describe, expect, it } from 'vitest';
import { offsetLabel, resolveTimezone, timezoneAbbr } from '../../src/domain/timezone.ts';
import { describeCases } from '../helpers/cases.ts';

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

  describeCases({ resolveTimezone }, {
    'rejects what PHP rejects': [
      ['', null],
      ['Foo/Bar', null],
      ['garbage', null],
      ['UTC+25', null],
      [undefined, null],
    ],
  });

  describeCases({ offsetLabel }, {
    'formats offset labels': [
      [0, 'UTC+0'],
      [-300, 'UTC-5'],
      [330, 'UTC+5:30'],
    ],
  });
});

describe('timezoneAbbr', () => {
  describeCases({ timezoneAbbr }, {
    'gives the abbreviation PHP gives for a zone at a local time': [
      // Gives EST/EDT for New York (samples)
      ['America/New_York', '2026-12-05 19:00:00', 'EST'],
      ['America/New_York', '2026-07-05 19:00:00', 'EDT'],
      // Gives CET/CEST for central European zones (sample POST_events_201_all_day)
      ['Europe/Paris', '2026-12-12 00:00:00', 'CET'],
      ['Europe/Paris', '2026-07-12 00:00:00', 'CEST'],
      ['Europe/Berlin', '2026-01-01 00:00:00', 'CET'],
      ['Europe/Madrid', '2026-08-01 12:00:00', 'CEST'],
      // Gives tzdata abbreviations for other common zones
      ['Europe/London', '2026-01-01 00:00:00', 'GMT'],
      ['Europe/London', '2026-07-01 00:00:00', 'BST'],
      ['Europe/Dublin', '2026-07-01 00:00:00', 'IST'],
      ['Europe/Lisbon', '2026-07-01 00:00:00', 'WEST'],
      ['Europe/Athens', '2026-01-01 00:00:00', 'EET'],
      ['Europe/Helsinki', '2026-07-01 00:00:00', 'EEST'],
      ['Europe/Moscow', '2026-01-01 00:00:00', 'MSK'],
      ['America/Los_Angeles', '2026-01-01 00:00:00', 'PST'],
      ['America/Phoenix', '2026-07-01 00:00:00', 'MST'],
      ['Asia/Tokyo', '2026-07-01 00:00:00', 'JST'],
      ['Asia/Kolkata', '2026-07-01 00:00:00', 'IST'],
      ['Australia/Sydney', '2026-01-01 00:00:00', 'AEDT'],
      // Falls back to numeric abbreviations like PHP
      ['Asia/Dubai', '2026-01-01 00:00:00', '+04'],
      ['America/Sao_Paulo', '2026-01-01 00:00:00', '-03'],
      ['Asia/Kathmandu', '2026-01-01 00:00:00', '+0545'],
      // Uses the label itself for offsets and abbreviations
      ['UTC+2', '2026-01-01 00:00:00', 'UTC+2'],
      ['UTC-5:30', '2026-01-01 00:00:00', 'UTC-5:30'],
      ['UTC+0', '2026-01-01 00:00:00', 'UTC+0'],
      ['EST', '2026-07-01 00:00:00', 'EST'],
      ['UTC', '2026-07-01 00:00:00', 'UTC'],
      ['GMT', '2026-07-01 00:00:00', 'GMT'],
    ],
  });
});
