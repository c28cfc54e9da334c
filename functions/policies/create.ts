import { apiHandler } from '../../shared/http/api-handler';
import { createPolicy } from '../../shared/repositories/policies';
import * as routes from '../../shared/routes/policies';

export const handler = apiHandler(routes.createPolicy, async ({ body, organizationId }) => ({
  policy: await createPolicy(organizationId, body),
}));
