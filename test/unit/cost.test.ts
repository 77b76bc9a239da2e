import { describe, expect, it } from 'vitest';
import { formatCost, inferCurrency, parseCostValues } from '../../src/domain/cost.ts';

describe('parseCostValues', () => {
  it('extracts numbers as strings, sorted numerically (samples)', () => {
    expect(parseCostValues(['15'])).toEqual(['15']);
    expect(parseCostValues(['15-25'])).toEqual(['15', '25']);
    expect(parseCostValues(['25', '15'])).toEqual(['15', '25']);
    expect(parseCostValues(['$15.50 – $100'])).toEqual(['15.50', '100']);
    expect(parseCostValues(['1,500'])).toEqual(['1500']);
  });

  it('slugs costs without numbers', () => {
    expect(parseCostValues(['Free'])).toEqual(['free']);
    expect(parseCostValues(['Pay what you want'])).toEqual(['pay-what-you-want']);
    expect(parseCostValues(['Free', '10'])).toEqual(['free', '10']);
  });

  it('is empty without cost', () => {
    expect(parseCostValues([])).toEqual([]);
    expect(parseCostValues([''])).toEqual([]);
    expect(parseCostValues(null)).toEqual([]);
  });

  it('drops duplicates', () => {
    expect(parseCostValues(['10', '10', '10.0'])).toEqual(['10']);
  });
});

describe('formatCost', () => {
  it('prefixes the site symbol by default (samples)', () => {
    expect(formatCost(['15'])).toBe('$15');
    expect(formatCost(['20'])).toBe('$20');
    expect(formatCost(['15-25'])).toBe('$15 \u2013 $25');
  });

  it('shows costs without numbers as entered and 0 as Free', () => {
    expect(formatCost(['Free'])).toBe('Free');
    expect(formatCost(['0'])).toBe('Free');
    expect(formatCost(['0-30'])).toBe('Free \u2013 $30');
  });

  it('uses the event currency and position', () => {
    expect(formatCost(['0-30'], { currencySymbol: '$', currencyPosition: 'postfix' })).toBe('Free \u2013 30$');
    expect(formatCost(['20'], { currencySymbol: '€', currencyPosition: 'suffix' })).toBe('20€');
    expect(formatCost(['20'], { currencySymbol: '€', currencyPosition: 'prefix' })).toBe('€20');
    expect(formatCost(['20'], { currencySymbol: '', currencyPosition: '', siteSymbol: '£', sitePosition: 'postfix' })).toBe('20£');
  });

  it('keeps the number as written and escapes HTML', () => {
    expect(formatCost(['$15.50'])).toBe('$15.50');
    expect(formatCost(['1,500'])).toBe('$1,500');
    expect(formatCost(['Tom & Jerry'])).toBe('Tom &amp; Jerry');
    expect(formatCost(['20'], { currencySymbol: '<b>' })).toBe('&lt;b&gt;20');
  });

  it('prefers numbers over words when both are stored', () => {
    expect(formatCost(['Free', '10'])).toBe('$10');
    expect(formatCost(['Donation', 'Pay what you want'])).toBe('Donation \u2013 Pay what you want');
  });

  it('is empty without cost', () => {
    expect(formatCost([])).toBe('');
    expect(formatCost(['  '])).toBe('');
  });
});

describe('inferCurrency', () => {
  it('infers symbol and position from the cost text (§4.2.2)', () => {
    expect(inferCurrency('20$')).toEqual({ symbol: '$', position: 'postfix' });
    expect(inferCurrency('$20')).toEqual({ symbol: '$', position: 'prefix' });
    expect(inferCurrency('20')).toEqual({ symbol: '', position: '' });
    expect(inferCurrency('15')).toEqual({ symbol: '', position: '' });
    expect(inferCurrency('€ 10')).toEqual({ symbol: '€', position: 'prefix' });
    expect(inferCurrency('10 EUR')).toEqual({ symbol: 'EUR', position: 'postfix' });
    expect(inferCurrency(['$10', '$20'])).toEqual({ symbol: '$', position: 'prefix' });
    expect(inferCurrency('$10, $20')).toEqual({ symbol: '$', position: 'prefix' });
  });

  it('gives nothing for words, ranges and inconsistent symbols (like PHP)', () => {
    expect(inferCurrency('Free')).toEqual({ symbol: '', position: '' });
    expect(inferCurrency('15-25')).toEqual({ symbol: '', position: '' });
    expect(inferCurrency('$10, 20€')).toEqual({ symbol: '', position: '' });
    expect(inferCurrency('')).toEqual({ symbol: '', position: '' });
    expect(inferCurrency(null)).toEqual({ symbol: '', position: '' });
  });
});
