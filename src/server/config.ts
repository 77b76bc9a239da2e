import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { z } from 'zod';
import { IANAZone } from 'luxon';
import type { SiteSettings } from '../services/context.ts';
import { DEFAULT_IMAGE_IMPORT, type ImageImportOptions } from '../services/image-import.ts';
import type { OutboundPolicy } from '../services/outbound-url.ts';
import { DEFAULT_RETRY, type RetryPolicy } from '../services/webhook-delivery.ts';
import type { GraphQLLimits } from './graphql-limits.ts';
import { loadTrustedDocuments, type TrustedDocuments } from './persisted-operations.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const timezone = z.string().refine((v) => /^UTC([+-]\d{1,2}(:\d{2})?)?$/.test(v) || IANAZone.isValidZone(v), {
  message: 'must be an IANA time zone (e.g. America/New_York) or UTC±h',
});

const positiveInt = z.coerce.number().int().positive();
const nonNegativeInt = z.coerce.number().int().min(0);
const origins = z
  .string()
  .transform((v) => v.split(',').map((o) => o.trim().replace(/\/+$/, '')).filter(Boolean))
  .pipe(z.array(z.url({ protocol: /^https?$/ }).or(z.literal('null'))));

/** An address the pages link or load: an http(s) URL, or a path on this site (`/uploads/logo.png`). */
const siteLink = z
  .string()
  .trim()
  .refine((v) => (/^\/(?!\/)/.test(v) && !/\s/.test(v)) || z.url({ protocol: /^https?$/ }).safeParse(v).success, {
    message: 'must be an http(s) URL or a path starting with /',
  });

const navLink = z.object({ label: z.string().trim().min(1).max(60), url: siteLink });

/**
 * CAL_SITE_NAV: a JSON array (`[{"label":"Home","url":"https://example.org/"}]`) or the short form
 * `label=url,label=url` (labels without `=` or `,`).
 */
const siteNav = z
  .string()
  .transform((v, ctx) => {
    const text = v.trim();
    if (text.startsWith('[')) {
      try {
        return JSON.parse(text) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
        return z.NEVER;
      }
    }
    return text.split(',').map((pair) => {
      const at = pair.indexOf('=');
      return { label: at < 0 ? pair : pair.slice(0, at), url: at < 0 ? '' : pair.slice(at + 1) };
    });
  })
  .pipe(z.array(navLink).min(1).max(12));

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  DATABASE_URL: z.string().optional(),
  CAL_DATA_DIR: z.string().min(1).default('./data'),
  CAL_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  CAL_ADMIN_LOGIN: z.string().min(1).max(60).optional(),
  CAL_ADMIN_PASSWORD: z.string().min(1).optional(),
  CAL_SITE_URL: z.url().optional(),
  CAL_TRUST_PROXY: bool.default(false),
  // As a fresh WordPress install: time zone unset, offset 0.
  CAL_TIMEZONE: timezone.default('UTC'),
  CAL_POSTS_PER_PAGE: positiveInt.default(10),
  CAL_MAX_PER_PAGE: positiveInt.default(50),
  CAL_CURRENCY_SYMBOL: z.string().max(16).default('$'),
  CAL_CURRENCY_POSITION: z.enum(['prefix', 'postfix']).default('prefix'),
  CAL_CURRENCY_CODE: z.string().max(8).default('USD'),
  CAL_MULTIDAY_CUTOFF: z
    .string()
    .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be HH:MM')
    .default('00:00'),
  CAL_TIMEZONE_MODE: z.enum(['event', 'site']).default('event'),
  CAL_ALLOW_PRIVATE_IMAGE_URLS: bool.default(false),
  CAL_UPLOADS_DIR: z.string().min(1).optional(),
  CAL_ALLOW_PRIVATE_WEBHOOK_URLS: bool.default(false),
  CAL_WEBHOOK_ALLOWED_HOSTS: z
    .string()
    .transform((v) => v.split(',').map((h) => h.trim()).filter(Boolean))
    .optional(),
  CAL_WEBHOOK_DELIVERY: bool.default(true),
  CAL_WEBHOOK_RETRY_BASE_MS: positiveInt.default(DEFAULT_RETRY.baseMs),
  CAL_WEBHOOK_RETRY_MAX_MS: positiveInt.default(DEFAULT_RETRY.maxMs),
  CAL_WEBHOOK_TIMEOUT_MS: positiveInt.max(120_000).default(15_000),
  CAL_SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  CAL_GRAPHQL_MAX_DEPTH: positiveInt.default(12),
  CAL_GRAPHQL_MAX_ALIASES: nonNegativeInt.default(30),
  CAL_GRAPHQL_MAX_TOKENS: positiveInt.default(2000),
  CAL_GRAPHQL_MAX_DIRECTIVES: nonNegativeInt.default(20),
  CAL_GRAPHQL_MAX_COST: positiveInt.default(50_000),
  CAL_GRAPHQL_MAX_BATCH: nonNegativeInt.default(10),
  CAL_GRAPHQL_SUGGESTIONS: bool.optional(),
  CAL_GRAPHQL_INTROSPECTION: bool.default(true),
  CAL_GRAPHQL_TRUSTED_DOCUMENTS: z.string().min(1).optional(),
  CAL_GRAPHQL_COMPILE: bool.default(true),
  CAL_TRACE_RESOLVERS: bool.default(false),
  // host:port of the Prometheus metrics listener (its own, never the public one), or `off`.
  CAL_METRICS_ADDR: z
    .string()
    .trim()
    .regex(/^(off|\[?[\w.:-]*?\]?:\d{1,5})$/, 'must be host:port (e.g. 127.0.0.1:9464, 0.0.0.0:9464, [::1]:9464) or off')
    .default('127.0.0.1:9464'),
  CAL_BODY_LIMIT_BYTES: positiveInt.default(1024 * 1024),
  CAL_STATEMENT_TIMEOUT_MS: nonNegativeInt.default(10_000),
  CAL_MAX_QUERIES_PER_REQUEST: nonNegativeInt.default(500),
  CAL_CORS_ORIGINS: origins.default([]),
  CAL_AUTH_FAILURE_LIMIT: nonNegativeInt.default(10),
  CAL_AUTH_FAILURE_WINDOW_S: positiveInt.default(60),
  REDIS_URL: z.url({ protocol: /^rediss?$/ }).optional(),
  CAL_REDIS_PREFIX: z.string().min(1).max(100).default('cal-events'),
  CAL_HEADERS_TIMEOUT_MS: positiveInt.default(15_000),
  CAL_REQUEST_TIMEOUT_MS: positiveInt.default(60_000),
  NODE_ENV: z.string().optional(),
  CAL_CHANGES_CHANNEL: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,63}$/, 'must be 1-63 letters, digits, _ . : -')
    .default('cal_events_changes'),
  CAL_RECURRENCE_HORIZON_DAYS: positiveInt.max(3660).default(730),
  CAL_CHANGES_RETENTION_DAYS: positiveInt.max(3660).default(30),
  // Caching: five independent variables (docs/caching.md).
  CAL_CACHE_TTL_S: nonNegativeInt.max(86_400).default(600),
  CAL_CACHE_MAX_MB: positiveInt.max(65_536).default(64),
  CAL_HTTP_MAX_AGE_S: nonNegativeInt.max(31_536_000).default(0),
  CAL_HTTP_S_MAXAGE_S: nonNegativeInt.max(31_536_000).optional(),
  CAL_PURGE_URL: z
    .string()
    .transform((v) => v.split(',').map((u) => u.trim()).filter(Boolean))
    .pipe(z.array(z.url({ protocol: /^https?$/ })))
    .optional(),
  CAL_DRAIN_DELAY_MS: nonNegativeInt.max(600_000).default(0),
  CAL_SITE_TITLE: z.string().trim().min(1).max(100).optional(),
  CAL_SITE_LOGO_URL: siteLink.optional(),
  CAL_SITE_NAV: siteNav.optional(),
  // An http(s) URL, else a CSS file on this machine (served at /assets/site-custom.css).
  CAL_SITE_STYLESHEET: z.string().trim().min(1).optional(),
});

export type Env = z.infer<typeof schema>;

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  logLevel: Env['CAL_LOG_LEVEL'];
  admin: { login: string; password: string } | undefined;
  siteUrl: string | undefined;
  trustProxy: boolean;
  /** Image downloads (`image` given by URL): CAL_ALLOW_PRIVATE_IMAGE_URLS lifts the private-network guard. */
  imageImport: ImageImportOptions;
  shutdownTimeoutMs: number;
  /**
   * Webhooks (src/services/webhook-delivery.ts): where endpoints may point (the private-address
   * guard, lifted by CAL_ALLOW_PRIVATE_WEBHOOK_URLS or per host by CAL_WEBHOOK_ALLOWED_HOSTS),
   * whether this instance sends deliveries (CAL_WEBHOOK_DELIVERY), the retry schedule and the
   * time a receiver has to answer.
   */
  webhooks: { urls: OutboundPolicy; deliver: boolean; retry: RetryPolicy; timeoutMs: number };
  /**
   * On SIGTERM/SIGINT, how long `/readyz` answers 503 (draining) while requests are still served,
   * before the listener closes: a load balancer probing it stops sending new requests first.
   */
  drainDelayMs: number;
  /** Change bus over Redis pub/sub when set (src/services/changes.ts). */
  redisUrl: string | undefined;
  /** Redis channel / PostgreSQL NOTIFY channel of the change bus. */
  changesChannel: string;
  /** Days the change log keeps its rows (older cursors: CURSOR_EXPIRED). */
  changesRetentionDays: number;
  site: SiteSettings;
  graphql: GraphQLLimits;
  /** Largest request body, GraphQL and REST alike. */
  bodyLimit: number;
  /** PostgreSQL `statement_timeout` of every pooled connection (0: none). */
  statementTimeoutMs: number;
  /** SQL statements one request may start (0: unbounded). */
  maxQueriesPerRequest: number;
  /** Origins allowed to send credentials (CORS); every other origin gets `*` without credentials. */
  corsOrigins: string[];
  authThrottle: { limit: number; windowS: number };
  redis: { url: string; prefix: string } | undefined;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** The origin cache of anonymous reads (src/server/cache/byte-cache.ts); ttlS 0: no origin cache at all. */
  cache: { ttlS: number; maxBytes: number };
  /** `Cache-Control: public, max-age=…` of anonymous GET reads (src/server/cache/policy.ts). */
  httpMaxAgeS: number;
  /**
   * `s-maxage` of anonymous GET reads that carry surrogate keys (src/server/cache/policy.ts):
   * CAL_HTTP_S_MAXAGE_S, by default 3600 when CAL_PURGE_URL is set (purges are exact; the hour bounds
   * how long a default "upcoming" list may still show an event that has since ended) and 0
   * (not sent) without it.
   */
  httpSharedMaxAgeS: number;
  /** Reverse proxies (shared caches in front) that committed changes purge by surrogate key (src/server/cache/purge.ts); empty: none. */
  purgeUrls: string[];
  /** CAL_GRAPHQL_TRUSTED_DOCUMENTS: the only operations anonymous callers may run (null: any, with APQ). */
  trustedDocuments: TrustedDocuments | null;
  /** CAL_GRAPHQL_COMPILE: the fixed operations (REST, pages, trusted documents) run compiled (src/server/compiled-operations.ts). */
  compileOperations: boolean;
  /** CAL_TRACE_RESOLVERS: a span per resolver run, when traces are on (src/server/graphql-telemetry.ts). */
  traceResolvers: boolean;
  /** CAL_METRICS_ADDR: where `/metrics` is served (src/server/metrics-listener.ts); null: off. */
  metrics: { host: string; port: number } | null;
  /** CAL_SITE_TITLE, CAL_SITE_LOGO_URL, CAL_SITE_NAV, CAL_SITE_STYLESHEET. */
  branding: SiteBranding;
}

/** The public pages' own face (docs/site.md): title, logo, header links and a stylesheet of the site. */
export interface SiteBranding {
  /** Set when any CAL_SITE_* face variable is: the pages then show no developer links. */
  configured: boolean;
  title: string | undefined;
  logoUrl: string | undefined;
  /** Header links; none: the pages' own (Events). */
  nav: { label: string; url: string }[];
  /** CAL_SITE_STYLESHEET as a URL, or the file's CSS (served by the pages) with a hash of it (cache busting). */
  stylesheet: { url: string } | { css: Buffer; hash: string } | undefined;
}

function loadStylesheet(value: string | undefined): SiteBranding['stylesheet'] {
  if (!value) return undefined;
  if (/^https?:\/\//i.test(value)) {
    if (!z.url({ protocol: /^https?$/ }).safeParse(value).success) throw new ConfigError([`CAL_SITE_STYLESHEET: not a valid URL (got ${JSON.stringify(value)})`]);
    return { url: value };
  }
  try {
    const css = readFileSync(resolve(value));
    return { css, hash: createHash('sha256').update(css).digest('hex').slice(0, 12) };
  } catch (err) {
    throw new ConfigError([`CAL_SITE_STYLESHEET: cannot read ${resolve(value)} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`]);
  }
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(problems.join('; '));
  }
}

/** Validates the environment; every bad variable is reported by name. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const parsed = schema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message} (got ${JSON.stringify(cleaned[String(i.path[0])])})`),
    );
  }
  const e = parsed.data;
  if (Boolean(e.CAL_ADMIN_LOGIN) !== Boolean(e.CAL_ADMIN_PASSWORD)) {
    throw new ConfigError(['CAL_ADMIN_LOGIN and CAL_ADMIN_PASSWORD must be set together']);
  }
  let trustedDocuments: TrustedDocuments | null = null;
  try {
    if (e.CAL_GRAPHQL_TRUSTED_DOCUMENTS) trustedDocuments = loadTrustedDocuments(e.CAL_GRAPHQL_TRUSTED_DOCUMENTS);
  } catch (err) {
    throw new ConfigError([`CAL_GRAPHQL_TRUSTED_DOCUMENTS: ${(err as Error).message}`]);
  }
  const stylesheet = loadStylesheet(e.CAL_SITE_STYLESHEET);
  return {
    branding: {
      configured: Boolean(e.CAL_SITE_TITLE || e.CAL_SITE_LOGO_URL || e.CAL_SITE_NAV || stylesheet),
      title: e.CAL_SITE_TITLE,
      logoUrl: e.CAL_SITE_LOGO_URL,
      nav: e.CAL_SITE_NAV ?? [],
      stylesheet,
    },
    trustedDocuments,
    compileOperations: e.CAL_GRAPHQL_COMPILE,
    traceResolvers: e.CAL_TRACE_RESOLVERS,
    metrics: metricsAddress(e.CAL_METRICS_ADDR),
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.CAL_DATA_DIR,
    logLevel: e.CAL_LOG_LEVEL,
    admin: e.CAL_ADMIN_LOGIN && e.CAL_ADMIN_PASSWORD ? { login: e.CAL_ADMIN_LOGIN, password: e.CAL_ADMIN_PASSWORD } : undefined,
    siteUrl: e.CAL_SITE_URL?.replace(/\/+$/, ''),
    trustProxy: e.CAL_TRUST_PROXY,
    imageImport: { ...DEFAULT_IMAGE_IMPORT, allowPrivate: e.CAL_ALLOW_PRIVATE_IMAGE_URLS, uploadsDir: e.CAL_UPLOADS_DIR },
    shutdownTimeoutMs: e.CAL_SHUTDOWN_TIMEOUT_MS,
    webhooks: {
      urls: { allowPrivate: e.CAL_ALLOW_PRIVATE_WEBHOOK_URLS, allowedHosts: e.CAL_WEBHOOK_ALLOWED_HOSTS ?? [] },
      deliver: e.CAL_WEBHOOK_DELIVERY,
      retry: { ...DEFAULT_RETRY, baseMs: e.CAL_WEBHOOK_RETRY_BASE_MS, maxMs: Math.max(e.CAL_WEBHOOK_RETRY_MAX_MS, e.CAL_WEBHOOK_RETRY_BASE_MS) },
      timeoutMs: e.CAL_WEBHOOK_TIMEOUT_MS,
    },
    drainDelayMs: e.CAL_DRAIN_DELAY_MS,
    graphql: {
      maxDepth: e.CAL_GRAPHQL_MAX_DEPTH,
      maxAliases: e.CAL_GRAPHQL_MAX_ALIASES,
      maxTokens: e.CAL_GRAPHQL_MAX_TOKENS,
      maxDirectives: e.CAL_GRAPHQL_MAX_DIRECTIVES,
      maxCost: e.CAL_GRAPHQL_MAX_COST,
      maxBatch: e.CAL_GRAPHQL_MAX_BATCH,
      hideSuggestions: !(e.CAL_GRAPHQL_SUGGESTIONS ?? e.NODE_ENV !== 'production'),
      introspection: e.CAL_GRAPHQL_INTROSPECTION,
      defaultListSize: e.CAL_POSTS_PER_PAGE,
    },
    bodyLimit: e.CAL_BODY_LIMIT_BYTES,
    statementTimeoutMs: e.CAL_STATEMENT_TIMEOUT_MS,
    maxQueriesPerRequest: e.CAL_MAX_QUERIES_PER_REQUEST,
    corsOrigins: e.CAL_CORS_ORIGINS,
    authThrottle: { limit: e.CAL_AUTH_FAILURE_LIMIT, windowS: e.CAL_AUTH_FAILURE_WINDOW_S },
    redis: e.REDIS_URL ? { url: e.REDIS_URL, prefix: e.CAL_REDIS_PREFIX } : undefined,
    headersTimeoutMs: e.CAL_HEADERS_TIMEOUT_MS,
    requestTimeoutMs: e.CAL_REQUEST_TIMEOUT_MS,
    cache: { ttlS: e.CAL_CACHE_TTL_S, maxBytes: e.CAL_CACHE_MAX_MB * 1024 * 1024 },
    httpMaxAgeS: e.CAL_HTTP_MAX_AGE_S,
    httpSharedMaxAgeS: e.CAL_HTTP_S_MAXAGE_S ?? (e.CAL_PURGE_URL?.length ? 3_600 : 0),
    purgeUrls: e.CAL_PURGE_URL ?? [],
    redisUrl: e.REDIS_URL,
    changesChannel: e.CAL_CHANGES_CHANNEL,
    changesRetentionDays: e.CAL_CHANGES_RETENTION_DAYS,
    site: {
      timezone: e.CAL_TIMEZONE,
      postsPerPage: e.CAL_POSTS_PER_PAGE,
      maxPerPage: e.CAL_MAX_PER_PAGE,
      currencySymbol: e.CAL_CURRENCY_SYMBOL,
      currencyPosition: e.CAL_CURRENCY_POSITION,
      currencyCode: e.CAL_CURRENCY_CODE,
      multiDayCutoff: e.CAL_MULTIDAY_CUTOFF,
      timezoneMode: e.CAL_TIMEZONE_MODE,
      recurrenceHorizonDays: e.CAL_RECURRENCE_HORIZON_DAYS,
      siteUrl: e.CAL_SITE_URL?.replace(/\/+$/, ''),
    },
  };
}

/** Variables earlier versions read, and what replaced them: set, they are named in a warning at start. */
const RETIRED: Record<string, string> = {
  CAL_BYTE_CACHE_TTL_S: 'CAL_CACHE_TTL_S is the origin cache\'s entry life',
  CAL_BYTE_CACHE_MAX_MB: 'CAL_CACHE_MAX_MB is the origin cache\'s memory',
  CAL_PRESENTED_TTL_S: 'presented records are no longer kept (CAL_CACHE_TTL_S=0 turns all origin caching off)',
  CAL_PRESENTED_MAX_MB: 'presented records are no longer kept',
};

/** The retired variables set in `env`, each with what to use instead. */
export function retiredVariables(env: NodeJS.ProcessEnv = process.env): { variable: string; instead: string }[] {
  return Object.entries(RETIRED)
    .filter(([name]) => env[name] !== undefined)
    .map(([variable, instead]) => ({ variable, instead }));
}

export const defaultSiteSettings: SiteSettings = loadConfig({}).site;

/** `host:port` (an IPv6 host in brackets) → the listener's address; `off` → null. */
function metricsAddress(value: string): { host: string; port: number } | null {
  if (value === 'off') return null;
  const at = value.lastIndexOf(':');
  const port = Number(value.slice(at + 1));
  if (port > 65535) throw new ConfigError([`CAL_METRICS_ADDR: port ${port} is out of range`]);
  return { host: value.slice(0, at).replace(/^\[|\]$/g, '') || '0.0.0.0', port };
}
