import type { IsolationCases, IsolationIdsOf } from '#shared/resource';

/**
 * How each automations route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  getAutomation: [{ path: (ids) => `/v1/automations/${ids.automationId}`, expect: 'not-found' }],
  updateAutomation: [{ path: (ids) => `/v1/automations/${ids.automationId}`, body: () => ({ isEnabled: false }), expect: 'not-found' }],
  deleteAutomation: [{ path: (ids) => `/v1/automations/${ids.automationId}`, expect: 'not-found' }],
  listAutomationRuns: [{ path: (ids) => `/v1/automations/${ids.automationId}/runs`, expect: 'not-found' }],
  enrolAutomationLead: [{ path: (ids) => `/v1/automations/${ids.automationId}/runs`, body: (ids) => ({ leadId: ids.leadId }), expect: 'not-found' }],
  previewAutomation: [{ path: (ids) => `/v1/automations/${ids.automationId}/preview`, body: (ids) => ({ leadId: ids.leadId }), expect: 'not-found' }],
  getAutomationRun: [{ path: (ids) => `/v1/automation-runs/${ids.runId}`, expect: 'not-found' }],
  cancelAutomationRun: [{ path: (ids) => `/v1/automation-runs/${ids.runId}/cancel`, expect: 'not-found' }],
  listLeadAutomationRuns: [{ path: (ids) => `/v1/leads/${ids.leadId}/automation-runs`, expect: 'not-found' }],
  startAutomationEnrolment: [{ path: (ids) => `/v1/automations/${ids.automationId}/enrolments`, body: () => ({ leadStatus: 'NEW' }), expect: 'not-found' }],
  getAutomationEnrolment: [{ path: (ids) => `/v1/automations/${ids.followUp}/enrolments/${ids.enrolmentId}`, expect: 'not-found' }],
  listStoppedAutomationRuns: 'No id enters: the list is the key’s organization’s own stopped runs (functions/automations/runs/stopped-runs.test.ts lists one organization’s while another’s have stopped).',
  createAutomation: 'creates; a notify_member step names a member by id, read only in the caller’s partition (functions/automations/automations.test.ts: another organization’s member answers 400)',
  listAutomations: 'lists the caller’s automations',
  listAutomationTemplates: 'the built-in recipes, the same for every organization',
};

/**
 * The demo makes no automation: one of A's own, disabled so nothing A does starts a run, and a run of the demo's first
 * lead enrolled by hand in another (the quote follow-up, which waits two days before anything).
 */
export const isolationIds: IsolationIdsOf = async ({ demo, client }) => {
  const automationId = (await client.post('/v1/automations', { fromTemplate: 'missed_call_text_back', isEnabled: false })).body.automation.id;
  const followUp = (await client.post('/v1/automations', { fromTemplate: 'quote_follow_up' })).body.automation.id;
  const runId = (await client.post(`/v1/automations/${followUp}/runs`, { leadId: (demo.leadIds as string[])[0] })).body.run.id;
  // A bulk enrolment of the WON leads (none in the demo), so it starts no run of A's while B's requests are sent.
  const enrolmentId = (await client.post(`/v1/automations/${followUp}/enrolments`, { leadStatus: 'WON' })).body.enrolment.id;
  return { automationId, runId, followUp, enrolmentId };
};
