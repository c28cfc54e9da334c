import type { IsolationCases } from '#shared/resource';

/** How each console route that takes a credential answers another organization (test/isolation.test.ts): none takes an id. */
export const isolationCases: IsolationCases = {
  getCurrentSession: 'the session’s own member; a key is refused (SESSION_REQUIRED)',
  passkeyEnrolmentOptions: 'the session’s own member; a key is refused (SESSION_REQUIRED)',
  addPasskey: 'the session’s own member and enrolment; a key is refused (SESSION_REQUIRED)',
  removePasskey: 'the session’s own member’s passkey alone, another’s answered 404 (passkeys.test.ts); a key is refused (SESSION_REQUIRED)',
  signOut: 'the session itself; a key is refused (SESSION_REQUIRED)',
  signOutEverywhere: 'the session’s own member; a key is refused (SESSION_REQUIRED)',
  // Another organization's ADMIN naming this one's member and passkey is answered 404: functions/sign-in/passkeys.test.ts.
  listMemberPasskeys: 'a key is refused (SESSION_REQUIRED) before the id is read; a session of another organization is answered 404 (passkeys.test.ts)',
  removeMemberPasskey: 'a key is refused (SESSION_REQUIRED) before the ids are read; a session of another organization is answered 404 (passkeys.test.ts)',
};
