import type { IsolationCases } from '#shared/resource';

/** How each API key route answers another organization (test/isolation.test.ts). */
export const isolationCases: IsolationCases = {
  // Another organization's ADMIN revoking this one's key is answered 404: functions/sign-in/sign-in.test.ts.
  listApiKeys: 'lists the session’s organization’s keys; a key is refused (SESSION_REQUIRED)',
  createApiKey: 'creates; references nothing; a key is refused (SESSION_REQUIRED)',
  revokeApiKey: 'a key is refused (SESSION_REQUIRED) before the id is read; a session of another organization is answered 404 (functions/sign-in/sign-in.test.ts)',
};
