import type { IsolationCases } from '#shared/resource';

/**
 * How each inquiries route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  listInquiries: [
    { path: (ids) => `/v1/inquiries?leadId=${ids.leadId}`, expect: 'empty-list' },
    { path: (ids) => `/v1/inquiries?leadId=${ids.leadId}&source=CALL`, expect: 'empty-list' },
    { path: (ids) => `/v1/inquiries?leadId=${ids.leadId}&expand=both`, expect: 'empty-list' },
  ],
  getInquiry: [{ path: (ids) => `/v1/inquiries/${ids.inquiryId}`, expect: 'not-found' }],
  updateInquiry: [{ path: (ids) => `/v1/inquiries/${ids.inquiryId}`, body: () => ({ isRead: true }), expect: 'not-found' }],
  ingestInquiry: 'creates; the lead is found by email or phone among the caller’s own leads',
};
