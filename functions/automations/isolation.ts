import type { IsolationCases, IsolationIdsOf } from '#shared/resource';

/**
 * How each automations route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  getAutomation: [{ path: (ids) => `/v1/automations/${ids.automationId}`, expect: 'not-found' }],
  updateAutomation: [{ path: (ids) => `/v1/automations/${ids.automationId}`, body: () => ({ isEnabled: false }), expect: 'not-found' }],
  deleteAutomation: [{ path: (ids) => `/v1/automations/${ids.automationId}`, expect: 'not-found' }],
  createAutomation: 'creates; a notify_member step names a member by id, read only in the caller’s partition (functions/automations/automations.test.ts: another organization’s member answers 400)',
  listAutomations: 'lists the caller’s automations',
  listAutomationTemplates: 'the built-in recipes, the same for every organization',
};

/** The demo makes no automation: one of A's own, disabled so nothing A does starts a run. */
export const isolationIds: IsolationIdsOf = async ({ client }) => ({
  automationId: (await client.post('/v1/automations', { fromTemplate: 'missed_call_text_back', isEnabled: false })).body.automation.id,
});
