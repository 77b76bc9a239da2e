/**
 * Runs a GET of the REST facade in-process for the pages and feeds: the same route table,
 * argument checks, defaults, caps, visibility and GraphQL operations as `GET /wp-json/…`, with the
 * caller's credentials and site URL, without a network round trip. The answer is captured instead
 * of written to the client.
 */
import type { Context, Middleware } from 'koa';

export interface RestAnswer<T = any> {
  status: number;
  body: T;
  headers: Record<string, string>;
}

export type RestGet = <T = any>(ctx: Context, path: string, query?: URLSearchParams, lang?: string) => Promise<RestAnswer<T>>;

export function createRestGet(rest: Middleware): RestGet {
  return async function restGet(ctx, path, query = new URLSearchParams(), lang = '') {
    const headers: Record<string, string> = {};
    const fullPath = `${lang ? `/${lang}` : ''}/wp-json/cal/events/v1${path}`;
    const querystring = query.toString();
    const { 'content-length': _l, 'content-type': _t, ...reqHeaders } = ctx.req.headers;
    // A request object with no body to read: the REST layer reads bodies even for GET.
    const req = Object.create(ctx.req, { readableEnded: { value: true }, headers: { value: reqHeaders }, method: { value: 'GET' } });
    const shim = Object.create(ctx, {
      req: { value: req },
      method: { value: 'GET' },
      path: { value: fullPath },
      querystring: { value: querystring },
      url: { value: querystring ? `${fullPath}?${querystring}` : fullPath },
      status: { value: 200, writable: true },
      body: { value: undefined, writable: true },
      type: { value: '', writable: true },
      set: {
        value: (name: string | Record<string, string>, value?: string) => {
          if (typeof name === 'string') headers[name.toLowerCase()] = String(value);
          else for (const [k, v] of Object.entries(name)) headers[k.toLowerCase()] = String(v);
        },
      },
      append: { value: (name: string, value: string) => void (headers[name.toLowerCase()] = value) },
      vary: { value: () => undefined },
    }) as Context;
    await rest(shim, async () => {
      throw new Error(`not a REST path: ${fullPath}`);
    });
    const text = typeof shim.body === 'string' ? shim.body : '';
    return { status: shim.status, body: text ? JSON.parse(text) : null, headers };
  };
}
