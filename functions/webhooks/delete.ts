import { apiHandler } from '../../shared/http/api-handler';
import { deleteWebhook } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.deleteWebhook, async ({ path, organizationId }) => {
  await deleteWebhook(organizationId, path.webhookId);
  return { success: true as const, id: path.webhookId };
});
