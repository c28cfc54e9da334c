import { apiHandler } from '../../shared/http/api-handler';
import { deletePolicy } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.deletePolicy, async ({ path, organizationId }) => {
  await deletePolicy(organizationId, path.policyId);
  return { success: true as const, id: path.policyId };
});
