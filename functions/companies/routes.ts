import { PageQuery } from '../../shared/schema';
import {
  CompanyDeleted,
  CompanyIdPath,
  CompanyNoteDeleted,
  CompanyNotePage,
  CompanyNotePath,
  CompanyNoteResponse,
  CompanyPage,
  CompanyResponse,
  CreateCompanyBody,
  CreateCompanyNoteBody,
  ListCompaniesQuery,
  UpdateCompanyBody,
  UpdateCompanyNoteBody,
} from './schema';
import { defineRoute } from '../../shared/routes/route';
import { createRow, deleteRow, getRow, listRow, updateRow } from '../../shared/routes/rows';

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

export const listCompanyNotes = defineRoute({
  operationId: 'listCompanyNotes',
  method: 'GET',
  path: '/v1/companies/{companyId}/notes',
  summary: "List a company's notes, newest first",
  description: 'Pages through the notes of one company, newest first. An unknown company answers 404, not an empty list.',
  tag: 'Companies',
  dynamodb: ['Query', 'GetItem'],
  // gsi6: the change log read with updatedSince.
  indexes: ['gsi6'],
  status: 200,
  request: { path: CompanyIdPath, query: PageQuery },
  response: CompanyNotePage,
  errors: [400, 404],
});

export const createCompanyNote = defineRoute({
  operationId: 'createCompanyNote',
  method: 'POST',
  path: '/v1/companies/{companyId}/notes',
  summary: 'Add a note to a company',
  description: '`userId`, when given, must be a member’s user of the organization (else 400); a note written without one has `userId: null`.',
  tag: 'Companies',
  dynamodb: ['PutItem', 'UpdateItem', 'ConditionCheckItem'],
  status: 201,
  request: { path: CompanyIdPath, body: CreateCompanyNoteBody },
  response: CompanyNoteResponse,
  errors: [400, 404],
});

export const getCompanyNote = defineRoute({
  operationId: 'getCompanyNote',
  method: 'GET',
  path: '/v1/companies/{companyId}/notes/{noteId}',
  summary: 'Read a company note',
  description: 'One note of one company; a note of another company, of a deleted company or of another organization answers 404.',
  tag: 'Companies',
  dynamodb: ['GetItem'],
  status: 200,
  request: { path: CompanyNotePath },
  response: CompanyNoteResponse,
  errors: [400, 404],
});

export const updateCompanyNote = defineRoute({
  operationId: 'updateCompanyNote',
  method: 'PUT',
  alsoPatch: true,
  path: '/v1/companies/{companyId}/notes/{noteId}',
  summary: 'Change a company note’s text',
  description: 'Replaces `value` and moves `updatedAt`.',
  tag: 'Companies',
  dynamodb: ['UpdateItem'],
  status: 200,
  request: { path: CompanyNotePath, body: UpdateCompanyNoteBody },
  response: CompanyNoteResponse,
  errors: [400, 404],
});

export const deleteCompanyNote = defineRoute({
  operationId: 'deleteCompanyNote',
  method: 'DELETE',
  path: '/v1/companies/{companyId}/notes/{noteId}',
  summary: 'Delete a company note',
  description: 'Removes the note and lowers the notes count in one transaction. A note already gone answers 404.',
  tag: 'Companies',
  dynamodb: ['DeleteItem', 'UpdateItem', 'PutItem'],
  status: 200,
  request: { path: CompanyNotePath },
  response: CompanyNoteDeleted,
  errors: [400, 404],
});

export const companyRoutes = [createCompany, listCompanies, getCompany, updateCompany, deleteCompany, listCompanyNotes, createCompanyNote, getCompanyNote, updateCompanyNote, deleteCompanyNote];
