import { z } from 'zod';
import { IANAZone } from 'luxon';
import type { SiteSettings } from '../context.ts';

const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const timezone = z.string().refine((v) => /^UTC([+-]\d{1,2}(:\d{2})?)?$/.test(v) || IANAZone.isValidZone(v), {
  message: 'must be an IANA time zone (e.g. America/New_York) or UTC±h',
});

const positiveInt = z.coerce.number().int().positive();

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
  CAL_TIMEZONE: timezone.default('America/New_York'),
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
  CAL_SHUTDOWN_TIMEOUT_MS: positiveInt.default(10_000),
  CAL_RECURRENCE_HORIZON_DAYS: positiveInt.max(3660).default(730),
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
  allowPrivateImageUrls: boolean;
  shutdownTimeoutMs: number;
  site: SiteSettings;
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
  return {
    port: e.PORT,
    host: e.HOST,
    databaseUrl: e.DATABASE_URL,
    dataDir: e.CAL_DATA_DIR,
    logLevel: e.CAL_LOG_LEVEL,
    admin: e.CAL_ADMIN_LOGIN && e.CAL_ADMIN_PASSWORD ? { login: e.CAL_ADMIN_LOGIN, password: e.CAL_ADMIN_PASSWORD } : undefined,
    siteUrl: e.CAL_SITE_URL?.replace(/\/+$/, ''),
    trustProxy: e.CAL_TRUST_PROXY,
    allowPrivateImageUrls: e.CAL_ALLOW_PRIVATE_IMAGE_URLS,
    shutdownTimeoutMs: e.CAL_SHUTDOWN_TIMEOUT_MS,
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
    },
  };
}

export const defaultSiteSettings: SiteSettings = loadConfig({}).site;
