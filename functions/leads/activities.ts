import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listActivitiesPage } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.listLeadActivities, async ({ path, query, organizationId }) =>
  pageEnvelope('activities', await listActivitiesPage(organizationId, path.leadId, query)),
);
