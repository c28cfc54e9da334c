import { rotateSecret } from './rules';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';

export const handler = apiHandler(routes.rotateWebhookSecret, async ({ path, organizationId }) => ({ webhook: await rotateSecret(organizationId, path.webhookId) }));
