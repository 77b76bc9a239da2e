import { createHash, randomBytes } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { ForbiddenError, NotFoundError, ValidationError } from '../domain/errors.ts';
import { requireViewer } from './authz.ts';
import { headCursor } from './change-log.ts';
import { CHANGE_ACTIONS, type ChangeAction, type ChangeKind } from './changes.ts';
import type { Context } from './context.ts';
import { OutboundRefusal, resolveOutboundUrl, type OutboundPolicy } from './outbound-url.ts';

/**
 * Webhook endpoints, administered by administrators (GraphQL, `cal webhook:*`): where the changes
 * of the change log go, which kinds and actions each wants, and the secret each delivery is signed
 * with per the Standard Webhooks specification (`standardwebhooks`). The queue and its worker are in
 * src/services/webhook-delivery.ts.
 */

/** The kinds of records a webhook may follow (accounts have no public change feed). */
export const WEBHOOK_TYPES = ['EVENT', 'VENUE', 'ORGANIZER', 'EVENT_CATEGORY', 'EVENT_TAG'] as const satisfies readonly ChangeKind[];
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

export interface WebhookEndpointInput {
  url: string;
  /** Empty or absent: every kind. */
  types?: readonly WebhookType[] | null;
  /** Empty or absent: every action. */
  actions?: readonly ChangeAction[] | null;
  description?: string | null;
}

export const webhookEndpointSelect = {
  id: true,
  url: true,
  secret: true,
  description: true,
  types: true,
  actions: true,
  enabled: true,
  disabledReason: true,
  disabledAt: true,
  failingSince: true,
  createdAt: true,
} as const;

/** Webhooks are the site's own integrations: administrators alone see and manage them. */
function requireAdmin(ctx: Pick<Context, 'viewer'>): void {
  const viewer = requireViewer(ctx as Context);
  if (viewer.role !== 'ADMINISTRATOR') throw new ForbiddenError('Only administrators manage webhooks.');
}

/** `whsec_` and 32 random bytes in base64: the secret format the Standard Webhooks libraries take. */
function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`;
}

/** Checks an endpoint URL against the private-address guard of every outbound request (src/services/outbound-url.ts). */
export async function checkWebhookUrl(value: string, policy: OutboundPolicy, field = 'url'): Promise<URL> {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw new ValidationError('The webhook URL is not a valid URL.', field, 'WEBHOOK_URL_INVALID');
  }
  if (url.href.length > 2000) throw new ValidationError('The webhook URL is longer than 2,000 characters.', field, 'WEBHOOK_URL_INVALID');
  try {
    await resolveOutboundUrl(url, policy);
  } catch (e) {
    if (!(e instanceof OutboundRefusal)) throw e;
    const message = e.message.charAt(0).toUpperCase() + e.message.slice(1);
    throw new ValidationError(`${message}.`, field, e.reason === 'unresolved' ? 'WEBHOOK_URL_UNRESOLVED' : 'WEBHOOK_URL_FORBIDDEN');
  }
  return url;
}

function uniqueList<T extends string>(values: readonly T[] | null | undefined, allowed: readonly string[], field: string): T[] {
  const list = [...new Set(values ?? [])];
  const bad = list.find((v) => !allowed.includes(v));
  if (bad !== undefined) throw new ValidationError(`Unknown value ${JSON.stringify(bad)}; use one of ${allowed.join(', ')}.`, field);
  return list;
}

/**
 * Registers an endpoint. It receives the changes committed from now on: its cursor starts at the
 * head of the change log (`head`), so registering does not replay the log's past.
 */
export async function addWebhookEndpoint(
  ctx: Pick<Context, 'viewer' | 'prisma' | 'webhookUrls'>,
  input: WebhookEndpointInput,
) {
  requireAdmin(ctx);
  const url = await checkWebhookUrl(input.url, ctx.webhookUrls);
  const types = uniqueList(input.types, WEBHOOK_TYPES, 'types');
  const actions = uniqueList(input.actions, CHANGE_ACTIONS, 'actions');
  const description = (input.description ?? '').trim();
  if (description.length > 500) throw new ValidationError('The description is longer than 500 characters.', 'description');
  return ctx.prisma.webhookEndpoint.create({
    data: { url: url.href, secret: newSecret(), types, actions, description, cursor: await headCursor(ctx.prisma) },
    select: webhookEndpointSelect,
  });
}

export async function listWebhookEndpoints(ctx: Pick<Context, 'viewer' | 'prisma'>) {
  requireAdmin(ctx);
  return ctx.prisma.webhookEndpoint.findMany({ select: webhookEndpointSelect, orderBy: { id: 'asc' } });
}

async function findEndpoint(ctx: Pick<Context, 'prisma'>, id: number) {
  const endpoint = await ctx.prisma.webhookEndpoint.findUnique({ where: { id }, select: webhookEndpointSelect });
  if (!endpoint) throw new NotFoundError(`No webhook endpoint has the ID ${id}.`, 'WEBHOOK_NOT_FOUND', 'id');
  return endpoint;
}

/** Removes an endpoint with its queue and its attempts. */
export async function removeWebhookEndpoint(ctx: Pick<Context, 'viewer' | 'prisma'>, id: number) {
  requireAdmin(ctx);
  const endpoint = await findEndpoint(ctx, id);
  await ctx.prisma.webhookEndpoint.deleteMany({ where: { id } });
  return endpoint;
}

/**
 * Enables an endpoint again (after it was disabled for failing): its failure streak starts anew and
 * the changes queued or committed meanwhile go out, in order.
 */
export async function enableWebhookEndpoint(ctx: Pick<Context, 'viewer' | 'prisma'>, id: number) {
  requireAdmin(ctx);
  await findEndpoint(ctx, id);
  return ctx.prisma.webhookEndpoint.update({
    where: { id },
    data: { enabled: true, disabledReason: null, disabledAt: null, failingSince: null },
    select: webhookEndpointSelect,
  });
}

export const webhookDeliverySelect = {
  id: true,
  endpointId: true,
  changeCursor: true,
  messageId: true,
  type: true,
  recordKey: true,
  payload: true,
  status: true,
  attempts: true,
  nextAttemptAt: true,
  deliveredAt: true,
  createdAt: true,
  attemptLog: { select: { id: true, attemptedAt: true, statusCode: true, error: true, durationMs: true }, orderBy: { id: 'asc' } },
} as const;

/** An endpoint's deliveries, newest first, each with its attempts (status codes, errors). */
export async function listWebhookDeliveries(
  ctx: Pick<Context, 'viewer' | 'prisma'>,
  endpointId: number,
  opts: { first?: number | null; before?: number | null; status?: string | null } = {},
) {
  requireAdmin(ctx);
  await findEndpoint(ctx, endpointId);
  const first = Math.min(Math.max(opts.first ?? 20, 1), 100);
  return ctx.prisma.webhookDelivery.findMany({
    where: { endpointId, ...(opts.before ? { id: { lt: opts.before } } : {}), ...(opts.status ? { status: opts.status } : {}) },
    orderBy: { id: 'desc' },
    take: first,
    select: webhookDeliverySelect,
  });
}

/**
 * Sends a delivery again, at once and with its own `webhook-id` (receivers that already have it
 * drop the repeat), whatever became of it: delivered, given up, or still waiting for a retry.
 */
export async function redeliverWebhook(ctx: Pick<Context, 'viewer' | 'prisma' | 'now'>, deliveryId: number) {
  requireAdmin(ctx);
  const found = await ctx.prisma.webhookDelivery.findUnique({ where: { id: deliveryId }, select: { id: true } });
  if (!found) throw new NotFoundError(`No webhook delivery has the ID ${deliveryId}.`, 'WEBHOOK_DELIVERY_NOT_FOUND', 'id');
  return ctx.prisma.webhookDelivery.update({
    where: { id: deliveryId },
    data: { status: 'PENDING', nextAttemptAt: ctx.now, leaseUntil: null },
    select: webhookDeliverySelect,
  });
}

/** `webhook-id` of a change for an endpoint: the same for every attempt, so a receiver counts it once. */
export function webhookMessageId(endpointId: number, changeCursor: string): string {
  return `msg_${createHash('sha256').update(`${endpointId}\u0000${changeCursor}`).digest('base64url').slice(0, 27)}`;
}

/** Standard Webhooks' event type of a change: `event.updated`, `event_category.created`. */
export function webhookEventType(kind: ChangeKind, action: ChangeAction): string {
  return `${kind.toLowerCase()}.${action.toLowerCase()}`;
}

/** The three headers of a signed delivery (`webhook-id`, `webhook-timestamp`, `webhook-signature`). */
export function signWebhook(secret: string, messageId: string, at: Date, body: string): Record<string, string> {
  return {
    'webhook-id': messageId,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': new Webhook(secret).sign(messageId, at, body),
  };
}
