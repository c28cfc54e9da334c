import { apiHandler } from '../../shared/http/api-handler';
import { deleteLeadWithActivities } from '../../shared/repositories/leads';
import * as routes from '../../shared/routes/leads';

export const handler = apiHandler(routes.deleteLead, async ({ path, organizationId }) => {
  await deleteLeadWithActivities(organizationId, path.leadId);
  return { success: true as const, id: path.leadId };
});
