/**
 * What the pages load from this server (no CDN): the style sheet, the pages' scripts
 * (progressive enhancement only, `/assets/*.js`), the favicon, and the API reference page
 * (`/docs`, Swagger UI's prebuilt files) with its OpenAPI 3.1 document.
 */
import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { getT } from '../../rest-facade/wp/i18n.ts';
import { buildOpenApi } from './openapi.ts';
import { CUSTOM_STYLESHEET, securityHeaders, type PageRouter, type Site } from './site.ts';

const templateFile = (name: string) => new URL(`./templates/${name}`, import.meta.url).pathname;
// Swagger UI's prebuilt browser files, served from the package (no CDN), and the script that starts it.
const require = createRequire(import.meta.url);
const swaggerUiDir = dirname(require.resolve('swagger-ui-dist/package.json'));
const DOCS_ASSETS: Record<string, { file: string; type: string }> = {
  'swagger-ui-bundle.js': { file: join(swaggerUiDir, 'swagger-ui-bundle.js'), type: 'application/javascript; charset=utf-8' },
  'swagger-ui.css': { file: join(swaggerUiDir, 'swagger-ui.css'), type: 'text/css; charset=utf-8' },
  'docs.js': { file: templateFile('docs.js'), type: 'application/javascript; charset=utf-8' },
};
/** The pages' own static files (`/assets/{name}`). */
const SITE_ASSETS: Record<string, { body: Buffer; type: string }> = {
  'site.css': { body: readFileSync(templateFile('site.css')), type: 'text/css; charset=utf-8' },
  'views.js': { body: readFileSync(templateFile('views.js')), type: 'application/javascript; charset=utf-8' },
};
const favicon = readFileSync(templateFile('favicon.ico'));

export function registerAssets(router: PageRouter, site: Site) {
  router.get('/wp-json/cal/events/v1/openapi.json', (ctx) => {
    const urls = site.urls(ctx);
    const settings = { siteTimezone: site.config.site.timezone, postsPerPage: site.config.site.postsPerPage, maxPerPage: site.config.site.maxPerPage };
    ctx.set('Access-Control-Allow-Origin', '*');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = buildOpenApi(urls, { settings, now: site.now() }, getT(site.lang(ctx)));
  });
  router.get('/docs', (ctx) => {
    const urls = site.urls(ctx);
    ctx.type = 'text/html; charset=utf-8';
    securityHeaders(ctx);
    site.discovery(ctx, urls);
    ctx.body = site.template('docs', { urls, siteName: site.name, specUrl: `${urls.namespaceRoot}/openapi.json` });
  });
  router.get('/docs/:asset', (ctx, next) => {
    const asset = DOCS_ASSETS[ctx.params.asset ?? ''];
    if (!asset) return next();
    ctx.type = asset.type;
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = createReadStream(asset.file);
  });
  router.get('/favicon.ico', (ctx) => {
    ctx.type = 'image/x-icon';
    ctx.set('Cache-Control', 'public, max-age=86400');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = favicon;
  });
  // The site's own stylesheet file (CAL_SITE_STYLESHEET), linked with a hash of its content.
  const sheet = site.config.branding.stylesheet;
  const assets = sheet && 'css' in sheet ? { ...SITE_ASSETS, [CUSTOM_STYLESHEET]: { body: sheet.css, type: 'text/css; charset=utf-8' } } : SITE_ASSETS;
  router.get('/assets/:name', (ctx, next) => {
    const asset = assets[ctx.params.name ?? ''];
    if (!asset) return next();
    ctx.type = asset.type;
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.body = asset.body;
  });
}
