import { apiHandler } from '../../shared/http/api-handler';
import { getOrganization, updateOrganization } from '../../shared/repositories/organizations';
import * as routes from '../../shared/routes/organization';

export const handler = apiHandler(routes.updateOrganization, async ({ body, organizationId }) => {
  await updateOrganization(organizationId, body);
  return { organization: await getOrganization(organizationId) };
});
