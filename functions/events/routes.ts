import { EventSamples, EventSamplesQuery, EVENT_RETENTION_DAYS, SAMPLE_COUNT } from './schema';
import { defineRoute } from '#shared/routes/route';
import { SAMPLE_ID_PREFIX } from './samples-file';
import * as schema from './schema';
import { recordRows } from '#shared/routes/record-rows';
import { prose } from '#shared/prose';

const event = recordRows(schema, { tag: 'Events', names: { one: 'Event', many: 'Events' }, path: '/v1/events' });

export const listEvents = event.list({
  summary: 'List events, newest first',
  description: prose`
    Every change that matters — a lead created, an SMS delivered, a product updated — as an event \`{id, type,
    occurredAt, organizationId, data}\`, where \`data\` is the resource as the API returns it. Events are derived from
    committed changes only, a moment after them, and kept ${EVENT_RETENTION_DAYS} days. \`type\` filters to one event
    type; an unknown type answers 400. Webhook subscriptions deliver the same events.
  `,
  dynamodb: ['Query'],
  indexes: ['gsi1'],
});

export const getEvent = event.get({ summary: 'Read an event', description: `One event, as the list and webhooks deliver it (a webhook's \`webhook-id\` is its event's id). Events are kept ${EVENT_RETENTION_DAYS} days; an older one, or another organization's, answers 404.` });

export const listEventSamples = defineRoute({
  operationId: 'listEventSamples',
  method: 'GET',
  path: '/v1/events/samples',
  summary: 'Sample events of a type',
  description: prose`
    What a trigger's sample data needs (Zapier's \`performList\`, n8n's test step): \`data\` holds the organization's
    newest ${SAMPLE_COUNT} events of \`type\` of the last ${EVENT_RETENTION_DAYS} days, newest first, each exactly as
    \`GET /v1/events/{eventId}\` answers it, so their ids are stable. With none of that type, it holds the type's
    example from this document, as one event carrying the organization's id, whose id (\`${SAMPLE_ID_PREFIX}<type>\`,
    its dot an underscore) is the same on every call and names no stored event. \`type\` is required; an unknown one
    answers 400 naming it.
  `,
  tag: 'Events',
  dynamodb: ['Query'],
  indexes: ['gsi1'],
  status: 200,
  request: { query: EventSamplesQuery },
  response: EventSamples,
  errors: [400],
});

export const eventRoutes = [listEvents, listEventSamples, getEvent];
