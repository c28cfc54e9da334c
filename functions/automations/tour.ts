import type { ResourceTour } from '#shared/route-tour';

/**
 * The route tour's requests of automations (test/support/route-tour.ts): one per route that reads the table, each finding
 * what the ones before it made; disabled, so no event of another stop starts a run.
 */
export const tour: ResourceTour = {
  stops: [
    { route: 'POST /v1/automations', kind: 'create', request: () => ({ method: 'POST', path: '/v1/automations', body: { fromTemplate: 'quote_follow_up', name: 'Quote chaser', isEnabled: false } }), keep: (b, s) => (s.automationId = b.automation.id) },
    { route: 'GET /v1/automations/{automationId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/automations/${s.automationId}` }) },
    { route: 'PATCH /v1/automations/{automationId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/automations/${s.automationId}`, body: { name: 'Quote follow-up, renamed' } }) },
    { route: 'GET /v1/automations', kind: 'list', request: () => ({ method: 'GET', path: '/v1/automations' }) },
    { route: 'DELETE /v1/automations/{automationId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/automations/${s.automationId}` }) },
  ],
};
