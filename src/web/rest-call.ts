/**
 * Runs a GET of the REST facade in-process for the pages and feeds: the same route table,
 * argument checks, defaults, caps, visibility and GraphQL operations as `GET /wp-json/…`, with the
 * caller's credentials, state and site URL, without a network round trip. The request goes to the
 * facade's `dispatch` (rest-facade/wp/mount.ts) with no body; its answer comes back parsed.
 */
import type { Context } from 'koa';
import { koaRequest, type WpDispatch } from '../../rest-facade/wp/mount.ts';

export interface RestAnswer<T = any> {
  status: number;
  body: T;
  /** Header names in lower case. */
  headers: Record<string, string>;
}

export type RestGet = <T = any>(ctx: Context, path: string, query?: URLSearchParams, lang?: string) => Promise<RestAnswer<T>>;

export function createRestGet(dispatch: WpDispatch): RestGet {
  return async function restGet(ctx, path, query = new URLSearchParams(), lang = '') {
    const fullPath = `${lang ? `/${lang}` : ''}/wp-json/cal/events/v1${path}`;
    const { 'content-length': _l, 'content-type': _t, ...headers } = ctx.req.headers;
    const answer = await dispatch({ ...koaRequest(ctx), method: 'GET', path: fullPath, querystring: query.toString(), headers, body: undefined });
    if (!answer) throw new Error(`not a REST path: ${fullPath}`);
    return {
      status: answer.status,
      body: answer.body ? JSON.parse(answer.body) : null,
      headers: Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k.toLowerCase(), v])),
    };
  };
}
