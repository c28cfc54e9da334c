import { createMember } from './member-rules';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';

export const handler = apiHandler(routes.createOrganizationMember, async ({ body, organizationId }) => ({
  member: await createMember(organizationId, body),
}));
