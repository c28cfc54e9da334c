import { apiHandler } from '../../shared/http/api-handler';
import { updatePolicy } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.updatePolicy, async ({ path, body, organizationId }) => ({
  policy: await updatePolicy(organizationId, path.policyId, body),
}));
