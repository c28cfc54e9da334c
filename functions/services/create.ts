import { apiHandler } from '../../shared/http/api-handler';
import { createServiceWithScenario } from '../../shared/repositories/services';
import * as routes from '../../shared/routes/services';

export const handler = apiHandler(routes.createService, async ({ body, organizationId }) => ({
  service: await createServiceWithScenario(organizationId, body),
}));
