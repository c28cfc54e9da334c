import { rotateSecret } from '../../shared/domain/webhooks';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/webhooks';

export const handler = apiHandler(routes.rotateWebhookSecret, async ({ path, organizationId }) => ({ webhook: await rotateSecret(organizationId, path.webhookId) }));
