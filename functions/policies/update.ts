import { apiHandler } from '../../shared/http/api-handler';
import { updatePolicy } from '../../shared/repositories/policies';
import * as routes from '../../shared/routes/policies';

export const handler = apiHandler(routes.updatePolicy, async ({ path, body, organizationId }) => ({
  policy: await updatePolicy(organizationId, path.policyId, body),
}));
