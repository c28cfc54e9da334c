import type { IsolationCases } from '#shared/resource';

/** How each console route that takes a credential answers another organization (test/isolation.test.ts): none takes an id. */
export const isolationCases: IsolationCases = {
  getCurrentSession: 'the session’s own member; a key is refused (SESSION_REQUIRED)',
  passkeyEnrolmentOptions: 'the session’s own member; a key is refused (SESSION_REQUIRED)',
  addPasskey: 'the session’s own member and enrolment; a key is refused (SESSION_REQUIRED)',
  signOut: 'the session itself; a key is refused (SESSION_REQUIRED)',
  signOutEverywhere: 'the session’s own member; a key is refused (SESSION_REQUIRED)',
};
