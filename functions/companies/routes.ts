import * as schema from './schema';
import { recordRows } from '#shared/routes/record-rows';
import { companyNotes } from './notes';
import { prose } from '#shared/prose';

const company = recordRows(schema, { tag: 'Companies', names: { one: 'Company', many: 'Companies' }, path: '/v1/companies', changeLog: true });

export const createCompany = company.create({ summary: 'Create a company', description: 'Records a customer business (a strata manager, a builder, an agency). Only `name` is required; the other fields are null until set.' });

export const listCompanies = company.list({
  summary: 'List companies, newest first',
  description: 'Pages through the organization’s companies, newest first, with an exact `totalCount`; with `q`, only those whose name starts with it, ignoring case and accents (`cote` finds Côte Builders).',
  // gsi1: the name search.
  indexes: ['gsi1'],
});

export const getCompany = company.get({ summary: 'Read a company', description: 'One company of the organization; another organization’s company answers 404.' });

export const updateCompany = company.update({
  method: 'PUT',
  summary: 'Change any subset of a company’s fields',
  description: 'Fields left out keep their values; `null` clears an optional field. Moves `updatedAt`.',
});

export const deleteCompany = company.delete({
  summary: 'Delete a company and its notes',
  description: prose`
    Removes the company and its notes. While any lead still has the company as its \`companyId\`, the company is
    kept and the answer is 409 \`COMPANY_HAS_LEADS\`: move those leads (\`PATCH /v1/leads/{leadId}\` with another
    \`companyId\`, or \`null\`) or delete them first, so no lead is left pointing at a missing company. A company
    already gone answers 404.
  `,
  dynamodb: ['DeleteItem', 'UpdateItem', 'Query', 'BatchWriteItem', 'PutItem'],
  errors: [409],
});

export const companyRoutes = [createCompany, listCompanies, getCompany, updateCompany, deleteCompany, ...companyNotes.routes];
