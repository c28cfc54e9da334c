import { EVENT_ID } from '../events/examples';
import { TEST_EVENT_MESSAGE, TEST_EVENT_TYPE } from './schema';

/** Examples of the webhook's components in the OpenAPI document (see functions/leads/examples.ts). */
export const webhook = {
  id: 'webhook_01JCZ50A1B2C3D4E5F6G7H8J9K',
  url: 'https://hooks.example.com/sales-pipeline',
  events: ['lead.created', 'inquiry.created', 'sms.received'],
  description: 'CRM sync',
  isEnabled: true,
  disabledReason: null,
  expiresAt: null,
  failingSince: null,
  createdAt: '2026-10-30T02:11:45.120Z',
  updatedAt: '2026-10-30T02:11:45.120Z',
};

export const webhookWithSecret = { ...webhook, secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw3Qh8zFZZ0Wo=' };

export const webhookDelivery = {
  id: 'delivery_01JCZ5A1B2C3D4E5F6G7H8J9K0',
  eventId: EVENT_ID,
  eventType: 'lead.created',
  attempt: 2,
  status: 'FAILED',
  statusCode: 503,
  error: null,
  durationMs: 184,
  attemptedAt: '2026-11-02T21:14:40.512Z',
  nextAttemptAt: '2026-11-02T21:15:41.204Z',
};

export const webhookTestEvent = {
  id: 'evt_01JCZ5D3E4F5G6H7J8K9M0N1P2',
  type: TEST_EVENT_TYPE,
  occurredAt: '2026-11-02T21:20:02.318Z',
  organizationId: 'org_01JA0000000000000000000000',
  data: { webhookId: webhook.id, message: TEST_EVENT_MESSAGE },
};
