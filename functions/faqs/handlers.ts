import { crudHandler } from '#shared/crud/handlers';
import { faqs } from './collection';

/** The handlers of the faqs routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const listFaqsHandler = crudHandler(faqs, 'list');

export const createFaqHandler = crudHandler(faqs, 'create');

export const getFaqHandler = crudHandler(faqs, 'get');

export const updateFaqHandler = crudHandler(faqs, 'update');

export const deleteFaqHandler = crudHandler(faqs, 'delete');
