import type { IsolationCases } from '../../shared/resource';

/**
 * How each policies route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  getPolicy: [{ path: (ids) => `/v1/policies/${ids.policyId}`, expect: 'not-found' }],
  updatePolicy: [{ path: (ids) => `/v1/policies/${ids.policyId}`, body: () => ({ isActive: false }), expect: 'not-found' }],
  deletePolicy: [{ path: (ids) => `/v1/policies/${ids.policyId}`, expect: 'not-found' }],
  listPolicies: 'lists the caller’s policies',
  createPolicy: 'creates; references nothing',
};
