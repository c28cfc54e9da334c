import { apiHandler } from '#shared/http/api-handler';
import { crudHandler } from '#shared/crud/handlers';
import * as routes from './routes';
import { transfers } from './collection';
import { resolveTransfer, transferRules } from './rules';

/** The handlers of the transfers routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const createTransferHandler = crudHandler(transfers, 'create', transferRules);

export const updateTransferHandler = crudHandler(transfers, 'update', transferRules);

export const listTransfersHandler = crudHandler(transfers, 'list', transferRules);

export const resolveTransferHandler = apiHandler(routes.resolveTransfer, async ({ path, body, organizationId }) => ({
  transfer: await resolveTransfer(organizationId, path.transferId, body),
}));

export const getTransferHandler = crudHandler(transfers, 'get', transferRules);

export const deleteTransferHandler = crudHandler(transfers, 'delete', transferRules);
