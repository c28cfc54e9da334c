import { apiHandler } from '../../shared/http/api-handler';
import { getOrganization, updateOrganization } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.updateOrganization, async ({ body, organizationId }) => {
  await updateOrganization(organizationId, body);
  return { organization: await getOrganization(organizationId) };
});
