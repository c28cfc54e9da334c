import type { ResourceTour } from '#shared/route-tour';

/** The route tour's requests of sms (test/support/route-tour.ts): one per route, each finding what the ones before it made. */
export const tour: ResourceTour = {
  // After leads, organization: it texts the tour’s lead from its member.
  after: ['leads', 'organization'],
  stops: [
    {
      route: 'POST /v1/sms',
      kind: 'create',
      exception: {
        reason: 'Recorded before it is sent: the lead and member are read, one transaction records the message QUEUED, and after the provider answers one transaction marks it SENT and moves the status counters',
      },
      request: (s) => ({ method: 'POST', path: '/v1/sms', body: { userId: s.userId, leadId: s.leadId, message: 'On our way' } }),
      keep: (b, s) => (s.smsId = b.sms.id),
    },
    { route: 'GET /v1/sms/{smsId}', kind: 'read', request: (s) => ({ method: 'GET', path: `/v1/sms/${s.smsId}` }) },
    { route: 'GET /v1/sms', kind: 'list', request: (s) => ({ method: 'GET', path: `/v1/sms?leadId=${s.leadId}` }) },
    {
      route: 'GET /v1/conversations',
      kind: 'list',
      exception: { reason: 'The conversations are joined to their leads, read once the conversations are known, and the page’s senders to their members: two BatchGetItems after the Query' },
      request: () => ({ method: 'GET', path: '/v1/conversations?expand=lead' }),
    },
  ],
};
