import { PageQuery } from '../../shared/schema';
import {
  CompanyDeleted,
  CompanyIdPath,
  CompanyPage,
  CompanyResponse,
  CreateCompanyBody,
  ListCompaniesQuery,
  UpdateCompanyBody,
} from './schema';
import { defineRoute } from '../../shared/routes/route';
import { companyNotes } from './notes';

export const createCompany = defineRoute({
  operationId: 'createCompany',
  method: 'POST',
  path: '/v1/companies',
  summary: 'Create a company',
  description: 'Records a customer business (a strata manager, a builder, an agency). Only `name` is required; the other fields are null until set.',
  tag: 'Companies',
  dynamodb: ['PutItem', 'UpdateItem'],
  status: 201,
  request: { body: CreateCompanyBody },
  response: CompanyResponse,
  errors: [400],
});

export const listCompanies = defineRoute({
  operationId: 'listCompanies',
  method: 'GET',
  path: '/v1/companies',
  summary: 'List companies, newest first',
  description: 'Pages through the organization’s companies, newest first, with an exact `totalCount`; with `q`, only those whose name starts with it, ignoring case and accents (`cote` finds Côte Builders).',
  tag: 'Companies',
  dynamodb: ['Query', 'GetItem'],
  // gsi1: the name search; gsi6: the change log read with updatedSince.
  indexes: ['gsi1', 'gsi6'],
  status: 200,
  request: { query: ListCompaniesQuery },
  response: CompanyPage,
  errors: [400],
});

export const getCompany = defineRoute({
  operationId: 'getCompany',
  method: 'GET',
  path: '/v1/companies/{companyId}',
  summary: 'Read a company',
  description: 'One company of the organization; another organization’s company answers 404.',
  tag: 'Companies',
  dynamodb: ['GetItem'],
  status: 200,
  request: { path: CompanyIdPath },
  response: CompanyResponse,
  errors: [400, 404],
});

export const updateCompany = defineRoute({
  operationId: 'updateCompany',
  method: 'PUT',
  alsoPatch: true,
  path: '/v1/companies/{companyId}',
  summary: 'Change any subset of a company’s fields',
  description: 'Fields left out keep their values; `null` clears an optional field. Moves `updatedAt`.',
  tag: 'Companies',
  dynamodb: ['UpdateItem'],
  status: 200,
  request: { path: CompanyIdPath, body: UpdateCompanyBody },
  response: CompanyResponse,
  errors: [400, 404],
});

export const deleteCompany = defineRoute({
  operationId: 'deleteCompany',
  method: 'DELETE',
  path: '/v1/companies/{companyId}',
  summary: 'Delete a company and its notes',
  description:
    'Removes the company and its notes. While any lead still has the company as its `companyId`, the company is kept and the answer is 409 `COMPANY_HAS_LEADS`: move those leads (`PATCH /v1/leads/{leadId}` with another `companyId`, or `null`) or delete them first, so no lead is left pointing at a missing company. A company already gone answers 404.',
  tag: 'Companies',
  dynamodb: ['DeleteItem', 'UpdateItem', 'Query', 'BatchWriteItem', 'PutItem'],
  status: 200,
  request: { path: CompanyIdPath },
  response: CompanyDeleted,
  errors: [400, 404, 409],
});

export const companyRoutes = [createCompany, listCompanies, getCompany, updateCompany, deleteCompany, ...companyNotes.routes];
