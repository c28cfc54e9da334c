import { publicWebhook } from '../../shared/entities/webhook';
import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listWebhooksPage } from '../../shared/repositories/webhooks';
import * as routes from '../../shared/routes/webhooks';

export const handler = apiHandler(routes.listWebhooks, async ({ query, organizationId }) => {
  const page = await listWebhooksPage(organizationId, query);
  return pageEnvelope('webhooks', { ...page, items: page.items.map(publicWebhook) });
});
