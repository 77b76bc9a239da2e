import type { Middleware } from 'koa';

/**
 * Request body limit of `/graphql` (the REST facade reads and limits its own bodies): a declared
 * `Content-Length` over the limit is 413, a POST streamed without one 411, before Yoga reads a byte.
 */
export function useGraphQLBodyLimit(path: string, bodyLimit: number): Middleware {
  return async function bodyLimitCheck(ctx, next) {
    if (ctx.path !== path) return next();
    const declared = Number(ctx.get('content-length'));
    const tooLarge = declared > bodyLimit;
    if (tooLarge || (ctx.get('transfer-encoding') && !ctx.get('content-length') && ctx.method === 'POST')) {
      ctx.status = tooLarge ? 413 : 411;
      ctx.body = {
        errors: [{ message: tooLarge ? `Request body over ${bodyLimit} bytes.` : 'POST /graphql needs a Content-Length.', extensions: { code: 'BAD_REQUEST' } }],
      };
      return;
    }
    await next();
  };
}
