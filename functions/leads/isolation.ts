import type { IsolationCases } from '#shared/resource';

/**
 * How each leads route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  listLeads: [
    { path: (ids) => `/v1/leads?companyId=${ids.companyId}`, expect: 'empty-list' },
    { path: (ids) => `/v1/leads?companyId=${ids.companyId}&status=NEW`, expect: 'empty-list' },
    // Searches for the other organization's demo lead Olivia Nguyen, by name, email and phone.
    { path: () => '/v1/leads?q=olivia', expect: 'empty-list' },
    { path: () => '/v1/leads?q=olivia.nguyen@example.com.au', expect: 'empty-list' },
    { path: () => '/v1/leads?email=olivia.nguyen@example.com.au', expect: 'empty-list' },
    { path: () => '/v1/leads?phone=%2B61412345001', expect: 'empty-list' },
  ],
  createLead: [{ path: () => '/v1/leads', body: (ids) => ({ name: 'B lead', email: 'b@example.com', companyId: ids.companyId }), expect: 'refused' }],
  upsertLead: [
    { path: () => '/v1/leads/upsert', body: (ids) => ({ match: 'email', email: 'b@example.com', name: 'B lead', companyId: ids.companyId }), expect: 'refused' },
    // The other organization's lead has this email: B's upsert finds no lead, so without a name it cannot create one (400), and A's lead is untouched.
    { path: () => '/v1/leads/upsert', body: () => ({ match: 'email', email: 'olivia.nguyen@example.com.au', suburb: 'Taken' }), expect: 'refused' },
  ],
  getLead: [{ path: (ids) => `/v1/leads/${ids.leadId}`, expect: 'not-found' }],
  updateLead: [{ path: (ids) => `/v1/leads/${ids.leadId}`, body: () => ({ status: 'LOST' }), expect: 'not-found' }],
  deleteLead: [{ path: (ids) => `/v1/leads/${ids.leadId}`, expect: 'not-found' }],
  listLeadActivities: [{ path: (ids) => `/v1/leads/${ids.leadId}/activities`, expect: 'not-found' }],
  createLeadActivity: [{ path: (ids) => `/v1/leads/${ids.leadId}/activities`, body: () => ({ event: 'NOTE', data: 'Called back' }), expect: 'not-found' }],
};
