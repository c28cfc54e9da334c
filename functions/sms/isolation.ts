import type { IsolationCases, IsolationIdsOf } from '#shared/resource';

/**
 * How each sms route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  sendSms: [
    { path: () => '/v1/sms', body: (ids) => ({ userId: ids.userId, leadId: ids.leadId, message: 'Hi' }), expect: 'not-found' },
    { path: () => '/v1/sms', body: (ids) => ({ userId: ids.userId, leadId: ids.leadId, message: 'Hi', messageThreadId: ids.threadId }), expect: 'not-found' },
  ],
  listSms: [
    { path: (ids) => `/v1/sms?leadId=${ids.leadId}`, expect: 'empty-list' },
    { path: (ids) => `/v1/sms?messageThreadId=${ids.threadId}`, expect: 'empty-list' },
    { path: (ids) => `/v1/sms?messageThreadId=${ids.threadId}&status=DELIVERED`, expect: 'empty-list' },
  ],
  getSms: [{ path: (ids) => `/v1/sms/${ids.smsId}`, expect: 'not-found' }],
  listConversations: [{ path: (ids) => `/v1/conversations?assignedMemberId=${ids.memberId}`, expect: 'empty-list' }],
};

/** The demo's thread. */
export const isolationIds: IsolationIdsOf = async ({ demo }) => ({ threadId: demo.smsThreadId as string });
