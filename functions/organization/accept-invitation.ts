import { acceptInvitation } from '../../shared/domain/members';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/organization';

export const handler = apiHandler(routes.acceptOrganizationInvitation, async ({ path, body, organizationId }) => ({
  member: await acceptInvitation(organizationId, path.invitationId, body),
}));
