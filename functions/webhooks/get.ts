import { publicWebhook } from '../../shared/entities/webhook';
import { NotFoundError } from '../../shared/errors';
import { apiHandler } from '../../shared/http/api-handler';
import { getWebhook, WEBHOOK_NOT_FOUND } from '../../shared/repositories/webhooks';
import * as routes from '../../shared/routes/webhooks';

export const handler = apiHandler(routes.getWebhook, async ({ path, organizationId }) => {
  const webhook = await getWebhook(organizationId, path.webhookId);
  if (!webhook) throw new NotFoundError(WEBHOOK_NOT_FOUND);
  return { webhook: publicWebhook(webhook) };
});
