import { apiHandler } from '../../shared/http/api-handler';
import { createService } from '../../shared/domain/services';
import * as routes from '../../shared/routes/services';

export const handler = apiHandler(routes.createService, async ({ body, organizationId }) => ({
  service: await createService(organizationId, body),
}));
