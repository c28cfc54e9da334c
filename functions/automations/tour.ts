import type { ResourceTour } from '#shared/route-tour';

/** The route tour's requests of automations (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  stops: [
    { route: 'GET /v1/automation-templates', kind: 'read', request: () => ({ method: 'GET', path: '/v1/automation-templates' }) },
    { route: 'POST /v1/automations', kind: 'create', request: () => ({ method: 'POST', path: '/v1/automations', body: { fromTemplate: 'quote_follow_up', name: 'Quote chaser' } }), keep: (b, s) => (s.automationId = b.automation.id) },
    { route: 'GET /v1/automations/{automationId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/automations/${s.automationId}` }) },
    { route: 'PATCH /v1/automations/{automationId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/automations/${s.automationId}`, body: { isEnabled: false } }) },
    { route: 'GET /v1/automations', kind: 'list', request: () => ({ method: 'GET', path: '/v1/automations' }) },
    { route: 'DELETE /v1/automations/{automationId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/automations/${s.automationId}` }) },
  ],
};
