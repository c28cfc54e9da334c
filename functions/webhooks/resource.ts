import { defineResource } from '../../shared/resource';
import { webhook, webhookDelivery, webhookWithSecret } from './examples';
import { webhookRoutes } from './routes';
import { Webhook, WebhookDelivery, WebhookWithSecret } from './schema';

export const webhooks = defineResource({
  name: 'webhooks',
  tags: { Webhooks: 'Subscriptions that receive events as signed HTTP POSTs (Standard Webhooks), retried for 24 hours, with every attempt logged.' },
  routes: webhookRoutes,
  components: {
    Webhook: { schema: Webhook, example: webhook },
    WebhookWithSecret: { schema: WebhookWithSecret, example: webhookWithSecret },
    WebhookDelivery: { schema: WebhookDelivery, example: webhookDelivery },
  },
});
