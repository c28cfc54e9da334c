import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listCompanyNotesPage } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.listCompanyNotes, async ({ path, query, organizationId }) =>
  pageEnvelope('notes', await listCompanyNotesPage(organizationId, path.companyId, query)),
);
