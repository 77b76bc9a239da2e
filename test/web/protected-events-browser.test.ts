/**
 * A password-protected event in a real browser (Debian's Chromium through playwright-core), on
 * either database: what a visitor without the password sees (the form, none of the hidden details,
 * no JSON-LD, no calendar links) in the page, the list, month and day views and the feeds; the
 * wrong password refused; the right one opening everything for that browser only. axe-core audits
 * every state of the page. Here rather than in test/browser/ (run on PGlite only): the rule that
 * opens the event is the core's, and its SQL runs on both backends.
 */
import { readFileSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hasChromium, openBrowserPages, type BrowserPages } from '../helpers/browser.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const source = (name: string) => readFileSync(new URL(`../fixtures/samples/source/${name}`, import.meta.url), 'utf8');
const TITLE = 'Special Password Protected Event';
const PASSWORD = 'tecbench-secret';
/** What the page hides without the password. */
const HIDDEN = ['Seed Venue 0', '0 Main St', 'Seed Organizer 0', 'o0@example.org', '$10', 'The secret programme', '10:00'];

describe.skipIf(!hasChromium)('a protected event in a real browser', () => {
  let s: TestServer;
  let browser: BrowserPages;
  let page: Page;
  let path: string;

  beforeAll(async () => {
    s = await startTestServer();
    const venue = await s.create('/venues', { venue: 'Seed Venue 0', address: '0 Main St', city: 'Springfield', zip: '12345', country: 'US' });
    const organizer = await s.create('/organizers', { organizer: 'Seed Organizer 0', email: 'o0@example.org' });
    const e = await s.create('/events', {
      title: TITLE,
      description: 'The secret programme.',
      start_date: '2027-04-08 10:00:00',
      end_date: '2027-04-08 12:00:00',
      cost: '10',
      venue: venue.id,
      organizer: [organizer.id],
      categories: ['Seed Category 0'],
    });
    await s.create('/events', { title: 'Open Rehearsal', start_date: '2027-04-08 14:00:00', end_date: '2027-04-08 15:00:00' });
    // As the WordPress import brings a post password over (the APIs set none).
    await s.db.prisma.event.update({ where: { id: e.id }, data: { password: PASSWORD } });
    s.cache.clear();
    path = new URL(e.url).pathname;
    browser = await openBrowserPages(s.base);
    page = browser.desktop;
  });
  afterAll(async () => {
    await browser?.close();
    await s?.close();
  });

  const mainText = (p: Page) => p.locator('main').innerText();
  async function shut(p: Page, where: string) {
    // The day view's time separators stay, as TEC's do.
    const text = await p.locator('main').evaluate((m) => {
      const copy = m.cloneNode(true) as HTMLElement;
      for (const h of copy.querySelectorAll('h2.separator')) h.remove();
      return copy.textContent ?? '';
    });
    for (const h of HIDDEN) expect(text, `${where}: ${h}`).not.toContain(h);
    expect(await p.locator('script[type="application/ld+json"]').evaluateAll((ss) => ss.map((x) => x.textContent ?? '').join('')), where).not.toContain(TITLE);
  }

  it('shows the title and the password form only: no hidden field, JSON-LD or calendar links', async () => {
    await browser.check('protected-event', path);
    expect(await page.locator('h1').innerText()).toBe(`Protected: ${TITLE}`);
    expect(await page.title()).toBe(`Protected: ${TITLE} · cal-events`);
    expect(await page.getByLabel('Password:').getAttribute('type')).toBe('password');
    expect(await page.locator('main form.post-password-form').count()).toBe(1);
    await shut(page, 'page');
    expect(await page.locator('script[type="application/ld+json"]').count()).toBe(0);
    expect(await page.locator('.calendar-links').count()).toBe(0);
    expect(await page.locator('meta[property="og:image"]').count()).toBe(0);
  });

  it('a wrong password says so and opens nothing', async () => {
    await page.goto(s.base + path);
    await page.getByLabel('Password:').fill('not the password');
    const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Enter' }).click()]);
    await page.waitForLoadState();
    expect(answer.status()).toBe(403);
    expect(await page.getByRole('alert').innerText()).toBe('Invalid password.');
    expect(await page.getByLabel('Password:').getAttribute('aria-describedby')).toMatch(/^error-pwbox-\d+$/);
    await shut(page, 'wrong password');
    expect((await page.context().cookies()).filter((c) => c.name.startsWith('wp-postpass_'))).toEqual([]);
    await browser.audit(page, 'protected-event-wrong');
    // The refusal is the one failed answer of the file so far.
    expect(browser.problems.splice(0)).toEqual([`403 ${s.base}${path}`]);
  });

  it('the right password shows the whole page, for this browser only', async () => {
    await page.goto(s.base + path);
    await page.getByLabel('Password:').fill(PASSWORD);
    await Promise.all([page.waitForURL(s.base + path), page.getByRole('button', { name: 'Enter' }).click()]);
    const shown = await page.reload();
    expect(shown?.status()).toBe(200);
    expect(shown?.headers()['cache-control']).toBe('private, no-store');
    expect(shown?.headers().vary).toMatch(/Cookie/);
    const text = await mainText(page);
    for (const h of HIDDEN) expect(text, h).toContain(h);
    expect(await page.locator('h1').innerText()).toBe(`Protected: ${TITLE}`);
    expect(await page.locator('form.post-password-form').count()).toBe(0);
    expect(await page.locator('.calendar-links a').count()).toBeGreaterThan(0);
    const ld = JSON.parse((await page.locator('script[type="application/ld+json"]').textContent())!) as { '@type': string; location: { name: string } };
    expect([ld['@type'], ld.location.name]).toEqual(['Event', 'Seed Venue 0']);
    const [cookie] = (await page.context().cookies()).filter((c) => c.name.startsWith('wp-postpass_'));
    expect(cookie).toMatchObject({ path: '/', httpOnly: true, sameSite: 'Lax' });
    expect(decodeURIComponent(cookie!.value)).toMatch(/^\$P\$B/);
    await browser.audit(page, 'protected-event-open');

    // Another visitor (the phone's browser context, no cookie) still gets the form, from the same server and cache.
    await browser.phone.goto(s.base + path);
    expect(await browser.phone.locator('form.post-password-form').count()).toBe(1);
    await shut(browser.phone, 'another visitor');
  });

  it('list, month and day views: "Protected: …" as TEC titles it, and the day only until the password is given', async () => {
    const tecTitle = />\s*(Protected: [^<]+?)\s*<\/a>/.exec(source('GET_events_list_protected_row.html'))![1]!;
    const other: BrowserContext = browser.phone.context();
    for (const [name, view] of [['protected-list', '/events/list/?tribe-bar-date=2027-04-01'], ['protected-month', '/events/2027-04/'], ['protected-day', '/events/2027-04-08/']] as const) {
      // Without the cookie (the phone's context).
      const anon = browser.phone;
      expect((await anon.goto(s.base + view))?.status(), view).toBe(200);
      await browser.audit(anon, name);
      const titles = await anon.locator('main a').allInnerTexts();
      expect(titles, view).toContain(tecTitle);
      expect(titles, view).toContain('Open Rehearsal');
      await shut(anon, view);
      // With it (the desktop's): the details are back.
      await page.goto(s.base + view);
      expect(await page.locator('main a').allInnerTexts(), view).toContain(tecTitle);
      if (view !== '/events/2027-04/') expect(await mainText(page), view).toContain('Seed Venue 0');
    }
    // Feeds: a calendar client (no cookie) gets TEC's protected VEVENT; this browser the description.
    const feed = `${s.base}/events.ics?start_date=2027-04-01`;
    const closed = await (await other.request.get(feed)).text();
    expect(closed).toContain('DESCRIPTION:Content is protected.');
    expect(closed).not.toContain('secret programme');
    const opened = await (await page.context().request.get(feed)).text();
    expect(opened).toContain('DESCRIPTION:The secret programme.');
    expect(browser.problems).toEqual([]);
  });
});
