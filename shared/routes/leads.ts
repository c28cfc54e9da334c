import { DeletedSchema, PageQuery } from '../schemas/common';
import { ActivityPage, CreateLeadBody, DeleteLeadPath, LeadCreated, LeadIdPath, LeadPage } from '../schemas/leads';
import { defineRoute } from './route';

export const listLeads = defineRoute({
  operationId: 'listLeads',
  method: 'GET',
  path: '/v1/leads',
  handler: 'leads/list',
  summary: 'List leads, newest first',
  tag: 'Leads',
  dynamodb: ['Query', 'GetItem'],
  status: 200,
  request: { query: PageQuery },
  response: LeadPage,
  errors: [400],
});

export const createLead = defineRoute({
  operationId: 'createLead',
  method: 'POST',
  path: '/v1/leads',
  handler: 'leads/create',
  summary: 'Create a lead',
  tag: 'Leads',
  dynamodb: ['UpdateItem', 'PutItem'],
  status: 201,
  request: { body: CreateLeadBody },
  response: LeadCreated,
  errors: [400],
});

export const deleteLead = defineRoute({
  operationId: 'deleteLead',
  method: 'DELETE',
  path: '/v1/leads/{id}',
  handler: 'leads/delete',
  summary: 'Delete a lead',
  tag: 'Leads',
  dynamodb: ['DeleteItem', 'UpdateItem', 'Query', 'BatchWriteItem'],
  status: 200,
  request: { path: DeleteLeadPath },
  response: DeletedSchema,
  errors: [400, 404],
});

export const listLeadActivities = defineRoute({
  operationId: 'listLeadActivities',
  method: 'GET',
  path: '/v1/leads/{leadId}/activities',
  handler: 'leads/activities',
  summary: "List a lead's activities, newest first",
  tag: 'Leads',
  dynamodb: ['Query', 'GetItem'],
  status: 200,
  request: { path: LeadIdPath, query: PageQuery },
  response: ActivityPage,
  errors: [400, 404],
});

export const leadRoutes = [listLeads, createLead, deleteLead, listLeadActivities];
