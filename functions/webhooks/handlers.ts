import { NotFoundError } from '#shared/errors';
import { apiHandler } from '#shared/http/api-handler';
import { Answer } from '#shared/http/answer';
import { pageEnvelope } from '#shared/pagination';
import { redeliverEvent, sendTestEvent } from './delivery';
import { publicWebhook } from './entity';
import * as routes from './routes';
import { subscribe, changeWebhook, rotateSecret } from './rules';
import { listWebhooksPage, getWebhook, WEBHOOK_NOT_FOUND, deleteWebhook, listDeliveriesPage } from './store';

/** The handlers of the webhooks routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const createWebhookHandler = apiHandler(routes.createWebhook, async ({ body, organizationId }) => {
  const { webhook, created } = await subscribe(organizationId, body);
  return created ? { webhook } : new Answer(200, { webhook });
});

export const listWebhooksHandler = apiHandler(routes.listWebhooks, async ({ query, organizationId }) => {
  const page = await listWebhooksPage(organizationId, query);
  return pageEnvelope('webhooks', { ...page, items: page.items.map((webhook) => publicWebhook(webhook)) });
});

export const getWebhookHandler = apiHandler(routes.getWebhook, async ({ path, organizationId }) => {
  const webhook = await getWebhook(organizationId, path.webhookId);
  if (!webhook) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  return { webhook: publicWebhook(webhook) };
});

export const updateWebhookHandler = apiHandler(routes.updateWebhook, async ({ path, body, organizationId }) => ({ webhook: await changeWebhook(organizationId, path.webhookId, body) }));

export const deleteWebhookHandler = apiHandler(routes.deleteWebhook, async ({ path, organizationId }) => {
  await deleteWebhook(organizationId, path.webhookId);
  return { success: true as const, id: path.webhookId };
});

export const rotateWebhookSecretHandler = apiHandler(routes.rotateWebhookSecret, async ({ path, organizationId }) => ({ webhook: await rotateSecret(organizationId, path.webhookId) }));

export const listWebhookDeliveriesHandler = apiHandler(routes.listWebhookDeliveries, async ({ path, query, organizationId }) => {
  const [webhook, page] = await Promise.all([getWebhook(organizationId, path.webhookId), listDeliveriesPage(organizationId, path.webhookId, query)]);
  if (!webhook) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  return pageEnvelope('deliveries', page);
});

export const testWebhookHandler = apiHandler(routes.testWebhook, async ({ path, organizationId }) => ({ attempt: await sendTestEvent(organizationId, path.webhookId) }));

export const redeliverEventHandler = apiHandler(routes.redeliverEvent, async ({ path, body, organizationId }) => ({ delivery: await redeliverEvent(organizationId, path.eventId, body.webhookId) }));
