import { publicWebhook } from './entity';
import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listWebhooksPage } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.listWebhooks, async ({ query, organizationId }) => {
  const page = await listWebhooksPage(organizationId, query);
  return pageEnvelope('webhooks', { ...page, items: page.items.map(publicWebhook) });
});
