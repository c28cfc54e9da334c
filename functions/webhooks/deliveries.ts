import { NotFoundError } from '../../shared/errors';
import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { getWebhook, listDeliveriesPage, WEBHOOK_NOT_FOUND } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.listWebhookDeliveries, async ({ path, query, organizationId }) => {
  const [webhook, page] = await Promise.all([getWebhook(organizationId, path.webhookId), listDeliveriesPage(organizationId, path.webhookId, query)]);
  if (!webhook) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  return pageEnvelope('deliveries', page);
});
