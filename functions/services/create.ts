import { apiHandler } from '../../shared/http/api-handler';
import { createService } from './rules';
import * as routes from './routes';

export const handler = apiHandler(routes.createService, async ({ body, organizationId }) => ({
  service: await createService(organizationId, body),
}));
