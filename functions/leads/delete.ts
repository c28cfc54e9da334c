import { apiHandler } from '../../shared/http/api-handler';
import { deleteLeadWithActivities } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.deleteLead, async ({ path, organizationId }) => {
  await deleteLeadWithActivities(organizationId, path.leadId);
  return { success: true as const, id: path.leadId };
});
