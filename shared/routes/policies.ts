import { PageQuery } from '../schemas/common';
import { PolicyIdPath, PolicyPage, PolicyResponse, UpdatePolicyBody } from '../schemas/policies';
import { defineRoute } from './route';

export const listPolicies = defineRoute({
  operationId: 'listPolicies',
  method: 'GET',
  path: '/v1/policies',
  handler: 'policies/list',
  summary: 'List policies, newest first',
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
  path: '/v1/policies/{policyId}',
  handler: 'policies/update',
  summary: 'Change a policy’s title, content or isActive',
  tag: 'Policies',
  dynamodb: ['UpdateItem'],
  status: 200,
  request: { path: PolicyIdPath, body: UpdatePolicyBody },
  response: PolicyResponse,
  errors: [400, 404],
});

export const policyRoutes = [listPolicies, updatePolicy];
