/**
 * `GET /cal/events/v1/doc`: the OpenAPI 3.0.0 document (§9.2). The structure is a template derived
 * from the reference document (samples/GET_doc.json) with every description replaced by a catalog
 * key; the builder translates them for the request's language and fills `servers[0].url`
 * (`{site}[/{lang}]/wp-json/cal/events/v1/`, port kept — REC).
 */
import { readFileSync } from 'node:fs';
import type { RouteDef, TFunction, WpUrls } from '../wp/types.ts';

const template: Record<string, unknown> = JSON.parse(
  readFileSync(new URL('./template.json', import.meta.url), 'utf8'),
) as Record<string, unknown>;

function translate(node: unknown, t: TFunction): unknown {
  if (Array.isArray(node)) return node.map((x) => translate(x, t));
  if (node && typeof node === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      out[k] = (k === 'description' || k === 'title') && typeof v === 'string' ? t(v) : translate(v, t);
    }
    return out;
  }
  return node;
}

/** Build the document for a language (`t`) and URL set. */
export function buildDoc(t: TFunction, urls: WpUrls): Record<string, unknown> {
  const doc = translate(template, t) as Record<string, unknown>;
  doc.servers = [{ url: `${urls.namespaceRoot}/` }];
  return doc;
}

/** The `/doc` route (public, no args). Mounted automatically by `createWpRestMiddleware()`. */
export const docRoute: RouteDef = {
  pattern: '/doc',
  endpoints: [
    {
      methods: ['GET'],
      args: {},
      handler: (req) => ({ status: 200, body: buildDoc(req.t, req.urls) }),
    },
  ],
};
