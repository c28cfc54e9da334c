import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';
import { createTransfer, updateTransfer } from './rules';

/** The handlers of the transfers routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const createTransferHandler = apiHandler(routes.createTransfer, async ({ body, organizationId }) => ({
  transfer: await createTransfer(organizationId, body),
}));

export const updateTransferHandler = apiHandler(routes.updateTransfer, async ({ path, body, organizationId }) => ({
  transfer: await updateTransfer(organizationId, path.transferId, body),
}));
