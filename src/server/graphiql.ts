import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Middleware } from 'koa';
import type { GraphiQLOptions } from 'graphql-yoga';

/**
 * GraphiQL served by this service alone: `@graphql-yoga/render-graphiql` bundles GraphiQL, its CSS
 * (fonts inlined), the Monaco editor workers and a favicon as strings. Yoga's own renderer inlines
 * all of that (9 MB) into every page, and Yoga's default one loads it from a CDN; here the page is a
 * few hundred bytes and each asset is served once from `/graphiql/<hash>/…`, gzipped, with an
 * immutable one-year cache header (the content hash changes the URL when the package changes).
 */
const PREFIX = '/graphiql/';

interface Asset {
  type: string;
  body: Buffer;
  gzip: Buffer;
}

interface Bundle {
  hash: string;
  assets: Map<string, Asset>;
}

let loading: Promise<Bundle> | undefined;

/** Loaded on first use: the strings take ~20 MB, no reason to hold them in a server nobody explores. */
function bundle(): Promise<Bundle> {
  loading ??= (async () => {
    // The package exports only its renderer; its asset module sits next to it.
    const entry = fileURLToPath(import.meta.resolve('@graphql-yoga/render-graphiql'));
    const file = path.join(path.dirname(entry), '..', 'esm', 'graphiql.js');
    const m = (await import(pathToFileURL(file).href)) as Record<'js' | 'css' | 'favicon' | 'editorWorkerService' | 'jsonWorker' | 'graphqlWorker', string>;
    const js = 'application/javascript; charset=utf-8';
    const sources: [string, string, Buffer][] = [
      ['graphiql.js', js, Buffer.from(m.js)],
      ['graphiql.css', 'text/css; charset=utf-8', Buffer.from(m.css)],
      ['favicon.ico', 'image/x-icon', Buffer.from(m.favicon.slice(m.favicon.indexOf(',') + 1), 'base64')],
      ['editor.worker.js', js, Buffer.from(m.editorWorkerService)],
      ['json.worker.js', js, Buffer.from(m.jsonWorker)],
      ['graphql.worker.js', js, Buffer.from(m.graphqlWorker)],
    ];
    const digest = createHash('sha256');
    for (const [, , body] of sources) digest.update(body);
    const assets = new Map(sources.map(([name, type, body]) => [name, { type, body, gzip: gzipSync(body) }]));
    return { hash: digest.digest('hex').slice(0, 16), assets };
  })();
  loading.catch(() => (loading = undefined));
  return loading;
}

const escapeScript = (json: string) => json.replace(/</g, '\\u003c');
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Yoga's `renderGraphiQL` hook: the page that loads GraphiQL from this service. */
export async function renderGraphiQL(opts: GraphiQLOptions): Promise<string> {
  const base = `${PREFIX}${(await bundle()).hash}/`;
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>${escapeHtml(opts.title ?? 'GraphiQL')}</title>
    <link rel="icon" href="${base}favicon.ico" />
    <link rel="stylesheet" href="${base}graphiql.css" />
  </head>
  <body id="body" class="no-focus-outline">
    <noscript>You need to enable JavaScript to run GraphiQL.</noscript>
    <div id="root"></div>
    <script>
      const workers = { editorWorkerService: 'editor.worker.js', json: 'json.worker.js', graphql: 'graphql.worker.js' };
      self.MonacoEnvironment = { globalAPI: false, getWorkerUrl: (_id, label) => '${base}' + workers[label] };
    </script>
    <script src="${base}graphiql.js"></script>
    <script>
      YogaGraphiQL.renderYogaGraphiQL(document.querySelector('#root'), ${escapeScript(JSON.stringify(opts))});
    </script>
  </body>
</html>
`;
}

/** Serves the assets the page names; anything else under the prefix is a 404. */
export const graphiqlAssets: Middleware = async (ctx, next) => {
  if (!ctx.path.startsWith(PREFIX)) return next();
  if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
  const { hash, assets } = await bundle();
  const [requested, name] = ctx.path.slice(PREFIX.length).split('/');
  const asset = assets.get(name ?? '');
  if (!asset) return next();
  ctx.vary('Accept-Encoding');
  if (requested !== hash) {
    // An old page asks for assets of a previous version: send today's, but do not let it be cached.
    ctx.set('Cache-Control', 'no-cache');
  } else {
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
  }
  ctx.type = asset.type;
  if (ctx.acceptsEncodings('gzip', 'identity') === 'gzip') {
    ctx.set('Content-Encoding', 'gzip');
    ctx.body = asset.gzip;
  } else {
    ctx.body = asset.body;
  }
};
