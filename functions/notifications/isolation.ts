import type { IsolationCases } from '#shared/resource';

/** How each notification route answers another organization (test/isolation.test.ts). */
export const isolationCases: IsolationCases = {
  pushSubscriptionOptions: 'answers the session’s organization’s own key; a key is refused (SESSION_REQUIRED)',
  createPushSubscription: 'subscribes for the session’s member; references nothing; a key is refused (SESSION_REQUIRED)',
  listPushSubscriptions: 'lists the session’s member’s own; a key is refused (SESSION_REQUIRED)',
  deletePushSubscription: 'a key is refused (SESSION_REQUIRED) before the id is read; another member’s answers 404 (functions/notifications/notifications.test.ts)',
};
