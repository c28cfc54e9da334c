import { changeWebhook } from '../../shared/domain/webhooks';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/webhooks';

export const handler = apiHandler(routes.updateWebhook, async ({ path, body, organizationId }) => ({ webhook: await changeWebhook(organizationId, path.webhookId, body) }));
