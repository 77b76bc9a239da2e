import type { Context } from 'koa';

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
 * Security headers on every answer but the health probes (issue 8 item 9). Set before the
 * handlers run, the CSP corrected for HTML after (the type is known only then).
 */
export function securityHeaders(ctx: Context): void {
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
}

const ALLOW_HEADERS = 'Authorization, Content-Type, Accept, X-GraphQL-Yoga-CSRF, X-Request-Id';

/**
 * CORS of `/graphql` (issue 8 item 3): an origin listed in CAL_CORS_ORIGINS may send credentials
 * (Basic auth) and read the answer; any other origin reads anonymous answers only (`*`, which
 * browsers never combine with credentials).
 */
export function corsHeaders(ctx: Context, credentialed: readonly string[]): void {
  ctx.vary('Origin');
  const origin = ctx.get('Origin');
  if (!origin) return;
  if (credentialed.includes(origin)) {
    ctx.set('Access-Control-Allow-Origin', origin);
    ctx.set('Access-Control-Allow-Credentials', 'true');
  } else {
    ctx.set('Access-Control-Allow-Origin', '*');
  }
  ctx.set('Access-Control-Allow-Methods', 'GET, POST, OPTIONS');
  ctx.set('Access-Control-Allow-Headers', ALLOW_HEADERS);
  ctx.set('Access-Control-Max-Age', '600');
}
