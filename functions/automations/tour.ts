import type { ResourceTour } from '#shared/route-tour';

/**
 * The route tour's requests of automations (test/support/route-tour.ts): one per route that reads the table, each finding
 * what the ones before it made; disabled, so no event of another stop starts a run.
 */
export const tour: ResourceTour = {
  after: ['leads'],
  stops: [
    { route: 'POST /v1/automations', kind: 'create', request: () => ({ method: 'POST', path: '/v1/automations', body: { fromTemplate: 'quote_follow_up', name: 'Quote chaser', isEnabled: false } }), keep: (b, s) => (s.automationId = b.automation.id) },
    { route: 'GET /v1/automations/{automationId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/automations/${s.automationId}` }) },
    { route: 'PATCH /v1/automations/{automationId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/automations/${s.automationId}`, body: { name: 'Quote follow-up, renamed' } }) },
    { route: 'POST /v1/automations/{automationId}/preview', kind: 'other', request: (s) => ({ method: 'POST', path: `/v1/automations/${s.automationId}/preview`, body: { leadId: s.leadId } }) },
    // A disabled automation takes no lead, so it is enabled for the run the tour enrols by hand.
    { route: 'PATCH /v1/automations/{automationId}', kind: 'other', request: (s) => ({ method: 'PATCH', path: `/v1/automations/${s.automationId}`, body: { isEnabled: true } }) },
    {
      route: 'POST /v1/automations/{automationId}/runs',
      kind: 'create',
      exception: { reason: 'Reads the automation and the lead before the transaction that puts the run and its watches' },
      request: (s) => ({ method: 'POST', path: `/v1/automations/${s.automationId}/runs`, body: { leadId: s.leadId } }),
      keep: (b, s) => (s.runId = b.run.id),
    },
    {
      route: 'GET /v1/automations/{automationId}/runs',
      kind: 'list',
      exception: { reason: 'With expand=lead, the page’s leads are read once the page is known: one BatchGetItem more' },
      request: (s) => ({ method: 'GET', path: `/v1/automations/${s.automationId}/runs?expand=lead` }),
    },
    { route: 'GET /v1/automation-runs/{runId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/automation-runs/${s.runId}` }) },
    { route: 'POST /v1/automation-runs/{runId}/cancel', kind: 'other', request: (s) => ({ method: 'POST', path: `/v1/automation-runs/${s.runId}/cancel` }) },
    {
      route: 'GET /v1/automation-runs',
      kind: 'list',
      exception: { reason: 'With expand=lead, the page’s leads are read once the page is known: one BatchGetItem more' },
      request: () => ({ method: 'GET', path: '/v1/automation-runs?stoppedReason=cancelled&expand=lead' }),
    },
    { route: 'GET /v1/leads/{leadId}/automation-runs', kind: 'list', request: (s) => ({ method: 'GET', path: `/v1/leads/${s.leadId}/automation-runs` }) },
    // A bulk enrolment of the CONTACTED leads (the tour's lead): its item put, its message queued; read back once the
    // worker has run it.
    {
      route: 'POST /v1/automations/{automationId}/enrolments',
      kind: 'create',
      exception: { reason: 'Reads the automation to check it takes leads by hand before it puts the enrolment' },
      request: (s) => ({ method: 'POST', path: `/v1/automations/${s.automationId}/enrolments`, body: { leadStatus: 'CONTACTED' } }),
      keep: (b, s) => (s.enrolmentId = b.enrolment.id),
    },
    { route: 'GET /v1/automations/{automationId}/enrolments/{enrolmentId}', kind: 'read', afterQueues: true, request: (s) => ({ method: 'GET', path: `/v1/automations/${s.automationId}/enrolments/${s.enrolmentId}` }) },
    { route: 'GET /v1/automations', kind: 'list', request: () => ({ method: 'GET', path: '/v1/automations' }) },
    { route: 'DELETE /v1/automations/{automationId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/automations/${s.automationId}` }) },
  ],
};
