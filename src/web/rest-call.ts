/**
 * Runs a GET of the REST facade in-process for the pages and feeds: the same route table,
 * argument checks, defaults, caps, visibility and GraphQL operations as `GET /wp-json/…`, with the
 * caller's credentials, state and site URL, without a network round trip. The request goes to the
 * facade's `dispatch` (rest-facade/wp/mount.ts) with no body; its answer comes back parsed.
 */
import type { Context } from 'koa';
import { koaRequest, type WpDispatch } from '../../rest-facade/wp/mount.ts';

export interface RestAnswer<T = unknown> {
  status: number;
  body: T;
  /** Header names in lower case. */
  headers: Record<string, string>;
}

export type RestGet = <T = unknown>(ctx: Context, path: string, query?: URLSearchParams, lang?: string) => Promise<RestAnswer<T>>;

export function createRestGet(dispatch: WpDispatch): RestGet {
  return async function restGet<T>(ctx: Context, path: string, query = new URLSearchParams(), lang = ''): Promise<RestAnswer<T>> {
    const fullPath = `${lang ? `/${lang}` : ''}/wp-json/cal/events/v1${path}`;
    const { 'content-length': _l, 'content-type': _t, ...headers } = ctx.req.headers;
    const answer = await dispatch({ ...koaRequest(ctx), method: 'GET', path: fullPath, querystring: query.toString(), headers, body: undefined });
    if (!answer) throw new Error(`not a REST path: ${fullPath}`);
    return {
      status: answer.status,
      // The facade's JSON answer, in the shape the caller's type states (the facade's contract).
      body: (answer.body.length ? JSON.parse(typeof answer.body === 'string' ? answer.body : answer.body.toString('latin1')) : null) as T,
      headers: Object.fromEntries(Object.entries(answer.headers).map(([k, v]) => [k.toLowerCase(), v])),
    };
  };
}
