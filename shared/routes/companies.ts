import { PageQuery } from '../schemas/common';
import { CompanyIdPath, CompanyNotePage } from '../schemas/companies';
import { defineRoute } from './route';

export const listCompanyNotes = defineRoute({
  operationId: 'listCompanyNotes',
  method: 'GET',
  path: '/v1/companies/{companyId}/notes',
  handler: 'companies/notes',
  summary: "List a company's notes, newest first",
  tag: 'Companies',
  dynamodb: ['Query', 'GetItem'],
  status: 200,
  request: { path: CompanyIdPath, query: PageQuery },
  response: CompanyNotePage,
  errors: [400, 404],
});

export const companyRoutes = [listCompanyNotes];
