import { apiHandler } from '../../shared/http/api-handler';
import { updateCompanyNote } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.updateCompanyNote, async ({ path, body, organizationId }) => ({
  note: await updateCompanyNote(organizationId, path.companyId, path.noteId, body.value),
}));
