/**
 * The public pages in a real browser (Debian's Chromium through playwright-core): one browser per
 * test file, a page at 1280 px and one at 390 px, axe-core served as if from the tested host (the
 * pages' CSP allows this host's scripts only), every off-host request, failed answer and CSP refusal
 * collected in `problems`. `check(name, path)` opens a page at both widths: its status, no sideways
 * scrolling at 390 px, no serious or critical axe violation, and a screenshot per width in
 * test/browser/screenshots/ (gitignored).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { chromium, type Browser, type BrowserContextOptions, type Page } from 'playwright-core';
import { expect } from 'vitest';

export const CHROMIUM = '/usr/bin/chromium';
export const hasChromium = existsSync(CHROMIUM);
if (!hasChromium) console.warn(`test/browser: skipped, ${CHROMIUM} is absent (apt-get install chromium)`);
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const SHOTS = new URL('../browser/screenshots/', import.meta.url).pathname;
const AXE_PATH = '/__test/axe.min.js';

interface AxeViolation {
  id: string;
  impact: string | null;
  nodes: { target: string[] }[];
}

export interface BrowserPages {
  desktop: Page;
  phone: Page;
  /** Off-host requests, answers ≥ 400 and CSP refusals of every page opened. */
  problems: string[];
  /** Opens `path` at 390 then 1280 px with the checks above; returns the desktop page. */
  check(name: string, path: string): Promise<Page>;
  /** The checks above on the page as it is now (after a form was sent, say); the screenshot named `name`. */
  audit(page: Page, name: string): Promise<void>;
  /** Another page (its own context) watched the same way: `{ javaScriptEnabled: false }`, another width… */
  open(width: number, options?: BrowserContextOptions): Promise<Page>;
  close(): Promise<void>;
}

export async function openBrowserPages(base: string): Promise<BrowserPages> {
  const origin = new URL(base).origin;
  const problems: string[] = [];
  const browser: Browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS });
  mkdirSync(SHOTS, { recursive: true });

  async function open(width: number, options: BrowserContextOptions = {}): Promise<Page> {
    const context = await browser.newContext({ viewport: { width, height: width > 500 ? 900 : 844 }, ...options });
    const page = await context.newPage();
    await page.route(`${origin}${AXE_PATH}`, (route) => route.fulfill({ path: AXE, contentType: 'application/javascript' }));
    await page.route((url) => url.origin !== origin && url.protocol !== 'data:', (route) => {
      problems.push(`off-host request ${route.request().url()}`);
      return route.abort();
    });
    page.on('response', (r) => {
      if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
    });
    page.on('console', (m) => {
      if (/Content Security Policy|Refused to/i.test(m.text())) problems.push(`CSP: ${m.text()}`);
    });
    return page;
  }

  const desktop = await open(1280);
  const phone = await open(390);

  async function audit(page: Page, name: string, what = name): Promise<void> {
    const width = page.viewportSize()!.width;
    if (width <= 390) expect(await page.evaluate(() => document.documentElement.scrollWidth), `${what} scrolls sideways at 390 px`).toBeLessThanOrEqual(390);
    await page.addScriptTag({ url: base + AXE_PATH });
    const violations = await page.evaluate(async () => {
      const { axe } = window as Window & { axe?: { run(): Promise<{ violations: AxeViolation[] }> } };
      return (await axe!.run()).violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.map((n) => ({ target: n.target })) }));
    });
    const serious = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
    expect(serious, `${what} at ${width} px: ${JSON.stringify(serious)}`).toEqual([]);
    await page.screenshot({ path: `${SHOTS}${name}-${width > 500 ? 'desktop' : 'phone'}.png`, fullPage: true });
  }

  async function check(name: string, path: string): Promise<Page> {
    for (const page of [phone, desktop]) {
      const answer = await page.goto(base + path);
      expect(answer?.status(), path).toBe(200);
      await audit(page, name, path);
    }
    return desktop;
  }

  return { desktop, phone, problems, check, audit, open, close: () => browser.close() };
}
