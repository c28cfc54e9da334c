import type { IsolationCases, IsolationIdsOf } from '#shared/resource';

/**
 * How each webhooks route that takes an API key answers another organization (test/isolation.test.ts): where an id
 * enters, a request naming organization A's records sent with B's key; where none does, why.
 */
export const isolationCases: IsolationCases = {
  getWebhook: [{ path: (ids) => `/v1/webhooks/${ids.webhookId}`, expect: 'not-found' }],
  updateWebhook: [{ path: (ids) => `/v1/webhooks/${ids.webhookId}`, body: () => ({ isEnabled: false }), expect: 'not-found' }],
  deleteWebhook: [{ path: (ids) => `/v1/webhooks/${ids.webhookId}`, expect: 'not-found' }],
  rotateWebhookSecret: [{ path: (ids) => `/v1/webhooks/${ids.webhookId}/rotate-secret`, expect: 'not-found' }],
  listWebhookDeliveries: [
    { path: (ids) => `/v1/webhooks/${ids.webhookId}/deliveries`, expect: 'not-found' },
    { path: (ids) => `/v1/webhooks/${ids.webhookId}/deliveries?eventType=lead.created&status=FAILED`, expect: 'not-found' },
  ],
  // The isolation run records no events (no stream consumer); functions/webhooks/webhooks.test.ts redelivers A's real event with B's key
  // and B's real event to A's webhook, each answered 404.
  redeliverEvent: 'reads only the caller’s event partition and subscriptions: another organization’s event id or webhook id is a key B cannot build; functions/webhooks/webhooks.test.ts shows both 404s with real records',
  testWebhook: [{ path: (ids) => `/v1/webhooks/${ids.webhookId}/test`, expect: 'not-found' }],
  listWebhooks: 'lists the caller’s webhooks',
  createWebhook: 'creates; references nothing',
};

/** The demo makes no subscription: one of A's own. */
export const isolationIds: IsolationIdsOf = async ({ client }) => ({
  webhookId: (await client.post('/v1/webhooks', { url: 'https://hooks.example.com/a', events: ['*'] })).body.webhook.id,
});
