import { crudHandler } from '#shared/crud/handlers';
import { policies } from './collection';

/** The handlers of the policies routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const listPoliciesHandler = crudHandler(policies, 'list');

export const createPolicyHandler = crudHandler(policies, 'create');

export const getPolicyHandler = crudHandler(policies, 'get');

export const updatePolicyHandler = crudHandler(policies, 'update');

export const deletePolicyHandler = crudHandler(policies, 'delete');
