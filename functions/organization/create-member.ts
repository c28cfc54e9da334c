import { createMember } from '../../shared/domain/members';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/organization';

export const handler = apiHandler(routes.createOrganizationMember, async ({ body, organizationId }) => ({
  member: await createMember(organizationId, body),
}));
