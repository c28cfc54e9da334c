import { EventIdPath, EventListQuery, EventPage, EventResponse, EVENT_RETENTION_DAYS } from './schema';
import { recordRows } from '#shared/routes/record-rows';

const event = recordRows({ tag: 'Events', names: { one: 'Event', many: 'Events' }, path: '/v1/events', idPath: EventIdPath, response: EventResponse, schemas: { query: EventListQuery, page: EventPage } });

export const listEvents = event.list({
  summary: 'List events, newest first',
  description: `Every change that matters — a lead created, an SMS delivered, a product updated — as an event \`{id, type, occurredAt, organizationId, data}\`, where \`data\` is the resource as the API returns it. Events are derived from committed changes only, a moment after them, and kept ${EVENT_RETENTION_DAYS} days. \`type\` filters to one event type; an unknown type answers 400. Webhook subscriptions deliver the same events.`,
  dynamodb: ['Query'],
  indexes: ['gsi1'],
});

export const getEvent = event.get({ summary: 'Read an event', description: `One event, as the list and webhooks deliver it (a webhook's \`webhook-id\` is its event's id). Events are kept ${EVENT_RETENTION_DAYS} days; an older one, or another organization's, answers 404.` });

export const eventRoutes = [listEvents, getEvent];
