import { PageQuery } from '#shared/schema';
import {
  CompanyDeleted,
  CompanyIdPath,
  CompanyPage,
  CompanyResponse,
  CreateCompanyBody,
  ListCompaniesQuery,
  UpdateCompanyBody,
} from './schema';
import { defineRoute } from '#shared/routes/route';
import { createRow, deleteRow, getRow, listRow, updateRow } from '#shared/routes/rows';
import { companyNotes } from './notes';

export const createCompany = createRow({
  operationId: 'createCompany',
  path: '/v1/companies',
  summary: 'Create a company',
  description: 'Records a customer business (a strata manager, a builder, an agency). Only `name` is required; the other fields are null until set.',
  tag: 'Companies',
  request: { body: CreateCompanyBody },
  response: CompanyResponse,
});

export const listCompanies = listRow({
  operationId: 'listCompanies',
  path: '/v1/companies',
  summary: 'List companies, newest first',
  description: 'Pages through the organization’s companies, newest first, with an exact `totalCount`; with `q`, only those whose name starts with it, ignoring case and accents (`cote` finds Côte Builders).',
  tag: 'Companies',
  // gsi1: the name search; gsi6: the change log read with updatedSince.
  indexes: ['gsi1', 'gsi6'],
  request: { query: ListCompaniesQuery },
  response: CompanyPage,
});

export const getCompany = getRow({
  operationId: 'getCompany',
  path: '/v1/companies/{companyId}',
  summary: 'Read a company',
  description: 'One company of the organization; another organization’s company answers 404.',
  tag: 'Companies',
  request: { path: CompanyIdPath },
  response: CompanyResponse,
});

export const updateCompany = updateRow({
  operationId: 'updateCompany',
  method: 'PUT',
  path: '/v1/companies/{companyId}',
  summary: 'Change any subset of a company’s fields',
  description: 'Fields left out keep their values; `null` clears an optional field. Moves `updatedAt`.',
  tag: 'Companies',
  request: { path: CompanyIdPath, body: UpdateCompanyBody },
  response: CompanyResponse,
});

export const deleteCompany = deleteRow({
  operationId: 'deleteCompany',
  path: '/v1/companies/{companyId}',
  summary: 'Delete a company and its notes',
  description:
    'Removes the company and its notes. While any lead still has the company as its `companyId`, the company is kept and the answer is 409 `COMPANY_HAS_LEADS`: move those leads (`PATCH /v1/leads/{leadId}` with another `companyId`, or `null`) or delete them first, so no lead is left pointing at a missing company. A company already gone answers 404.',
  tag: 'Companies',
  dynamodb: ['DeleteItem', 'UpdateItem', 'Query', 'BatchWriteItem', 'PutItem'],
  request: { path: CompanyIdPath },
  response: CompanyDeleted,
  errors: [409],
});

export const companyRoutes = [createCompany, listCompanies, getCompany, updateCompany, deleteCompany, ...companyNotes.routes];
