import { subscribe } from '../../shared/domain/webhooks';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/webhooks';

export const handler = apiHandler(routes.createWebhook, async ({ body, organizationId }) => ({ webhook: await subscribe(organizationId, body) }));
