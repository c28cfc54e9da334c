import { acceptInvitation } from './member-rules';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';

export const handler = apiHandler(routes.acceptOrganizationInvitation, async ({ path, body, organizationId }) => ({
  member: await acceptInvitation(organizationId, path.invitationId, body),
}));
