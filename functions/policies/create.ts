import { apiHandler } from '../../shared/http/api-handler';
import { createPolicy } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.createPolicy, async ({ body, organizationId }) => ({
  policy: await createPolicy(organizationId, body),
}));
