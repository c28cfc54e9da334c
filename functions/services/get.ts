import { apiHandler } from '../../shared/http/api-handler';
import { getService } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.getService, async ({ path, organizationId }) => ({
  service: await getService(organizationId, path.serviceId),
}));
