import type { IsolationCases } from '../../shared/resource';

/**
 * How each leads route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  listLeads: [{ path: (ids) => `/v1/leads?companyId=${ids.companyId}`, expect: 'empty-list' }, { path: (ids) => `/v1/leads?companyId=${ids.companyId}&status=NEW`, expect: 'empty-list' }],
  createLead: [{ path: () => '/v1/leads', body: (ids) => ({ name: 'B lead', email: 'b@example.com', companyId: ids.companyId }), expect: 'refused' }],
  getLead: [{ path: (ids) => `/v1/leads/${ids.leadId}`, expect: 'not-found' }],
  updateLead: [{ path: (ids) => `/v1/leads/${ids.leadId}`, body: () => ({ status: 'LOST' }), expect: 'not-found' }],
  deleteLead: [{ path: (ids) => `/v1/leads/${ids.leadId}`, expect: 'not-found' }],
  listLeadActivities: [{ path: (ids) => `/v1/leads/${ids.leadId}/activities`, expect: 'not-found' }],
  createLeadActivity: [{ path: (ids) => `/v1/leads/${ids.leadId}/activities`, body: () => ({ event: 'NOTE', data: 'Called back' }), expect: 'not-found' }],
};
