import { EventIdPath, EventListQuery, EventPage, EventResponse, EVENT_RETENTION_DAYS } from './schema';
import { RedeliverEventBody, WebhookDeliveryResponse } from '../webhooks/schema';
import { defineRoute } from '../../shared/routes/route';

export const listEvents = defineRoute({
  operationId: 'listEvents',
  method: 'GET',
  path: '/v1/events',
  summary: 'List events, newest first',
  description: `Every change that matters — a lead created, an SMS delivered, a product updated — as an event \`{id, type, occurredAt, organizationId, data}\`, where \`data\` is the resource as the API returns it. Events are derived from committed changes only, a moment after them, and kept ${EVENT_RETENTION_DAYS} days. \`type\` filters to one event type; an unknown type answers 400. Webhook subscriptions deliver the same events.`,
  tag: 'Events',
  dynamodb: ['Query'],
  indexes: ['gsi1'],
  status: 200,
  request: { query: EventListQuery },
  response: EventPage,
  errors: [400],
});

export const getEvent = defineRoute({
  operationId: 'getEvent',
  method: 'GET',
  path: '/v1/events/{eventId}',
  summary: 'Read an event',
  description: `One event, as the list and webhooks deliver it (a webhook's \`webhook-id\` is its event's id). Events are kept ${EVENT_RETENTION_DAYS} days; an older one, or another organization's, answers 404.`,
  tag: 'Events',
  dynamodb: ['GetItem'],
  status: 200,
  request: { path: EventIdPath },
  response: EventResponse,
  errors: [400, 404],
});

export const redeliverEvent = defineRoute({
  operationId: 'redeliverEvent',
  method: 'POST',
  path: '/v1/events/{eventId}/redeliver',
  summary: 'Deliver an event again to one webhook',
  description: `Queues a new delivery of a stored event to the subscription \`webhookId\`, through the same queue, signing and retries as every delivery, and answers 202 with its record, PENDING until it is attempted (then SUCCEEDED or FAILED in the webhook's deliveries). The receiver gets the event's own id as \`webhook-id\`, as the first delivery had, with a new \`webhook-timestamp\` and signature. An event older than the ${EVENT_RETENTION_DAYS} days events are kept answers 410 EVENT_EXPIRED; a webhook that is disabled (WEBHOOK_DISABLED) or does not subscribe to the event's type (NOT_SUBSCRIBED) answers 409; an unknown event or webhook, or another organization's, 404.`,
  tag: 'Events',
  dynamodb: ['GetItem', 'PutItem'],
  queuesWebhooks: true,
  status: 202,
  request: { path: EventIdPath, body: RedeliverEventBody },
  response: WebhookDeliveryResponse,
  errors: [400, 404, 409],
  responses: { 410: { description: `EVENT_EXPIRED: the event is older than the ${EVENT_RETENTION_DAYS} days events are kept.` } },
});

export const eventRoutes = [listEvents, getEvent, redeliverEvent];
