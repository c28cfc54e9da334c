import type { ResourceTour } from '#shared/route-tour';

/** The route tour's requests of events (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  // After webhooks: a redelivery names the tour’s subscription.
  after: ['webhooks'],
  stops: [
    { route: 'GET /v1/events', kind: 'list', request: () => ({ method: 'GET', path: '/v1/events' }) },
    // No event exists without the stream consumer: the one Query of the type's newest finds none, and the example is answered.
    { route: 'GET /v1/events/samples', kind: 'list', request: () => ({ method: 'GET', path: '/v1/events/samples?type=lead.created' }) },
    // The tour runs without the stream consumer, so no event exists: the read of one is its single GetItem, answered 404.
    { route: 'GET /v1/events/{eventId}', kind: 'read', status: 404, request: () => ({ method: 'GET', path: '/v1/events/evt_01JCZ3V7Q8K2M4N6P8R0S2T4V6' }) },
  ],
};
