import type { ResourceTour } from '#shared/route-tour';
import { asMember } from '../sign-in/tour';

/** A browser's keys as a test browser makes them: a P-256 public key and a 16-byte secret. */
const P256DH = 'BIPUL12DLfytvTajnryr2PRdAgXS3HGKiLqndGcJGabyhHheJYlNGCeXl1dn18gSJ1WAkAPIxr4gK0_dQds4yiI';

/** The route tour's requests of notifications (test/support/route-tour.ts): the member signed in on the sign-in tour subscribes a browser, lists and removes it. */
export const tour: ResourceTour = {
  after: ['sign-in'],
  stops: [
    { route: 'POST /v1/me/push-subscription-options', kind: 'other', request: (s) => ({ method: 'POST', path: '/v1/me/push-subscription-options', body: {}, headers: asMember(s, true) }) },
    {
      route: 'POST /v1/me/push-subscriptions',
      kind: 'other',
      request: (s) => ({ method: 'POST', path: '/v1/me/push-subscriptions', body: { endpoint: 'https://push.example.com/send/tour', keys: { p256dh: P256DH, auth: 'FPssNDTKnInHVndSTdbKFw' } }, headers: asMember(s, true) }),
      keep: (b, s) => (s.pushSubscriptionId = b.subscription.id),
    },
    { route: 'GET /v1/me/push-subscriptions', kind: 'list', request: (s) => ({ method: 'GET', path: '/v1/me/push-subscriptions', headers: asMember(s) }) },
    { route: 'DELETE /v1/me/push-subscriptions/{subscriptionId}', kind: 'other', request: (s) => ({ method: 'DELETE', path: `/v1/me/push-subscriptions/${s.pushSubscriptionId}`, headers: asMember(s, true) }) },
  ],
};
