import { apiHandler } from '../../shared/http/api-handler';
import { deleteWebhook } from '../../shared/repositories/webhooks';
import * as routes from '../../shared/routes/webhooks';

export const handler = apiHandler(routes.deleteWebhook, async ({ path, organizationId }) => {
  await deleteWebhook(organizationId, path.webhookId);
  return { success: true as const, id: path.webhookId };
});
