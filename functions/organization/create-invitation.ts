import { inviteMember } from '../../shared/domain/members';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/organization';

export const handler = apiHandler(routes.createOrganizationInvitation, async ({ body, organizationId }) => ({
  invitation: await inviteMember(organizationId, body),
}));
