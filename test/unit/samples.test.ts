/**
 * Cross-checks the domain helpers against the recorded plugin responses in test/fixtures/samples.
 */
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { formatCost, inferCurrency, parseCostValues } from '../../src/domain/cost.ts';
import { DATE_BOUND_NAMES, resolveEventWindow, type EventWindowParams } from '../../src/domain/date-window.ts';
import { localToUtc } from '../../src/domain/wall-clock.ts';
import { dateDetails } from '../../rest-facade/presenters/util.ts';
import { computeEventDates } from '../../src/domain/event-dates.ts';
import { slugify } from '../../src/domain/slug.ts';
import { renderContent, renderExcerpt, renderTitle } from '../../src/domain/text.ts';
import { timezoneAbbr } from '../../src/domain/timezone.ts';
import { readAllSamples } from '../helpers/samples.ts';


interface Sample {
  file: string;
  request: { method: string; url: string; body?: Record<string, unknown> | null };
  response: { status: number; body: unknown };
}

const samples: Sample[] = readAllSamples<Omit<Sample, 'file'>>();

type EventJson = Record<string, any>;
function eventsIn(value: unknown, out: EventJson[] = []): EventJson[] {
  if (Array.isArray(value)) value.forEach((v) => eventsIn(v, out));
  else if (value && typeof value === 'object') {
    const o = value as EventJson;
    if (typeof o.start_date === 'string' && typeof o.utc_start_date === 'string' && 'cost_details' in o) out.push(o);
    Object.values(o).forEach((v) => eventsIn(v, out));
  }
  return out;
}

describe('recorded samples', () => {
  const events = samples.flatMap((s) => eventsIn(s.response.body).map((e) => ({ file: s.file, e })));

  it('finds events in the samples', () => {
    expect(events.length).toBeGreaterThan(20);
  });

  it('date details split the date strings', () => {
    for (const { file, e } of events) {
      for (const k of ['start_date', 'end_date', 'utc_start_date', 'utc_end_date']) {
        expect(dateDetails(e[k]), `${file} ${k}`).toEqual(e[`${k}_details`]);
      }
    }
  });

  it('UTC dates derive from event-local dates and the event zone', () => {
    for (const { file, e } of events) {
      expect(localToUtc(e.start_date, e.timezone), file).toBe(e.utc_start_date);
      // PHP keeps the unclamped UTC end when end < start (REC clamps it).
      if (e.utc_end_date >= e.utc_start_date) expect(localToUtc(e.end_date, e.timezone), file).toBe(e.utc_end_date);
    }
  });

  it('abbreviations are those of the zone at the start date', () => {
    for (const { file, e } of events) expect(timezoneAbbr(e.timezone, e.start_date), file).toBe(e.timezone_abbr);
  });

  it('plain titles render unchanged', () => {
    for (const { file, e } of events) expect(renderTitle(e.title), file).toBe(e.title);
  });

  const creates = samples.filter(
    (s) => s.request.method === 'POST' && /\/events(\/\d+)?$/.test(s.request.url) && s.response.status < 300 && s.request.body,
  );

  it('written values render like the plugin (title, description, excerpt, slug)', () => {
    for (const s of creates) {
      const body = s.request.body!;
      const res = s.response.body as EventJson;
      if (typeof body.title === 'string') expect(renderTitle(body.title), s.file).toBe(res.title);
      if (typeof body.description === 'string') expect(renderContent(body.description), s.file).toBe(res.description);
      if (typeof body.excerpt === 'string') expect(renderExcerpt(body.excerpt), s.file).toBe(res.excerpt);
      if (s.response.status === 201 && typeof body.title === 'string') expect(slugify(body.title), s.file).toBe(res.slug);
    }
  });

  it('cost, cost values and currency match the plugin', () => {
    let checked = 0;
    for (const s of creates) {
      const body = s.request.body!;
      if (body.cost === undefined) continue;
      const res = s.response.body as EventJson;
      const stored = Array.isArray(body.cost) ? (body.cost as string[]).map(String) : [String(body.cost)];
      const currency = inferCurrency(stored.length === 1 ? stored[0] : stored);
      expect(formatCost(stored, { currencySymbol: currency.symbol, currencyPosition: currency.position }), s.file).toBe(res.cost);
      expect(parseCostValues(stored), s.file).toEqual(res.cost_details.values);
      expect(currency.symbol, s.file).toBe(res.cost_details.currency_symbol);
      expect(currency.position, s.file).toBe(res.cost_details.currency_position);
      checked++;
    }
    expect(checked).toBeGreaterThanOrEqual(3);
  });

  it('event dates of creates are computed like the plugin', () => {
    for (const s of creates.filter((c) => c.response.status === 201)) {
      const body = s.request.body!;
      const res = s.response.body as EventJson;
      const now = new Date(`${res.date_utc.replace(' ', 'T')}Z`);
      const d = computeEventDates({
        start: body.start_date as string,
        end: body.end_date as string,
        allDay: body.all_day === true,
        timezone: (body.timezone as string) || 'America/New_York',
        now,
      });
      if ('invalid' in d) throw new Error(`${s.file}: ${d.invalid}`);
      expect(d.text.startLocal, s.file).toBe(res.start_date);
      expect(d.text.endLocal, s.file).toBe(res.end_date);
      expect(d.text.startUtc, s.file).toBe(res.utc_start_date);
      expect(d.text.endUtc, s.file).toBe(res.utc_end_date >= res.utc_start_date ? res.utc_end_date : res.utc_start_date);
      expect(d.timezone, s.file).toBe(res.timezone);
      expect(d.timezoneAbbr, s.file).toBe(res.timezone_abbr);
    }
  });

  it('list rest_url date values follow the window rules', () => {
    const lists = samples.filter((s) => s.request.method === 'GET' && /\/events(\?|$)/.test(s.request.url) && s.response.status === 200);
    expect(lists.length).toBeGreaterThan(5);
    const wire = (bound: string) => bound.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
    for (const s of lists) {
      const query = new URLSearchParams(s.request.url.split('?')[1] ?? '');
      const restUrl = (s.response.body as { rest_url: string }).rest_url;
      const shown = new URLSearchParams(restUrl.split('?')[1]?.replace(/ /g, '%20') ?? '');
      const params: EventWindowParams = { include: query.has('include') };
      for (const k of DATE_BOUND_NAMES) if (query.has(wire(k))) params[k] = query.get(wire(k))!;
      // The recording clock: the raw end default is now + 24 months (seconds vary between requests).
      const now = params.include
        ? DateTime.fromSQL(shown.get('end_date')!, { zone: 'UTC' }).minus({ months: 24 }).toJSDate()
        : new Date('2026-11-21T12:00:00Z');
      const w = resolveEventWindow(params, { now, siteTimezone: 'America/New_York', cutoff: '00:00' });
      const expected: Record<string, string> = {};
      for (const k of DATE_BOUND_NAMES) if (shown.has(wire(k))) expected[k] = shown.get(wire(k))!;
      expect(w.applied, s.file).toEqual(expected);
    }
  });
});
