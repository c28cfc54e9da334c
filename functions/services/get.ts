import { apiHandler } from '../../shared/http/api-handler';
import { getService } from '../../shared/repositories/services';
import * as routes from '../../shared/routes/services';

export const handler = apiHandler(routes.getService, async ({ path, organizationId }) => ({
  service: await getService(organizationId, path.serviceId),
}));
