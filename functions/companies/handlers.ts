import { apiHandler } from '#shared/http/api-handler';
import { pageEnvelope } from '#shared/pagination';
import * as routes from './routes';
import { withPhoneRead } from '../leads/phones';
import { createCompany, listCompaniesPage, getCompany, updateCompany, deleteCompany } from './store';
import { crudHandler } from '#shared/crud/handlers';
import { companyNotes } from './notes';
import { noteRules } from './notes-store';

/** The handlers of the companies routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const createCompanyHandler = apiHandler(routes.createCompany, async ({ body, organizationId }) => ({
  company: await createCompany(organizationId, await withPhoneRead(organizationId, body)),
}));

export const listCompaniesHandler = apiHandler(routes.listCompanies, async ({ query, organizationId }) =>
  pageEnvelope('companies', await listCompaniesPage(organizationId, query)),
);

export const getCompanyHandler = apiHandler(routes.getCompany, async ({ path, organizationId }) => ({
  company: await getCompany(organizationId, path.companyId),
}));

export const updateCompanyHandler = apiHandler(routes.updateCompany, async ({ path, body, organizationId }) => ({
  company: await updateCompany(organizationId, path.companyId, await withPhoneRead(organizationId, body)),
}));

export const deleteCompanyHandler = apiHandler(routes.deleteCompany, async ({ path, organizationId }) => {
  await deleteCompany(organizationId, path.companyId);
  return { success: true as const, id: path.companyId };
});

export const listCompanyNotesHandler = crudHandler(companyNotes, 'list', noteRules);

export const createCompanyNoteHandler = crudHandler(companyNotes, 'create', noteRules);

export const getCompanyNoteHandler = crudHandler(companyNotes, 'get', noteRules);

export const updateCompanyNoteHandler = crudHandler(companyNotes, 'update', noteRules);

export const deleteCompanyNoteHandler = crudHandler(companyNotes, 'delete', noteRules);
