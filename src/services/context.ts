import type { UserRole } from '../../prisma/generated/client/client.ts';
import type { DatabaseClient } from '../db/input-guard.ts';
import { processChangeBus, type ChangeBus } from './changes.ts';
import type { SurrogateKeys } from '../domain/surrogate-keys.ts';
import { DEFAULT_IMAGE_IMPORT, type ImageDownloads, type ImageImportOptions } from './image-import.ts';
import { PUBLIC_ONLY, type OutboundPolicy } from './outbound-url.ts';
import type { PostPass } from './post-pass.ts';

/** Site settings the calendar logic depends on (contract §0.3). */
export interface SiteSettings {
  timezone: string;
  postsPerPage: number;
  maxPerPage: number;
  currencySymbol: string;
  currencyPosition: 'prefix' | 'postfix';
  currencyCode: string;
  multiDayCutoff: string;
  timezoneMode: 'event' | 'site';
  /** Recurring series are materialized this many days ahead (CAL_RECURRENCE_HORIZON_DAYS; default 730). */
  recurrenceHorizonDays?: number;
  /** CAL_SITE_URL: GraphQL's image URLs of files this service keeps are absolute under it (else site-relative). */
  siteUrl?: string;
}

/** The signed-in caller; null for anonymous requests. */
export interface Viewer {
  id: number;
  login: string;
  role: UserRole;
}

export interface Context {
  prisma: DatabaseClient;
  viewer: Viewer | null;
  settings: SiteSettings;
  /** Request-scoped clock: every "now" in one request is the same instant. */
  now: Date;
  /** Password sent with a read (unlocks password-protected records). */
  password?: string;
  /** `context=edit`: editors see protected content without the password (contract §3.2). */
  editContext?: boolean;
  /** The public pages' post-password cookie (src/services/post-pass.ts); absent on the APIs, which take `?password=`. */
  postPass?: PostPass;
  /** Where committed writes publish their changes and subscriptions listen (src/services/changes.ts). */
  changes: ChangeBus;
  /** A write's transaction context (src/services/change-log.ts): the request's context it was made from, whose per-request caches a write must clear too. */
  origin?: Context;
  /** SSE: the `Last-Event-ID` a reconnecting EventSource sent (a change cursor); subscriptions resume after it. */
  resumeAfter?: string;
  /** How images given by URL may be downloaded (src/services/image-import.ts). */
  imageImport: ImageImportOptions;
  /** Images given by URL, downloaded before the write's transaction began (src/services/images.ts). */
  imageDownloads?: ImageDownloads;
  /** Where webhook endpoints may point (src/services/outbound-url.ts; CAL_ALLOW_PRIVATE_WEBHOOK_URLS, CAL_WEBHOOK_ALLOWED_HOSTS). */
  webhookUrls: OutboundPolicy;
  /** Anonymous GET reads: the records and lists the response contains (src/domain/surrogate-keys.ts). */
  surrogateKeys?: SurrogateKeys;
}

/** Authentication failures the edge answers itself (401, or 429 with `Retry-After`). */
export type AuthFailure =
  | { error: 'invalid_credentials' | 'malformed_authorization' }
  /** Too many failed sign-ins: answer 429 with `Retry-After: retryAfter`. */
  | { error: 'throttled'; retryAfter: number };

/** What the Koa app keeps per request: the REST facade reads the GraphQL context from it. */
export interface AppState {
  requestId: string;
  cal: Context;
  authError?: AuthFailure;
  /** Set by the cache policy (src/server/cache/policy.ts): the answer may be kept by the byte cache. */
  shareable?: boolean;
}

export function createContext(input: {
  prisma: DatabaseClient;
  settings: SiteSettings;
  viewer?: Viewer | null;
  now?: Date;
  password?: string;
  editContext?: boolean;
  changes?: ChangeBus;
  imageImport?: ImageImportOptions;
  webhookUrls?: OutboundPolicy;
  surrogateKeys?: SurrogateKeys;
}): Context {
  return {
    prisma: input.prisma,
    settings: input.settings,
    viewer: input.viewer ?? null,
    now: input.now ?? new Date(),
    password: input.password,
    editContext: input.editContext,
    changes: input.changes ?? processChangeBus,
    imageImport: input.imageImport ?? DEFAULT_IMAGE_IMPORT,
    webhookUrls: input.webhookUrls ?? PUBLIC_ONLY,
    surrogateKeys: input.surrogateKeys,
  };
}
