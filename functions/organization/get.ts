import { apiHandler } from '../../shared/http/api-handler';
import { getOrganization } from '../../shared/repositories/organizations';
import * as routes from '../../shared/routes/organization';

export const handler = apiHandler(routes.getOrganization, async ({ organizationId }) => ({ organization: await getOrganization(organizationId) }));
