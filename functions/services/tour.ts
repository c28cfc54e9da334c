import type { ResourceTour } from '#shared/route-tour';

/** The route tour's requests of services (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  stops: [
    {
      route: 'POST /v1/services',
      kind: 'create',
      exception: {
        reason: 'Two sequences: the service’s id and its linked scenario’s, reserved together before the transaction',
      },
      request: () => ({ method: 'POST', path: '/v1/services', body: { name: 'Blocked drain clearing', description: 'Clearing blocked drains', followUpQuestions: ['Which drain is blocked?'], duration: 90, durationUnit: 'MINUTES', tradeCategoryId: 1, pricingType: 'NONE' } }),
      keep: (b, s) => ((s.serviceId = b.service.id), (s.scenarioId = b.service.scenarioId ?? b.service.scenario?.id)),
    },
    { route: 'GET /v1/services/{serviceId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/services/${s.serviceId}` }), keep: (b, s) => (s.scenarioId ??= b.service.scenarioId ?? b.service.scenario?.id) },
    { route: 'GET /v1/scenarios/{scenarioId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/scenarios/${s.scenarioId}` }) },
    { route: 'GET /v1/services', kind: 'list', request: () => ({ method: 'GET', path: '/v1/services?isActive=true' }) },
    { route: 'PATCH /v1/services/{serviceId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/services/${s.serviceId}`, body: { pricingType: 'FIXED', price: 180 } }) },
    { route: 'GET /v1/scenarios', kind: 'list', request: (s) => ({ method: 'GET', path: `/v1/scenarios?tradeServiceId=${s.serviceId}` }) },
    { route: 'PATCH /v1/scenarios/{scenarioId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/scenarios/${s.scenarioId}`, body: { response: 'We can clear that drain today.' } }) },
  ],
  last: [
    { route: 'DELETE /v1/services/{serviceId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/services/${s.serviceId}` }) },
  ],
};
