import { updateMember } from '../../shared/domain/members';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/organization';

export const handler = apiHandler(routes.updateOrganizationMember, async ({ path, body, organizationId }) => ({
  member: await updateMember(organizationId, path.memberId, body),
}));
