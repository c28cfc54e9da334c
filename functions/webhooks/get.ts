import { publicWebhook } from './entity';
import { NotFoundError } from '../../shared/errors';
import { apiHandler } from '../../shared/http/api-handler';
import { getWebhook, WEBHOOK_NOT_FOUND } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.getWebhook, async ({ path, organizationId }) => {
  const webhook = await getWebhook(organizationId, path.webhookId);
  if (!webhook) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  return { webhook: publicWebhook(webhook) };
});
