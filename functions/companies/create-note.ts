import { apiHandler } from '../../shared/http/api-handler';
import { addCompanyNote } from '../../shared/repositories/companies';
import * as routes from '../../shared/routes/companies';

export const handler = apiHandler(routes.createCompanyNote, async ({ path, body, organizationId }) => ({
  note: await addCompanyNote(organizationId, path.companyId, body),
}));
