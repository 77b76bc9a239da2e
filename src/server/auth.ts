import type { DatabaseClient } from '../db/input-guard.ts';
import type { AuthFailure, Viewer } from '../services/context.ts';
import { activeLoginThrottle, type LoginThrottlePolicy } from '../services/throttle.ts';
import { verifyCredentials } from '../services/users.ts';

export type AuthResult = { viewer: Viewer | null } | AuthFailure;

export interface AuthRequest {
  /** The Authorization header, if any. */
  header: string | undefined;
  /** The client address (Koa `ctx.ip`); recorded for application passwords and used for throttling. */
  ip?: string | null;
  /** Defaults to the process-wide throttle (`configureLoginThrottle`). */
  throttle?: LoginThrottlePolicy;
  now?: Date;
}

/**
 * HTTP Basic authentication shared by `/graphql` and the REST routes. No header → anonymous;
 * wrong credentials → an error even where anonymous access would do (as WordPress does); too many
 * wrong credentials from the address or for the login → `throttled`, without checking the password.
 */
export async function authenticate(prisma: DatabaseClient, request: AuthRequest): Promise<AuthResult> {
  const { header, ip = null, throttle = activeLoginThrottle(), now } = request;
  if (!header) return { viewer: null };
  const match = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!match) return { error: 'malformed_authorization' };
  const decoded = Buffer.from(match[1] ?? '', 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 1) return { error: 'malformed_authorization' };
  const login = decoded.slice(0, colon);
  const attempt = { login, ip };
  const verdict = await throttle.check(attempt);
  if (verdict) return { error: 'throttled', retryAfter: verdict.retryAfter };
  // A NUL cannot be in any stored login (the database refuses it): wrong credentials, not a 500.
  const viewer = login.includes('\0') ? null : await verifyCredentials(prisma, login, decoded.slice(colon + 1), { ip, now });
  if (!viewer) {
    await throttle.fail(attempt);
    return { error: 'invalid_credentials' };
  }
  await throttle.succeed(attempt);
  return { viewer };
}
