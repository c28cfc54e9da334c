import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import * as routes from './routes';
import { withPhoneRead } from '../leads/phones';
import { createCompany, listCompaniesPage, getCompany, updateCompany, deleteCompany, listCompanyNotesPage, addCompanyNote, getCompanyNote, updateCompanyNote, deleteCompanyNote } from './store';

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

export const listCompanyNotesHandler = apiHandler(routes.listCompanyNotes, async ({ path, query, organizationId }) =>
  pageEnvelope('notes', await listCompanyNotesPage(organizationId, path.companyId, query)),
);

export const createCompanyNoteHandler = apiHandler(routes.createCompanyNote, async ({ path, body, organizationId }) => ({
  note: await addCompanyNote(organizationId, path.companyId, body),
}));

export const getCompanyNoteHandler = apiHandler(routes.getCompanyNote, async ({ path, organizationId }) => ({
  note: await getCompanyNote(organizationId, path.companyId, path.noteId),
}));

export const updateCompanyNoteHandler = apiHandler(routes.updateCompanyNote, async ({ path, body, organizationId }) => ({
  note: await updateCompanyNote(organizationId, path.companyId, path.noteId, body.value),
}));

export const deleteCompanyNoteHandler = apiHandler(routes.deleteCompanyNote, async ({ path, organizationId }) => {
  await deleteCompanyNote(organizationId, path.companyId, path.noteId);
  return { success: true as const, id: path.noteId };
});
