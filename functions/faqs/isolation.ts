import type { IsolationCases } from '../../shared/resource';

/**
 * How each faqs route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  getFaq: [{ path: (ids) => `/v1/faqs/${ids.faqId}`, expect: 'not-found' }],
  updateFaq: [{ path: (ids) => `/v1/faqs/${ids.faqId}`, body: () => ({ isActive: false }), expect: 'not-found' }],
  deleteFaq: [{ path: (ids) => `/v1/faqs/${ids.faqId}`, expect: 'not-found' }],
  listFaqs: 'lists the caller’s FAQs',
  createFaq: 'creates; references nothing',
};
