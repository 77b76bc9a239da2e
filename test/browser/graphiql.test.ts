import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server.ts';

// Debian's chromium, driven by playwright-core (never `npx playwright install`). CI installs it
// (.ci/run); without it this suite is skipped and says so.
const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`test/browser: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

// Backend-independent: runs in the PGlite project only.
describe.skipIf(!hasChromium || process.env.TEST_BACKEND === 'postgres')('GraphiQL in a real browser', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ now: null });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('renders from this server alone, runs a typed query, shows the result and the docs', { timeout: 90_000 }, async () => {
    const created = await server.api('/events', {
      method: 'POST',
      as: 'admin',
      body: { title: 'Browser Jazz Night', start_date: '2030-01-10 20:00:00', end_date: '2030-01-10 23:00:00', status: 'publish' },
    });
    expect(created.status).toBe(201);
    const id = created.body.id as number;

    const context = await browser.newContext();
    const requests: string[] = [];
    context.on('request', (r) => requests.push(r.url()));
    const page = await context.newPage();
    page.on('worker', (w) => requests.push(w.url()));
    await page.goto(`${server.base}/graphql`, { waitUntil: 'load' });

    const editor = page.locator('.graphiql-query-editor .monaco-editor').first();
    await editor.waitFor({ timeout: 30_000 });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    // insertText, not type(): the editor would auto-close every bracket typed.
    await page.keyboard.insertText(`{ event(id: ${id}) { ... on Event { title startDate } } }`);
    // Monaco renders spaces as no-break spaces.
    const response = async () => (await page.locator('.graphiql-response').innerText()).replace(/\s+/g, ' ');
    // GraphiQL learns the edited document's operations a moment after the edit (it parses on a
    // debounce); a run before then asks for the opening example's operation ("Cannot infer operation
    // UpcomingEvents"). Run again until the answer is the edited document's.
    await vi.waitFor(async () => {
      await page.locator('.graphiql-execute-button').click();
      await expect.poll(response, { timeout: 5_000 }).toContain('"title": "Browser Jazz Night"');
    }, { timeout: 60_000, interval: 250 });
    expect(await response()).toContain('"startDate": "2030-01-10 20:00:00"');

    // The docs explorer knows the schema (introspection went to /graphql and worked).
    await page.locator('[aria-label="Show Documentation Explorer"]').click();
    const docs = page.locator('.graphiql-doc-explorer');
    await expect.poll(() => docs.innerText(), { timeout: 10_000 }).toMatch(/Query/);
    await docs.getByText('Query', { exact: true }).first().click();
    await expect.poll(() => docs.innerText(), { timeout: 10_000 }).toContain('events');

    const origin = new URL(server.base).origin;
    const foreign = requests.filter((u) => !u.startsWith('data:') && !u.startsWith('blob:') && new URL(u).origin !== origin);
    expect(requests.length).toBeGreaterThan(3);
    expect(foreign).toEqual([]);
    // The bundle comes from the long-cached asset route, the page itself is small.
    const asset = requests.find((u) => /\/graphiql\/[0-9a-f]{16}\/graphiql\.js$/.test(u));
    expect(asset).toBeDefined();
    const head = await fetch(asset!, { headers: { 'accept-encoding': 'gzip' } });
    expect(head.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const html = await (await fetch(`${server.base}/graphql`, { headers: { accept: 'text/html' } })).text();
    expect(html.length).toBeLessThan(5_000);
    await context.close();
  });
});

// @defer through GraphiQL's own fetcher: the request, the multipart/mixed answer and the merged result
// panel. The deferred fields read the database (description, venues), so this runs on both backends.
describe.skipIf(!hasChromium)('GraphiQL runs @defer in a real browser', () => {
  let server: TestServer;
  let browser: Browser;

  beforeAll(async () => {
    server = await startTestServer({ now: new Date('2030-01-15T12:00:00Z') });
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });

  it('shows the first payload merged with the deferred one', { timeout: 120_000 }, async () => {
    const venue = await server.create('/venues', { venue: 'Deferred Blue Room' });
    await server.create('/events', {
      title: 'Deferred Jazz Night',
      description: 'Slow field arriving later',
      start_date: '2030-02-01 19:00:00',
      end_date: '2030-02-01 22:00:00',
      status: 'publish',
      venue: venue.id,
    });

    const context = await browser.newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    // Records what GraphiQL's fetch sends and receives for the @defer operation (a clone of the
    // response: GraphiQL still reads the original stream).
    await page.addInitScript(() => {
      const original = window.fetch.bind(window);
      window.fetch = async (input, init) => {
        const response = await original(input, init);
        if (typeof init?.body === 'string' && init.body.includes('@defer')) {
          const accept = new Headers(init.headers).get('accept') ?? '';
          const type = response.headers.get('content-type') ?? '';
          void response
            .clone()
            .text()
            .then((body) => Object.assign(window, { deferred: { accept, type, body } }));
        }
        return response;
      };
    });
    await page.goto(`${server.base}/graphql`, { waitUntil: 'load' });
    const editor = page.locator('.graphiql-query-editor .monaco-editor').first();
    await editor.waitFor({ timeout: 30_000 });
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('{ events { nodes { title ... @defer(label: "slow") { description venues { name } } } } }');

    // Run until GraphiQL has parsed the edited document (see the test above): then it fetches.
    await vi.waitFor(async () => {
      await page.locator('.graphiql-execute-button').click();
      await page.waitForFunction(() => 'deferred' in window, undefined, { timeout: 5_000 });
    }, { timeout: 60_000, interval: 250 });
    // GraphiQL asked for incremental delivery and got it: one first payload, then the deferred one.
    // (What the page's fetch received, recorded by the init script: Chromium does not reliably keep
    // a streamed body for the DevTools protocol.)
    const seen = await page.evaluate(() => (window as { deferred?: { accept: string; type: string; body: string } }).deferred);
    expect(seen?.accept).toContain('multipart/mixed');
    expect(seen?.type).toMatch(/^multipart\/mixed/);
    expect(seen?.body).toMatch(/"hasNext":\s*true/);
    expect(seen?.body).toContain('"incremental"');
    expect(seen?.body).toContain('"label":"slow"');

    // The result panel holds the merged result: the first payload's title and the deferred fields.
    const response = async () => (await page.locator('.graphiql-response').innerText()).replace(/\s+/g, ' ');
    await expect.poll(response, { timeout: 30_000 }).toContain('"name": "Deferred Blue Room"');
    const shown = await response();
    expect(shown).toContain('"title": "Deferred Jazz Night"');
    expect(shown).toContain('Slow field arriving later');
    expect(shown).not.toContain('"errors"');
    expect(errors).toEqual([]);
    await context.close();
  });
});
