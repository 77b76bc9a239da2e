import type { Middleware } from 'koa';
import { createContext, type AppState, type SiteSettings } from '../../services/context.ts';
import { SurrogateKeys } from '../../domain/surrogate-keys.ts';
import type { ChangeBus } from '../../services/changes.ts';
import type { ImageImportOptions } from '../../services/image-import.ts';
import type { OutboundPolicy } from '../../services/outbound-url.ts';
import type { Database } from '../../db/database.ts';
import { authenticate } from '../auth.ts';

/**
 * Who is calling (HTTP Basic, src/server/auth.ts) and the calendar context of the request
 * (`ctx.state.cal`). A failed sign-in is not answered here: it is kept in `ctx.state.authError`
 * for each API to answer in its own shape (REST: the facade; GraphQL: `useGraphQLAuthAnswers`).
 */
export function useAuthentication(
  db: Database,
  context: { settings: SiteSettings; now?: () => Date; changes: ChangeBus; imageImport: ImageImportOptions; webhookUrls?: OutboundPolicy },
): Middleware<AppState> {
  return async function authentication(ctx, next) {
    const auth = await authenticate(db.prisma, { header: ctx.get('authorization') || undefined, ip: ctx.ip });
    if ('error' in auth) ctx.state.authError = auth;
    ctx.state.cal = createContext({
      prisma: db.prisma,
      settings: context.settings,
      viewer: 'viewer' in auth ? auth.viewer : null,
      now: context.now?.(),
      changes: context.changes,
      imageImport: context.imageImport,
      webhookUrls: context.webhookUrls,
      surrogateKeys: new SurrogateKeys(),
    });
    await next();
  };
}

/** A failed sign-in on `/graphql`: 429 with `Retry-After` when throttled, else 401 with a Basic challenge. */
export function useGraphQLAuthAnswers(path: string): Middleware<AppState> {
  return async function graphqlAuthAnswers(ctx, next) {
    if (ctx.path !== path) return next();
    const failure = ctx.state.authError;
    if (failure?.error === 'throttled') {
      ctx.status = 429;
      ctx.set('Retry-After', String(failure.retryAfter));
      ctx.body = { errors: [{ message: 'Too many failed sign-ins; try again later.', extensions: { code: 'THROTTLED' } }] };
      return;
    }
    if (failure) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Basic realm="cal-events"');
      ctx.body = { errors: [{ message: 'Invalid credentials.', extensions: { code: 'UNAUTHENTICATED' } }] };
      return;
    }
    await next();
  };
}
