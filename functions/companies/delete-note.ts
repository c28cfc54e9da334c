import { apiHandler } from '../../shared/http/api-handler';
import { deleteCompanyNote } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.deleteCompanyNote, async ({ path, organizationId }) => {
  await deleteCompanyNote(organizationId, path.companyId, path.noteId);
  return { success: true as const, id: path.noteId };
});
