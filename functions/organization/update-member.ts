import { updateMember } from './member-rules';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';

export const handler = apiHandler(routes.updateOrganizationMember, async ({ path, body, organizationId }) => ({
  member: await updateMember(organizationId, path.memberId, body),
}));
