import { apiHandler } from '../../shared/http/api-handler';
import { listServicesByCategory } from '../services/rules';
import * as routes from './routes';

export const handler = apiHandler(routes.listOrganizationServices, async ({ organizationId }) => listServicesByCategory(organizationId));
