import { defineResource, namedComponents } from '#shared/resource';
import * as examples from './examples';
import { webhookMessages, webhookRoutes } from './routes';
import { Webhook, WebhookDelivery, WebhookTestEvent, WebhookWithSecret } from './schema';
import { webhookKeys, webhookKeySamples } from './entity';
import { changes } from './changes';
import { deliveries } from './channels';
import { opensSecrets } from '#shared/sealing-key';

export const webhooks = defineResource({
  name: 'webhooks',
  tags: { Webhooks: 'Subscriptions that receive events as signed HTTP POSTs (Standard Webhooks), retried for 24 hours, with every attempt logged.' },
  routes: webhookRoutes,
  // Who and what reaches the organization: an admin's alone, read or changed (shared/member-roles.ts).
  sessionRoles: { read: 'ADMIN', write: 'ADMIN' },
  // The delivery queue's consumer: one signed POST per message, retried with backoff. It reads the subscription,
  // records the attempt, marks or disables the subscription; npm start's queue hands each job to `deliver`. It signs
  // with the subscription's secrets, opened.
  workers: [{ name: 'DeliverWebhooks', handler: 'deliver', trigger: { kind: 'queue', queue: 'deliveries' }, dynamodb: ['GetItem', 'PutItem', 'UpdateItem'], capabilities: [opensSecrets], local: 'delivery#deliver' }],
  channels: [deliveries],
  components: namedComponents({ Webhook, WebhookWithSecret, WebhookDelivery, WebhookTestEvent }, examples),
  webhooks: webhookMessages,
  ...changes,
  keys: [{ builders: webhookKeys, samples: webhookKeySamples }],
});
