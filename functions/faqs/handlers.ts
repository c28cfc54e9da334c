import { textCollectionHandler } from '../../shared/text-collection-store';
import { faqs } from './collection';

/** The handlers of the faqs routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const listFaqsHandler = textCollectionHandler(faqs, 'list');

export const createFaqHandler = textCollectionHandler(faqs, 'create');

export const getFaqHandler = textCollectionHandler(faqs, 'get');

export const updateFaqHandler = textCollectionHandler(faqs, 'update');

export const deleteFaqHandler = textCollectionHandler(faqs, 'delete');
