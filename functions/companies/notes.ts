import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listCompanyNotesPage } from '../../shared/repositories/companies';
import * as routes from '../../shared/routes/companies';

export const handler = apiHandler(routes.listCompanyNotes, async ({ path, query, organizationId }) =>
  pageEnvelope('notes', await listCompanyNotesPage(organizationId, path.companyId, query)),
);
