import { subscribe } from './rules';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';

export const handler = apiHandler(routes.createWebhook, async ({ body, organizationId }) => ({ webhook: await subscribe(organizationId, body) }));
