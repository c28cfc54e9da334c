import { newId } from '#shared/ids';
import type { ResourceTour } from '#shared/route-tour';

/** The route tour's requests of webhooks (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  stops: [
    { route: 'POST /v1/webhooks', kind: 'create', request: () => ({ method: 'POST', path: '/v1/webhooks', body: { url: 'https://hooks.example.com/crm', events: ['lead.created'] } }), keep: (b, s) => (s.webhookId = b.webhook.id) },
    { route: 'GET /v1/webhooks/{webhookId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/webhooks/${s.webhookId}` }) },
    { route: 'PUT /v1/webhooks/{webhookId}', kind: 'other', request: (s) => ({ method: 'PUT', path: `/v1/webhooks/${s.webhookId}`, body: { events: ['*'] } }) },
    // A closed local port (npm start and the tests accept loopback receivers): the test event's attempt fails at once.
    { route: 'PATCH /v1/webhooks/{webhookId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/webhooks/${s.webhookId}`, body: { events: ['*'], url: 'http://127.0.0.1:9/crm' } }) },
    { route: 'POST /v1/webhooks/{webhookId}/test', kind: 'other', request: (s) => ({ method: 'POST', path: `/v1/webhooks/${s.webhookId}/test` }) },
    // No event exists without the stream consumer: the event and the subscription are read together (two GetItems), answered 404.
    { route: 'POST /v1/events/{eventId}/redeliver', kind: 'other', status: 404, request: (s) => ({ method: 'POST', path: `/v1/events/${newId('evt')}/redeliver`, body: { webhookId: s.webhookId } }) },
    { route: 'POST /v1/webhooks/{webhookId}/rotate-secret', kind: 'other', request: (s) => ({ method: 'POST', path: `/v1/webhooks/${s.webhookId}/rotate-secret` }) },
    {
      route: 'GET /v1/webhooks/{webhookId}/deliveries',
      kind: 'list',
      exception: {
        reason:
          'Deliveries have no counter (TTL deletes them after 30 days, unseen by a counter), so totalCount is a COUNT ' +
          'Query over the window, sent with the page Query and the subscription read: three calls, together. A filter ' +
          '(eventType, status or both) reads its own index partition (gsi1, gsi2, gsi3), so it is the same three calls',
      },
      request: (s) => ({ method: 'GET', path: `/v1/webhooks/${s.webhookId}/deliveries?eventType=webhook.test&status=FAILED` }),
    },
    { route: 'GET /v1/webhooks', kind: 'list', request: () => ({ method: 'GET', path: '/v1/webhooks' }) },
    { route: 'DELETE /v1/webhooks/{webhookId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/webhooks/${s.webhookId}` }) },
  ],
};
