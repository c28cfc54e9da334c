import type { IsolationCases } from '#shared/resource';

/** How the receptionist routes answer another organization (test/isolation.test.ts). */
export const isolationCases: IsolationCases = {
  // +61412345001: the first demo lead's phone, in organization A: an unknown caller to B.
  lookupCaller: [{ path: () => '/v1/callers/%2B61412345001', expect: 'unknown-caller' }],
  getReceptionistContext: 'Takes no id: it reads the records of the key’s own organization.',
};
