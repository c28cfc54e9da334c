import { defineRoute, type RouteDefinition } from '#shared/routes/route';
import { prose } from '#shared/prose';
import { sealsSecrets } from '#shared/sealing-key';
import { CreatePushSubscriptionBody, MAX_SUBSCRIPTIONS_PER_MEMBER, PushOptions, PushSubscriptionAnswer, PushSubscriptionDeleted, PushSubscriptionIdPath, PushSubscriptionList } from './schema';

export const TAG = 'Notifications';

/** A member's own browsers: a key belongs to no member, so these answer it 403 SESSION_REQUIRED. */
const OWN = { tag: TAG, sessionOnly: true as const, errors: [403] };

export const pushSubscriptionOptions = defineRoute({
  ...OWN,
  operationId: 'pushSubscriptionOptions',
  method: 'POST',
  path: '/v1/me/push-subscription-options',
  summary: 'Start subscribing a browser to notifications',
  description: prose`
    The organization’s application server key (VAPID) for PushManager.subscribe: the organization’s own key pair,
    made at the first ask and the same from then on, so only its notices reach its members’ browsers.
  `,
  dynamodb: ['GetItem', 'PutItem'],
  capabilities: [sealsSecrets],
  status: 200,
  request: {},
  response: PushOptions,
  idempotencyKey: false,
});

export const createPushSubscription = defineRoute({
  ...OWN,
  operationId: 'createPushSubscription',
  method: 'POST',
  path: '/v1/me/push-subscriptions',
  summary: 'Subscribe this browser to notifications',
  description: prose`
    Keeps the browser’s PushSubscription (its \`toJSON()\`) for the member signed in: a missed call, a customer’s reply
    and a failing webhook (ADMINs) are pushed to it, as \`notify\` chooses. A lead assigned to a member notifies that
    member alone. 201 for a new endpoint; the same endpoint again answers 200 with its keys and \`notify\` replaced
    (a browser subscribed by another member of the organization is this member’s from then on). A member has at most
    ${MAX_SUBSCRIPTIONS_PER_MEMBER}: one more answers 409 LIMIT_REACHED. The endpoint must be https on a public host.
  `,
  dynamodb: ['Query', 'PutItem', 'DeleteItem'],
  status: 201,
  request: { body: CreatePushSubscriptionBody },
  requestExample: {
    endpoint: 'https://fcm.googleapis.com/fcm/send/dpH5lCsTSSM:APA91bHqjZxM0VImWWqDRN7U0a3AXjjBr',
    expirationTime: null,
    keys: { p256dh: 'BIPUL12DLfytvTajnryr2PRdAgXS3HGKiLqndGcJGabyhHheJYlNGCeXl1dn18gSJ1WAkAPIxr4gK0_dQds4yiI', auth: 'FPssNDTKnInHVndSTdbKFw' },
    notify: ['MISSED_CALL', 'CUSTOMER_REPLY'],
  },
  response: PushSubscriptionAnswer,
  responses: { 200: { description: 'The endpoint was subscribed already: its keys and choices replaced.', schema: PushSubscriptionAnswer } },
  errors: [400, ...OWN.errors, 409],
  // The same browser posted again updates it (200): a retry is that, and needs no key.
  idempotencyKey: false,
});

export const listPushSubscriptions = defineRoute({
  ...OWN,
  operationId: 'listPushSubscriptions',
  method: 'GET',
  path: '/v1/me/push-subscriptions',
  summary: 'Your browsers that get notifications',
  description: 'The member’s subscriptions, oldest first: each one’s id, endpoint, what it is notified of, and when it was made and last changed.',
  dynamodb: ['Query'],
  status: 200,
  request: {},
  response: PushSubscriptionList,
});

export const deletePushSubscription = defineRoute({
  ...OWN,
  operationId: 'deletePushSubscription',
  method: 'DELETE',
  path: '/v1/me/push-subscriptions/{subscriptionId}',
  summary: 'Stop notifying a browser',
  description: 'Nothing more is pushed to it. One that is not the member’s own answers 404.',
  dynamodb: ['DeleteItem'],
  status: 200,
  request: { path: PushSubscriptionIdPath },
  response: PushSubscriptionDeleted,
  errors: [...OWN.errors, 404],
});

export const pushRoutes: RouteDefinition[] = [pushSubscriptionOptions, createPushSubscription, listPushSubscriptions, deletePushSubscription];
