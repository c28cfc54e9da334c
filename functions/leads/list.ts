import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listLeadsPage } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.listLeads, async ({ query, organizationId }) => pageEnvelope('leads', await listLeadsPage(organizationId, query)));
