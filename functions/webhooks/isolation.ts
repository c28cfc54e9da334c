import type { IsolationCases } from '../../shared/resource';

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
  testWebhook: [{ path: (ids) => `/v1/webhooks/${ids.webhookId}/test`, expect: 'not-found' }],
  listWebhooks: 'lists the caller’s webhooks',
  createWebhook: 'creates; references nothing',
};
