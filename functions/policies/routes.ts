import { PageQuery } from '../../shared/schema';
import { CreatePolicyBody, PolicyDeleted, PolicyIdPath, PolicyPage, PolicyResponse, UpdatePolicyBody } from './schema';
import { defineRoute } from '../../shared/routes/route';

export const listPolicies = defineRoute({
  operationId: 'listPolicies',
  method: 'GET',
  path: '/v1/policies',
  handler: 'policies/list',
  summary: 'List policies, newest first',
  description: 'Pages through the organization\'s policies, newest first, with an exact `totalCount`.',
  tag: 'Policies',
  dynamodb: ['Query', 'GetItem'],
  status: 200,
  request: { query: PageQuery },
  response: PolicyPage,
  errors: [400],
});

export const updatePolicy = defineRoute({
  operationId: 'updatePolicy',
  method: 'PUT',
  alsoPatch: true,
  path: '/v1/policies/{policyId}',
  handler: 'policies/update',
  summary: 'Change a policy’s title, content or isActive',
  description: 'Fields left out keep their values. Another organization\'s policy answers 404.',
  tag: 'Policies',
  dynamodb: ['UpdateItem'],
  status: 200,
  request: { path: PolicyIdPath, body: UpdatePolicyBody },
  response: PolicyResponse,
  errors: [400, 404],
});

export const createPolicy = defineRoute({
  operationId: 'createPolicy',
  method: 'POST',
  path: '/v1/policies',
  handler: 'policies/create',
  summary: 'Create a policy',
  description: 'A policy the AI receptionist can quote (cancellations, warranty, payment terms). `isActive` defaults to true.',
  tag: 'Policies',
  dynamodb: ['UpdateItem', 'PutItem'],
  status: 201,
  request: { body: CreatePolicyBody },
  response: PolicyResponse,
  errors: [400],
});

export const deletePolicy = defineRoute({
  operationId: 'deletePolicy',
  method: 'DELETE',
  path: '/v1/policies/{policyId}',
  handler: 'policies/delete',
  summary: 'Delete a policy',
  description: 'Removes the policy and lowers the policies count in one transaction. A policy already gone answers 404.',
  tag: 'Policies',
  dynamodb: ['DeleteItem', 'UpdateItem'],
  status: 200,
  request: { path: PolicyIdPath },
  response: PolicyDeleted,
  errors: [400, 404],
});

export const policyRoutes = [listPolicies, createPolicy, updatePolicy, deletePolicy];
