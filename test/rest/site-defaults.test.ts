/** The default site zone is UTC, as a fresh WordPress install has. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/server/config.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

describe('default site time zone', () => {
  let server: TestServer;
  beforeAll(async () => {
    // The test helper sets the samples' zone; an empty value would be refused, so ask for the default.
    server = await startTestServer({ env: { CAL_TIMEZONE: loadConfig({}).site.timezone } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is UTC unless CAL_TIMEZONE says otherwise', () => {
    expect(loadConfig({}).site.timezone).toBe('UTC');
    expect(loadConfig({ CAL_TIMEZONE: 'Europe/Paris' }).site.timezone).toBe('Europe/Paris');
  });

  it('makes a publication date without a zone the same instant as date_utc, and events default to UTC', async () => {
    const r = await server.api('/events', {
      method: 'POST',
      as: 'admin',
      body: { title: 'Zone', start_date: '2026-12-05 19:00', end_date: '2026-12-05 20:00', date: '2026-11-01 10:00:00' },
    });
    expect(r.status, r.text).toBe(201);
    expect(r.body.date).toBe('2026-11-01 10:00:00');
    expect(r.body.date_utc).toBe('2026-11-01 10:00:00');
    expect(r.body.timezone).toBe('UTC');
    expect(r.body.utc_start_date).toBe('2026-12-05 19:00:00');
  });
});

describe('publication date in a site zone other than UTC', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { CAL_TIMEZONE: 'America/New_York' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('stores the wall clock of `date` as the site-local publication date, whatever the event zone', async () => {
    for (const timezone of [undefined, 'UTC', 'Europe/Paris']) {
      const r = await server.api('/events', {
        method: 'POST',
        as: 'admin',
        body: { title: `Zone ${timezone}`, start_date: '2026-12-05 19:00', end_date: '2026-12-05 20:00', date: '2026-10-15 10:00:00', ...(timezone ? { timezone } : {}) },
      });
      expect(r.status, r.text).toBe(201);
      expect([r.body.date, r.body.date_utc], String(timezone)).toEqual(['2026-10-15 10:00:00', '2026-10-15 14:00:00']);
      const read = await server.api(`/events/${r.body.id}`);
      expect(read.body.date).toBe('2026-10-15 10:00:00');
    }
  });
});
