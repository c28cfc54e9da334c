import { MAX_WEBHOOKS_PER_ORGANIZATION } from './schema';
import { CreateWebhookBody, UpdateWebhookBody, WebhookDeleted, WebhookDeliveryPage, WebhookIdPath, WebhookListQuery, WebhookPage, WebhookResponse, WebhookSecretResponse } from './schema';
import { defineRoute } from '../../shared/routes/route';

const SIGNING = 'Deliveries follow the Standard Webhooks specification: a POST of the event JSON with `webhook-id` (the event id, the same on every retry), `webhook-timestamp` and `webhook-signature` headers, verifiable with any Standard Webhooks library.';

export const createWebhook = defineRoute({
  operationId: 'createWebhook',
  method: 'POST',
  path: '/v1/webhooks',
  summary: 'Subscribe a URL to events',
  description: `Delivers each event of the listed types (or \`*\` for all) to \`url\`, which must be https and must not point at a private, loopback or link-local address. The answer carries \`secret\` (\`whsec_…\`) — shown only here and on rotation. ${SIGNING} An organization has at most ${MAX_WEBHOOKS_PER_ORGANIZATION} webhooks.`,
  tag: 'Webhooks',
  dynamodb: ['PutItem', 'UpdateItem'],
  status: 201,
  request: { body: CreateWebhookBody },
  response: WebhookSecretResponse,
  errors: [400],
});

export const listWebhooks = defineRoute({
  operationId: 'listWebhooks',
  method: 'GET',
  path: '/v1/webhooks',
  summary: 'List webhooks, newest first',
  description: 'The organization’s webhook subscriptions, without their secrets.',
  tag: 'Webhooks',
  dynamodb: ['Query', 'GetItem'],
  // gsi6: the change log read with updatedSince.
  indexes: ['gsi6'],
  status: 200,
  request: { query: WebhookListQuery },
  response: WebhookPage,
  errors: [400],
});

export const getWebhook = defineRoute({
  operationId: 'getWebhook',
  method: 'GET',
  path: '/v1/webhooks/{webhookId}',
  summary: 'Get a webhook',
  description: 'One subscription, without its secret. `disabledReason` says why the service disabled it, if it did.',
  tag: 'Webhooks',
  dynamodb: ['GetItem'],
  status: 200,
  request: { path: WebhookIdPath },
  response: WebhookResponse,
  errors: [400, 404],
});

export const updateWebhook = defineRoute({
  operationId: 'updateWebhook',
  method: 'PUT',
  alsoPatch: true,
  path: '/v1/webhooks/{webhookId}',
  summary: 'Change a webhook’s url, events, description or isEnabled',
  description: 'Fields left out keep their values. Setting `isEnabled` to true re-enables a subscription the service disabled and clears `disabledReason`.',
  tag: 'Webhooks',
  dynamodb: ['UpdateItem'],
  status: 200,
  request: { path: WebhookIdPath, body: UpdateWebhookBody },
  response: WebhookResponse,
  errors: [400, 404],
});

export const deleteWebhook = defineRoute({
  operationId: 'deleteWebhook',
  method: 'DELETE',
  path: '/v1/webhooks/{webhookId}',
  summary: 'Delete a webhook',
  description: 'Stops deliveries at once, including pending retries.',
  tag: 'Webhooks',
  dynamodb: ['DeleteItem', 'UpdateItem'],
  status: 200,
  request: { path: WebhookIdPath },
  response: WebhookDeleted,
  errors: [400, 404],
});

export const rotateWebhookSecret = defineRoute({
  operationId: 'rotateWebhookSecret',
  method: 'POST',
  path: '/v1/webhooks/{webhookId}/rotate-secret',
  summary: 'Rotate a webhook’s signing secret',
  description: 'Answers the new `secret`, shown only here. For 24 hours deliveries carry two signatures, one per secret, so the receiver can switch over without missing one.',
  tag: 'Webhooks',
  dynamodb: ['GetItem', 'UpdateItem'],
  status: 200,
  request: { path: WebhookIdPath },
  response: WebhookSecretResponse,
  errors: [400, 404, 409],
});

export const listWebhookDeliveries = defineRoute({
  operationId: 'listWebhookDeliveries',
  method: 'GET',
  path: '/v1/webhooks/{webhookId}/deliveries',
  summary: 'List a webhook’s delivery attempts, newest first',
  description: 'Every attempt of the last 30 days: the event, the attempt number, the receiver’s status code or the error, the duration and when the next attempt is due. A non-2xx answer or none within 10 s is retried with exponential backoff for up to 24 hours.',
  tag: 'Webhooks',
  dynamodb: ['GetItem', 'Query'],
  status: 200,
  request: { path: WebhookIdPath, query: WebhookListQuery },
  response: WebhookDeliveryPage,
  errors: [400, 404],
});

export const webhookRoutes = [createWebhook, listWebhooks, getWebhook, updateWebhook, deleteWebhook, rotateWebhookSecret, listWebhookDeliveries];
