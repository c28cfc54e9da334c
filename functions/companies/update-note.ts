import { apiHandler } from '../../shared/http/api-handler';
import { updateCompanyNote } from '../../shared/repositories/companies';
import * as routes from '../../shared/routes/companies';

export const handler = apiHandler(routes.updateCompanyNote, async ({ path, body, organizationId }) => ({
  note: await updateCompanyNote(organizationId, path.companyId, path.noteId, body.value),
}));
