import { DeletedSchema, PageQuery } from '../../shared/schema';
import { ActivityPage, CreateLeadActivityBody, CreateLeadBody, LeadActivityResponse, LeadIdPath, LeadPage, LeadResponse, ListLeadsQuery, UpdateLeadBody } from './schema';
import { defineRoute } from '../../shared/routes/route';

export const listLeads = defineRoute({
  operationId: 'listLeads',
  method: 'GET',
  path: '/v1/leads',
  summary: 'List leads, newest first',
  description: 'Pages through the organization’s leads, newest first, optionally only those of one `status` and/or one `companyId`. `totalCount` is exact for every filter.',
  tag: 'Leads',
  // BatchGetItem: a sharded organization's totalCount is the sum of its counter's shards.
  dynamodb: ['Query', 'GetItem', 'BatchGetItem'],
  indexes: ['gsi2', 'gsi3', 'gsi4', 'gsi6'],
  status: 200,
  request: { query: ListLeadsQuery },
  response: LeadPage,
  errors: [400],
});

export const createLead = defineRoute({
  operationId: 'createLead',
  method: 'POST',
  path: '/v1/leads',
  summary: 'Create a lead',
  description: 'Creates a lead with status NEW and records its LEAD_CREATED activity in the same transaction. `name` (or `firstName`) is required, and `email` or `phone` (a caller who left only a phone is entered with it); `name` is split into first and last name unless those are given. A `companyId` must be a company of the organization.',
  tag: 'Leads',
  dynamodb: ['UpdateItem', 'PutItem', 'ConditionCheckItem'],
  status: 201,
  request: { body: CreateLeadBody },
  response: LeadResponse,
  errors: [400],
});

export const getLead = defineRoute({
  operationId: 'getLead',
  method: 'GET',
  path: '/v1/leads/{leadId}',
  summary: 'Read a lead',
  description: 'One lead with its pipeline state and unread counts. Another organization’s lead answers 404.',
  tag: 'Leads',
  dynamodb: ['GetItem'],
  status: 200,
  request: { path: LeadIdPath },
  response: LeadResponse,
  errors: [400, 404],
});

export const updateLead = defineRoute({
  operationId: 'updateLead',
  method: 'PATCH',
  path: '/v1/leads/{leadId}',
  summary: 'Change a lead’s details, status, read flag or company',
  description: 'Fields left out keep their values; `null` clears an optional field. A new `status` records a STATUS_CHANGED activity in the same transaction; a `companyId` must be a company of the organization (else 400).',
  tag: 'Leads',
  dynamodb: ['GetItem', 'UpdateItem', 'PutItem', 'ConditionCheckItem'],
  status: 200,
  request: { path: LeadIdPath, body: UpdateLeadBody },
  response: LeadResponse,
  errors: [400, 404, 409],
});

export const deleteLead = defineRoute({
  operationId: 'deleteLead',
  method: 'DELETE',
  path: '/v1/leads/{leadId}',
  summary: 'Delete a lead',
  description: 'Removes the lead, its counts and its activities. Inquiries keep their `leadId`; lists expanding the lead show it as null. A lead already gone answers 404.',
  tag: 'Leads',
  dynamodb: ['GetItem', 'DeleteItem', 'UpdateItem', 'Query', 'BatchWriteItem'],
  status: 200,
  request: { path: LeadIdPath },
  response: DeletedSchema,
  errors: [400, 404],
});

export const listLeadActivities = defineRoute({
  operationId: 'listLeadActivities',
  method: 'GET',
  path: '/v1/leads/{leadId}/activities',
  summary: "List a lead's activities, newest first",
  description: 'The lead’s history (LEAD_CREATED, STATUS_CHANGED, …), newest first. An unknown lead answers 404, not an empty list.',
  tag: 'Leads',
  dynamodb: ['Query', 'GetItem'],
  // gsi6: the change log read with updatedSince.
  indexes: ['gsi6'],
  status: 200,
  request: { path: LeadIdPath, query: PageQuery },
  response: ActivityPage,
  errors: [400, 404],
});

export const createLeadActivity = defineRoute({
  operationId: 'createLeadActivity',
  method: 'POST',
  path: '/v1/leads/{leadId}/activities',
  summary: 'Add a note to a lead’s timeline',
  description: '`{event: "NOTE", data}` records the note text as a `NOTE_ADDED` activity (`userId` null, as for every change made with an API key), listed with the lead’s other activities. `NOTE` is the only event a client adds; the others are recorded by what they describe. An unknown lead answers 404 and records nothing.',
  tag: 'Leads',
  // UpdateItem reserves the activity id; the transaction puts the activity and moves the lead's activity counter.
  dynamodb: ['UpdateItem', 'PutItem'],
  status: 201,
  request: { path: LeadIdPath, body: CreateLeadActivityBody },
  requestExample: { event: 'NOTE', data: 'Prefers a call after 3pm; the side gate code is 4412.' },
  response: LeadActivityResponse,
  errors: [400, 404],
});

export const leadRoutes = [listLeads, createLead, getLead, updateLead, deleteLead, listLeadActivities, createLeadActivity];
