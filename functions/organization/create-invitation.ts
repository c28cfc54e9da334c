import { inviteMember } from './member-rules';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';

export const handler = apiHandler(routes.createOrganizationInvitation, async ({ body, organizationId }) => ({
  invitation: await inviteMember(organizationId, body),
}));
