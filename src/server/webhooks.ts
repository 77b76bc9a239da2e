import type { Logger } from 'pino';
import type { createRestDispatch } from '../../rest-facade/router.ts';
import type { Database } from '../db/database.ts';
import type { ChangeKind } from '../services/changes.ts';
import { createContext, type AppState, type Viewer } from '../services/context.ts';
import { createWebhookDispatcher, type ChangeFeed, type LoggedChange, type WebhookDispatcher } from '../services/webhook-delivery.ts';
import type { Config } from './config.ts';

/** The REST route of each kind's single record (TEC's `GET /events/<id>` …). */
const REST_PATHS: Partial<Record<ChangeKind, string>> = {
  EVENT: 'events',
  VENUE: 'venues',
  ORGANIZER: 'organizers',
  EVENT_CATEGORY: 'categories',
  EVENT_TAG: 'tags',
};

/**
 * Deliveries render records as an administrator reads them: the endpoints are the site's own
 * integrations, registered by an administrator. Its ID matches no user.
 */
const WEBHOOK_VIEWER: Viewer = { id: 0, login: 'webhooks', role: 'ADMINISTRATOR' };

/**
 * The webhook dispatcher of this server (src/services/webhook-delivery.ts). A delivery carries
 * the record in the REST facade's JSON, the shape TEC-era integrations already parse: the record is
 * read by running the facade's own single-record endpoint (`GET /wp-json/cal/events/v1/events/<id>`)
 * in-process, as the pages do, so the core keeps no second presenter and the facade no webhook code.
 * `origin` is the site's address when CAL_SITE_URL is unset (its host, for the records' URLs).
 */
export function createServerWebhooks(opts: {
  db: Database;
  config: Config;
  rest: ReturnType<typeof createRestDispatch>;
  feed: ChangeFeed;
  logger: Logger;
  origin: () => string;
}): WebhookDispatcher {
  const { db, config, rest } = opts;
  const present = async (change: LoggedChange): Promise<unknown> => {
    const resource = REST_PATHS[change.kind];
    if (!resource || change.action === 'DELETED') return null;
    const cal = createContext({ prisma: db.prisma, settings: config.site, viewer: WEBHOOK_VIEWER, imageImport: config.imageImport });
    const state: AppState = { requestId: `webhook-${change.cursor}`, cal };
    const origin = new URL(config.siteUrl ?? opts.origin());
    const answer = await rest({
      method: 'GET',
      path: `/wp-json/cal/events/v1/${resource}/${change.id}`,
      querystring: '',
      headers: { host: origin.host },
      encrypted: origin.protocol === 'https:',
      state,
    });
    if (!answer || answer.status !== 200) return null;
    const body = typeof answer.body === 'string' ? answer.body : answer.body.toString('latin1');
    return JSON.parse(body) as unknown;
  };
  return createWebhookDispatcher({
    prisma: db.prisma,
    feed: opts.feed,
    present,
    policy: config.webhooks.urls,
    retry: config.webhooks.retry,
    timeoutMs: config.webhooks.timeoutMs,
    // Finished deliveries are kept as long as the changes they carried.
    keepDays: config.changesRetentionDays,
    logger: opts.logger,
  });
}
