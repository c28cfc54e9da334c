import type { ResourceTour } from '#shared/route-tour';

/** The route tour's requests of inbound-endpoints (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  // After leads: its post finds the tour’s lead, whose create took the container’s block of activity ids.
  after: ['leads'],
  stops: [
    { route: 'POST /v1/inbound-endpoints', kind: 'create', request: () => ({ method: 'POST', path: '/v1/inbound-endpoints', body: { name: 'Website form', source: 'WEBFORM' } }), keep: (b, s) => ((s.endpointId = b.inboundEndpoint.id), (s.endpointUrl = new URL(b.inboundEndpoint.url))) },
    {
      route: 'POST /v1/inbound/{inboundEndpointId}',
      kind: 'create',
      exception: { reason: 'As POST /v1/inquiries, after reading the endpoint to check its token' },
      request: (s) => ({ method: 'POST', path: `${s.endpointUrl.pathname}${s.endpointUrl.search}`, body: { email: 'tom@example.com', message: 'Quote for a new tap' } }),
    },
    { route: 'GET /v1/inbound-endpoints', kind: 'list', request: () => ({ method: 'GET', path: '/v1/inbound-endpoints' }) },
    { route: 'GET /v1/inbound-endpoints/{inboundEndpointId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/inbound-endpoints/${s.endpointId}` }) },
    { route: 'PATCH /v1/inbound-endpoints/{inboundEndpointId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/inbound-endpoints/${s.endpointId}`, body: { name: 'Website quote form' } }) },
    { route: 'POST /v1/inbound-endpoints/{inboundEndpointId}/rotate', kind: 'other', request: (s) => ({ method: 'POST', path: `/v1/inbound-endpoints/${s.endpointId}/rotate` }) },
    { route: 'DELETE /v1/inbound-endpoints/{inboundEndpointId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/inbound-endpoints/${s.endpointId}` }) },
  ],
};
