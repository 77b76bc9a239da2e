import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chromium, type Browser } from 'playwright-core';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// Skips only where no Chromium is installed (CI installs it).
describe.skipIf(!existsSync(CHROMIUM))('in a real browser', () => {
  let s: TestServer;
  let browser: Browser;
  beforeAll(async () => {
    s = await startTestServer();
    const r = await s.api('/events', { method: 'POST', as: 'admin', body: { title: 'Jazz Night', start_date: '2027-03-13 19:00', end_date: '2027-03-13 22:00', venue: { venue: 'Grand Hall' } } });
    expect(r.status).toBe(201);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  async function visit(path: string, ready: (page: import('playwright-core').Page) => Promise<unknown>) {
    const page = await browser.newPage();
    const offHost: string[] = [];
    const cspErrors: string[] = [];
    const failed: string[] = [];
    const origin = new URL(s.base).origin;
    page.on('request', (req) => {
      const u = req.url();
      if (!u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')) offHost.push(u);
    });
    // Every request to this host succeeds (the favicon the browser asks for by itself included).
    page.on('response', (res) => {
      if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
    });
    page.on('console', (m) => {
      if (/Content Security Policy/i.test(m.text())) cspErrors.push(m.text());
    });
    await page.route((url) => !url.href.startsWith(origin) && url.protocol !== 'data:' && url.protocol !== 'blob:', (route) => route.abort());
    await page.goto(s.base + path);
    await ready(page);
    await page.waitForTimeout(500);
    if (process.env.SCREENSHOT_DIR) await page.screenshot({ path: `${process.env.SCREENSHOT_DIR}/${path.replace(/\W+/g, '_') || 'root'}.png`, fullPage: false });
    await page.close();
    return { offHost, cspErrors, failed };
  }

  it('/docs renders the operations from openapi.json with no request off the host', async () => {
    const spec = (await (await fetch(`${s.base}/wp-json/cal/events/v1/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
    const operations = Object.entries(spec.paths).flatMap(([path, item]) =>
      Object.keys(item).filter((k) => ['get', 'post', 'put', 'patch', 'delete'].includes(k)).map((method) => `${method.toUpperCase()} ${path}`),
    );
    const { offHost, cspErrors, failed } = await visit('/docs', async (page) => {
      // Swagger UI draws one block per operation, its method and path as data attributes.
      await page.locator('.opblock-summary-path[data-path="/events/{id}"]').first().waitFor({ timeout: 30_000 });
      const drawn = await page.locator('.opblock').evaluateAll((blocks) =>
        blocks.map((b) => `${b.querySelector('.opblock-summary-method')?.textContent} ${b.querySelector('.opblock-summary-path')?.getAttribute('data-path')}`),
      );
      expect(new Set(drawn)).toEqual(new Set(operations));
      expect(await page.locator(`a[href="${s.base}/graphql"]`).count()).toBeGreaterThan(0);
    });
    expect(operations.length).toBeGreaterThan(20);
    expect(offHost).toEqual([]);
    expect(cspErrors).toEqual([]);
    expect(failed).toEqual([]);
  }, 60_000);

  it('the home and event pages render with their CSP and no request off the host', async () => {
    const home = await visit('/', async (page) => {
      await page.getByRole('link', { name: 'Jazz Night' }).click();
      await page.waitForURL(/\/event\/jazz-night\/$/);
      expect(await page.locator('h1').innerText()).toBe('Jazz Night');
      expect(await page.locator('.venue a').innerText()).toBe('Grand Hall');
    });
    expect(home.offHost).toEqual([]);
    expect(home.cspErrors).toEqual([]);
    expect(home.failed).toEqual([]);
  }, 60_000);
});
