import { ForbiddenError, NotFoundError, UnauthenticatedError, ValidationError } from '../../src/domain/errors.ts';
import {
  addWebhookEndpoint,
  enableWebhookEndpoint,
  listWebhookDeliveries,
  listWebhookEndpoints,
  redeliverWebhook,
  removeWebhookEndpoint,
  WEBHOOK_TYPES,
} from '../../src/services/webhooks.ts';
import type { ChangeAction } from '../../src/services/changes.ts';
import { builder } from '../builder.ts';
import { raisesDomainErrors, writeErrors } from '../errors.ts';
import { globalId, optionalRecordId, recordId } from '../ids.ts';
import { ChangeActionEnum } from './changes.ts';

/**
 * Webhooks (administrators only; src/services/webhooks.ts): endpoints that receive the changes of
 * the change log, signed per the Standard Webhooks specification, with every delivery and its
 * attempts listed and redeliverable.
 */
type EndpointRow = Awaited<ReturnType<typeof listWebhookEndpoints>>[number];
type DeliveryRow = Awaited<ReturnType<typeof listWebhookDeliveries>>[number];
type AttemptRow = DeliveryRow['attemptLog'][number];

const WebhookChangeTypeEnum = builder.enumType('WebhookChangeType', {
  description: 'A kind of record whose changes a webhook endpoint receives.',
  values: WEBHOOK_TYPES,
});

const WebhookDeliveryStatusEnum = builder.enumType('WebhookDeliveryStatus', {
  values: {
    PENDING: { description: 'Not delivered yet: sent at `nextAttemptAt` (retried on an exponential schedule).' },
    DELIVERED: { description: 'The endpoint answered 2xx.' },
    FAILED: { description: 'Given up: not delivered within three days of the change.' },
  },
});

const WebhookAttemptRef = builder.objectRef<AttemptRow>('WebhookAttempt').implement({
  description: 'One HTTP attempt of a delivery.',
  fields: (t) => ({
    attemptedAt: t.expose('attemptedAt', { type: 'DateTime' }),
    statusCode: t.exposeInt('statusCode', { nullable: true, description: "The endpoint's HTTP status; null when no answer came (see `error`)." }),
    error: t.exposeString('error', { nullable: true, description: 'Why no answer came (refused, timed out, URL refused by the address guard).' }),
    durationMs: t.exposeInt('durationMs'),
  }),
});

const WebhookDeliveryRef = builder.objectRef<DeliveryRow>('WebhookDelivery').implement({
  description: 'One change for one endpoint: its payload and its attempts.',
  fields: (t) => ({
    id: t.id({ description: 'Its global ID (`redeliverWebhook(deliveryId:)`).', resolve: (d) => globalId('WebhookDelivery', d.id) }),
    databaseId: t.exposeInt('id'),
    webhookId: t.exposeString('messageId', { description: 'The `webhook-id` header: the same for every attempt and redelivery.' }),
    type: t.exposeString('type', { description: 'The payload\'s `type` (`event.updated`).' }),
    changeCursor: t.exposeString('changeCursor', { description: 'The change\'s cursor in the change log.' }),
    status: t.field({ type: WebhookDeliveryStatusEnum, resolve: (d) => d.status as 'PENDING' | 'DELIVERED' | 'FAILED' }),
    attemptCount: t.exposeInt('attempts'),
    nextAttemptAt: t.field({ type: 'DateTime', nullable: true, description: 'When it is sent next (PENDING only).', resolve: (d) => (d.status === 'PENDING' ? d.nextAttemptAt : null) }),
    deliveredAt: t.expose('deliveredAt', { type: 'DateTime', nullable: true }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    payload: t.exposeString('payload', { description: 'The JSON body sent (and signed).' }),
    attempts: t.field({ type: [WebhookAttemptRef], description: 'Oldest first.', resolve: (d) => d.attemptLog }),
  }),
});

const WebhookEndpointRef = builder.objectRef<EndpointRow>('WebhookEndpoint').implement({
  description: 'Where changes are POSTed, signed per the Standard Webhooks specification.',
  fields: (t) => ({
    id: t.id({ description: 'Its global ID (`removeWebhookEndpoint(id:)`, `enableWebhookEndpoint(id:)`).', resolve: (e) => globalId('WebhookEndpoint', e.id) }),
    databaseId: t.exposeInt('id'),
    url: t.exposeString('url'),
    secret: t.exposeString('secret', { description: 'The signing secret (`whsec_…`), for `new Webhook(secret).verify(body, headers)`.' }),
    description: t.exposeString('description'),
    types: t.field({ type: [WebhookChangeTypeEnum], description: 'Kinds received; empty: all.', resolve: (e) => e.types as (typeof WEBHOOK_TYPES)[number][] }),
    actions: t.field({ type: [ChangeActionEnum], description: 'Actions received; empty: all.', resolve: (e) => e.actions as ChangeAction[] }),
    enabled: t.exposeBoolean('enabled'),
    disabledReason: t.exposeString('disabledReason', { nullable: true, description: 'Why it was disabled (its deliveries failed for days).' }),
    disabledAt: t.expose('disabledAt', { type: 'DateTime', nullable: true }),
    failingSince: t.expose('failingSince', { type: 'DateTime', nullable: true, description: 'Since when every attempt failed; null after a success.' }),
    createdAt: t.expose('createdAt', { type: 'DateTime' }),
    deliveries: t.field({
      type: [WebhookDeliveryRef],
      description: 'Its deliveries, newest first, each with its attempts.',
      args: {
        first: t.arg.int({ description: '1 to 100 (default 20).' }),
        before: t.arg.id({ description: 'Only deliveries older than this one (its `id`): the next page.' }),
        status: t.arg({ type: WebhookDeliveryStatusEnum }),
      },
      resolve: raisesDomainErrors(async (e, args, ctx) =>
        listWebhookDeliveries(ctx, e.id, { ...args, before: optionalRecordId(args.before, ['WebhookDelivery'], 'before') }),
      ),
    }),
  }),
});

const readErrors = [UnauthenticatedError, ForbiddenError, NotFoundError, ValidationError] as const;

builder.queryFields((t) => ({
  webhookEndpoints: t.field({
    type: [WebhookEndpointRef],
    description: 'The webhook endpoints (administrators only).',
    errors: { types: [...readErrors] },
    resolve: (_root, _args, ctx) => listWebhookEndpoints(ctx),
  }),
}));

const AddWebhookEndpointInput = builder.inputType('AddWebhookEndpointInput', {
  fields: (t) => ({
    url: t.string({ required: true, description: 'http(s); private, loopback and reserved addresses are refused unless allowed (CAL_WEBHOOK_ALLOWED_HOSTS).' }),
    types: t.field({ type: [WebhookChangeTypeEnum], description: 'Kinds to receive; none: all.' }),
    actions: t.field({ type: [ChangeActionEnum], description: 'Actions to receive; none: all.' }),
    description: t.string({ description: '500 characters at most.' }),
  }),
});

const endpointPayload = (name: string, description: string) =>
  builder.objectRef<{ endpoint: EndpointRow }>(name).implement({
    description,
    fields: (t) => ({ webhookEndpoint: t.field({ type: WebhookEndpointRef, resolve: (p) => p.endpoint }) }),
  });

const AddWebhookEndpointSuccess = endpointPayload('AddWebhookEndpointSuccess', 'The registered endpoint, with its secret. It receives the changes committed from now on.');
const RemoveWebhookEndpointSuccess = endpointPayload('RemoveWebhookEndpointSuccess', 'The removed endpoint (its queue and attempts are gone with it).');
const EnableWebhookEndpointSuccess = endpointPayload('EnableWebhookEndpointSuccess', 'The endpoint, enabled again: what was queued and what changed meanwhile goes out, in order.');
const RedeliverWebhookSuccess = builder.objectRef<{ delivery: DeliveryRow }>('RedeliverWebhookSuccess').implement({
  description: 'The delivery, queued to be sent again at once.',
  fields: (t) => ({ delivery: t.field({ type: WebhookDeliveryRef, resolve: (p) => p.delivery }) }),
});

builder.mutationFields((t) => ({
  addWebhookEndpoint: t.field({
    type: AddWebhookEndpointSuccess,
    description: 'Registers a webhook endpoint (administrators only).',
    errors: { types: [...writeErrors] },
    args: { input: t.arg({ type: AddWebhookEndpointInput, required: true }) },
    resolve: async (_root, args, ctx) => ({ endpoint: await addWebhookEndpoint(ctx, args.input) }),
  }),
  removeWebhookEndpoint: t.field({
    type: RemoveWebhookEndpointSuccess,
    description: 'Removes a webhook endpoint (administrators only).',
    errors: { types: [...writeErrors] },
    args: { id: t.arg.id({ required: true, description: "The endpoint's `id`." }) },
    resolve: async (_root, args, ctx) => ({ endpoint: await removeWebhookEndpoint(ctx, recordId(args.id, ['WebhookEndpoint'], 'id')) }),
  }),
  enableWebhookEndpoint: t.field({
    type: EnableWebhookEndpointSuccess,
    description: 'Enables an endpoint that was disabled for failing (administrators only).',
    errors: { types: [...writeErrors] },
    args: { id: t.arg.id({ required: true, description: "The endpoint's `id`." }) },
    resolve: async (_root, args, ctx) => ({ endpoint: await enableWebhookEndpoint(ctx, recordId(args.id, ['WebhookEndpoint'], 'id')) }),
  }),
  redeliverWebhook: t.field({
    type: RedeliverWebhookSuccess,
    description: 'Sends a delivery again at once, with its own `webhook-id` (administrators only).',
    errors: { types: [...writeErrors] },
    args: { deliveryId: t.arg.id({ required: true, description: "The delivery's `id`." }) },
    resolve: async (_root, args, ctx) => ({ delivery: await redeliverWebhook(ctx, recordId(args.deliveryId, ['WebhookDelivery'], 'deliveryId')) }),
  }),
}));
