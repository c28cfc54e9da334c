import { PageQuery } from '../schemas/common';
import { MemberPage } from '../schemas/members';
import { OrganizationServices } from '../schemas/services';
import { defineRoute } from './route';

export const listOrganizationMembers = defineRoute({
  operationId: 'listOrganizationMembers',
  method: 'GET',
  path: '/v1/organization/members',
  handler: 'organization/members',
  summary: 'List the members with a user account, newest first (pending invitations are left out)',
  tag: 'Organization',
  dynamodb: ['Query', 'GetItem'],
  status: 200,
  request: { query: PageQuery },
  response: MemberPage,
  errors: [400],
});

export const listOrganizationServices = defineRoute({
  operationId: 'listOrganizationServices',
  method: 'GET',
  path: '/v1/organization/services',
  handler: 'organization/services',
  summary: 'List the services grouped by trade category (only categories that have services)',
  tag: 'Organization',
  dynamodb: ['Query'],
  status: 200,
  request: {},
  response: OrganizationServices,
  errors: [],
});

export const organizationRoutes = [listOrganizationMembers, listOrganizationServices];
