import { changeWebhook } from './rules';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';

export const handler = apiHandler(routes.updateWebhook, async ({ path, body, organizationId }) => ({ webhook: await changeWebhook(organizationId, path.webhookId, body) }));
