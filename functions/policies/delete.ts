import { apiHandler } from '../../shared/http/api-handler';
import { deletePolicy } from '../../shared/repositories/policies';
import * as routes from '../../shared/routes/policies';

export const handler = apiHandler(routes.deletePolicy, async ({ path, organizationId }) => {
  await deletePolicy(organizationId, path.policyId);
  return { success: true as const, id: path.policyId };
});
