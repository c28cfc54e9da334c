import { apiHandler } from '../../shared/http/api-handler';
import { addCompanyNote } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.createCompanyNote, async ({ path, body, organizationId }) => ({
  note: await addCompanyNote(organizationId, path.companyId, body),
}));
