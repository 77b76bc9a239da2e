// The site's own face (docs/site.md): CAL_SITE_TITLE, CAL_SITE_LOGO_URL, CAL_SITE_NAV and
// CAL_SITE_STYLESHEET, validated at startup; the developer links (API reference, GraphiQL, REST
// root) only on the home page of a site that configures none of them.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/server/config.ts';
import { startTestServer, type TestServer } from '../helpers/server.ts';

const dir = mkdtempSync(join(tmpdir(), 'site-face-'));
const sheet = join(dir, 'brand.css');
writeFileSync(sheet, ':root { --cal-color-accent: #7a1f5c; }\n');
let plain: TestServer;
let branded: TestServer;

beforeAll(async () => {
  plain = await startTestServer();
  branded = await startTestServer({
    env: {
      CAL_SITE_TITLE: 'Springfield Events',
      CAL_SITE_LOGO_URL: '/uploads/logo.png',
      CAL_SITE_NAV: 'Home=https://springfield.example/,Calendar=/events/month/,Contact=https://springfield.example/contact',
      CAL_SITE_STYLESHEET: sheet,
    },
  });
  for (const s of [plain, branded]) await s.create('/events', { title: 'Town Fair', start_date: '2026-12-05 10:00', end_date: '2026-12-05 16:00' });
}, 120_000);
afterAll(async () => {
  await plain?.close();
  await branded?.close();
  rmSync(dir, { recursive: true, force: true });
});

const DEVELOPER = ['/docs"', '/graphql"', '/openapi.json"', '/wp-json/cal/events/v1/"'];
const PAGES = ['/', '/events/list/', '/events/2026-12/', '/events/2026-12-05/', '/event/town-fair/', '/fr/'];

describe('the site face', () => {
  it('without CAL_SITE_*: the service name, an Events link; developer links on the home page only', async () => {
    for (const path of PAGES) {
      const r = await plain.request(path);
      expect(r.status, path).toBe(200);
      expect(r.text, path).toContain('<span class="site-title">cal-events</span>');
      expect(r.text, path).toMatch(/<nav class="site-nav"[^>]*><ul>\n<li><a href="[^"]+\/events\/">(Events|Évènements)<\/a><\/li>\n<\/ul><\/nav>/);
      for (const link of DEVELOPER) expect(r.text.includes(link), `${path} ${link}`).toBe(path === '/' || path === '/fr/');
    }
  });

  it('with CAL_SITE_*: its title, logo, links and stylesheet everywhere; no developer link anywhere', async () => {
    const s = branded;
    for (const path of PAGES) {
      const r = await s.request(path);
      expect(r.status, path).toBe(200);
      expect(r.text, path).toContain(`<a class="site" href="${s.base}${path === '/fr/' ? '/fr' : ''}/"><img class="logo" src="${s.base}/uploads/logo.png" alt=""><span class="site-title">Springfield Events</span></a>`);
      // A path of the site's own keeps the page's language; other addresses are as given.
      const home = `${s.base}${path === '/fr/' ? '/fr' : ''}`;
      expect(r.text, path).toContain(
        `<li><a href="https://springfield.example/">Home</a></li>\n<li><a href="${home}/events/month/">Calendar</a></li>\n<li><a href="https://springfield.example/contact">Contact</a></li>`,
      );
      expect(r.text, path).toMatch(new RegExp(`<link rel="stylesheet" href="${s.base}/assets/site.css">\\n<link rel="stylesheet" href="${s.base}/assets/site-custom.css\\?v=[0-9a-f]{12}">`));
      expect(r.text, path).toMatch(/<title>[^<]* · Springfield Events<\/title>/);
      for (const link of DEVELOPER) expect(r.text.includes(link), `${path} ${link}`).toBe(false);
    }
    const css = await s.request('/assets/site-custom.css');
    expect([css.status, css.headers.get('content-type'), css.text]).toEqual([200, 'text/css; charset=utf-8', ':root { --cal-color-accent: #7a1f5c; }\n']);
    // The name in link previews, feeds and subscriptions.
    const list = await s.request('/events/list/');
    expect(list.text).toContain('<meta property="og:site_name" content="Springfield Events">');
    expect((await s.request('/events.ics')).text).toContain('X-WR-CALNAME:Springfield Events');
    expect(list.text).toContain(`&amp;name=Springfield+Events+Events"`);
  });

  it('one small stylesheet of custom properties a site overrides', async () => {
    const css = (await plain.request('/assets/site.css')).text;
    for (const name of ['--cal-font-family', '--cal-color-text', '--cal-color-accent', '--cal-color-background', '--cal-space']) expect(css).toMatch(new RegExp(`:root \\{[^}]*${name}:`));
    expect(css.length).toBeLessThan(16_000);
  });

  it('a stylesheet or logo elsewhere: its origin joins the pages\' CSP', async () => {
    const s = await startTestServer({ env: { CAL_SITE_STYLESHEET: 'https://cdn.springfield.example/brand.css', CAL_SITE_LOGO_URL: 'http://img.springfield.example/logo.png' } });
    try {
      const r = await s.request('/events/list/');
      expect(r.text).toContain('<link rel="stylesheet" href="https://cdn.springfield.example/brand.css">');
      const csp = r.headers.get('content-security-policy')!;
      expect(csp).toContain("style-src 'self' 'unsafe-inline' https://cdn.springfield.example;");
      expect(csp).toContain('img-src \'self\' data: https: http://img.springfield.example;');
      expect(csp).toContain("script-src 'self';");
    } finally {
      await s.close();
    }
  });

  it('bad values are refused at startup, by name', () => {
    const refused = (env: Record<string, string>) => {
      try {
        loadConfig(env);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return (error as Error).message;
      }
      throw new Error(`accepted ${JSON.stringify(env)}`);
    };
    expect(refused({ CAL_SITE_NAV: 'Home' })).toMatch(/^CAL_SITE_NAV\.0\.url: must be an http\(s\) URL or a path starting with \//);
    expect(refused({ CAL_SITE_NAV: 'Home=javascript:alert(1)' })).toMatch(/^CAL_SITE_NAV\.0\.url/);
    expect(refused({ CAL_SITE_NAV: '[{"label":"Home"' })).toMatch(/^CAL_SITE_NAV: is not valid JSON/);
    expect(refused({ CAL_SITE_NAV: '[{"label":"","url":"/"}]' })).toMatch(/^CAL_SITE_NAV\.0\.label/);
    expect(refused({ CAL_SITE_LOGO_URL: '//elsewhere.example/logo.png' })).toMatch(/^CAL_SITE_LOGO_URL/);
    expect(refused({ CAL_SITE_TITLE: 'x'.repeat(101) })).toMatch(/^CAL_SITE_TITLE/);
    expect(refused({ CAL_SITE_STYLESHEET: join(dir, 'missing.css') })).toMatch(/^CAL_SITE_STYLESHEET: cannot read .*missing\.css \(ENOENT\)/);
    expect(loadConfig({ CAL_SITE_NAV: '[{"label":"Home","url":"https://springfield.example/"}]' }).branding.nav).toEqual([{ label: 'Home', url: 'https://springfield.example/' }]);
    expect(loadConfig({}).branding).toEqual({ configured: false, title: undefined, logoUrl: undefined, nav: [], stylesheet: undefined });
  });
});
