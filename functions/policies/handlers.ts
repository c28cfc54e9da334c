import { textCollectionHandler } from '../../shared/text-collection-store';
import { policies } from './collection';

/** The handlers of the policies routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const listPoliciesHandler = textCollectionHandler(policies, 'list');

export const createPolicyHandler = textCollectionHandler(policies, 'create');

export const getPolicyHandler = textCollectionHandler(policies, 'get');

export const updatePolicyHandler = textCollectionHandler(policies, 'update');

export const deletePolicyHandler = textCollectionHandler(policies, 'delete');
