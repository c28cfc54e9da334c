import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listLeadsPage } from '../../shared/repositories/leads';
import * as routes from '../../shared/routes/leads';

export const handler = apiHandler(routes.listLeads, async ({ query, organizationId }) => pageEnvelope('leads', await listLeadsPage(organizationId, query)));
