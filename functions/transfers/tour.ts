import { SEQUENCE, type ResourceTour } from '#shared/route-tour';

/** The route tour's requests of transfers (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  stops: [
    {
      route: 'POST /v1/transfers',
      kind: 'create',
      exception: { reason: SEQUENCE },
      request: () => ({ method: 'POST', path: '/v1/transfers', body: { label: 'Emergency plumbing', method: 'WARM', destinationType: 'PHONE_NUMBER', destination: '+61298765432', conditions: 'Burst pipe.' } }),
      keep: (b, s) => (s.transferId = b.transfer.id),
    },
    { route: 'PUT /v1/transfers/{transferId}', kind: 'other', request: (s) => ({ method: 'PUT', path: `/v1/transfers/${s.transferId}`, body: { conditions: 'Any gas smell.' } }) },
    { route: 'PATCH /v1/transfers/{transferId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/transfers/${s.transferId}`, body: { conditions: 'Any gas smell.' } }) },
    { route: 'GET /v1/transfers', kind: 'list', request: () => ({ method: 'GET', path: '/v1/transfers?isEnabled=true' }) },
    { route: 'GET /v1/transfers/{transferId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/transfers/${s.transferId}` }) },
    // The rule and the organization's hours, read together; nothing is written.
    { route: 'POST /v1/transfers/{transferId}/resolve', kind: 'other', request: (s) => ({ method: 'POST', path: `/v1/transfers/${s.transferId}/resolve`, body: { name: 'Tom Baker', topic: 'a burst pipe', summary: 'Water through the ceiling.' } }) },
    { route: 'DELETE /v1/transfers/{transferId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/transfers/${s.transferId}` }) },
  ],
};
