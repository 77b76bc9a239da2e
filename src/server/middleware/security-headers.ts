import type { Middleware } from 'koa';

/**
 * Security headers of the service: every answer but the health probe gets the
 * data policy (`useSecurityHeaders`), HTML answers GraphiQL's page policy (corrected when the
 * answer turns out to be HTML), and the public pages their own
 * stricter policy (src/web sets it when it renders a page: the pages never import the server).
 */

/**
 * Content-Security-Policy of HTML pages (GraphiQL): scripts, styles, workers and fonts from this
 * service ('self'; GraphiQL's page bootstraps with inline code, hence 'unsafe-inline'), results
 * fetched from this service only, never framed. GraphiQL's assets are served by this service
 * (src/server/graphiql.ts), so no other origin is allowed. Pages that set their own policy
 * (src/web) keep it.
 */
const HTML_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "font-src 'self' data:",
  "img-src 'self' data: https:",
  "worker-src 'self' blob:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');
/** Everything else is data: nothing in it may run or be framed. */
const DATA_CSP = "default-src 'none'; frame-ancestors 'none'";


/**
 * Security headers on every answer that reaches it (mounted after the health probe). Set before
 * the handlers run, the CSP corrected for HTML after (the type is known only then).
 */
export function useSecurityHeaders(): Middleware {
  return async function securityHeaders(ctx, next) {
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Referrer-Policy', 'no-referrer');
    ctx.set('X-Frame-Options', 'DENY');
    ctx.set('Content-Security-Policy', DATA_CSP);
    const writeHead = ctx.res.writeHead.bind(ctx.res);
    ctx.res.writeHead = ((...args: Parameters<typeof writeHead>) => {
      const own = ctx.res.getHeader('content-security-policy');
      if (String(ctx.res.getHeader('content-type') ?? '').startsWith('text/html') && (!own || own === DATA_CSP)) {
        ctx.res.setHeader('Content-Security-Policy', HTML_CSP);
      }
      return writeHead(...args);
    }) as typeof ctx.res.writeHead;
    await next();
  };
}
