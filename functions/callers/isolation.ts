import type { IsolationCases } from '../../shared/resource';

/** How the callers route answers another organization (test/isolation.test.ts): A's lead's phone is an unknown caller to B. */
export const isolationCases: IsolationCases = {
  // +61412345001: the first demo lead's phone, in organization A.
  lookupCaller: [{ path: () => '/v1/callers/%2B61412345001', expect: 'unknown-caller' }],
};
