import { apiHandler } from '../../shared/http/api-handler';
import { listServicesByCategory } from '../../shared/domain/services';
import * as routes from '../../shared/routes/organization';

export const handler = apiHandler(routes.listOrganizationServices, async ({ organizationId }) => listServicesByCategory(organizationId));
