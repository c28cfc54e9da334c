import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';
import { pageEnvelope } from '../../shared/pagination';
import { createTransfer, deleteTransfer, listTransfers, readTransfer, resolveTransfer, updateTransfer } from './rules';

/** The handlers of the transfers routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const createTransferHandler = apiHandler(routes.createTransfer, async ({ body, organizationId }) => ({
  transfer: await createTransfer(organizationId, body),
}));

export const updateTransferHandler = apiHandler(routes.updateTransfer, async ({ path, body, organizationId }) => ({
  transfer: await updateTransfer(organizationId, path.transferId, body),
}));

export const listTransfersHandler = apiHandler(routes.listTransfers, async ({ query, organizationId }) => pageEnvelope('transfers', await listTransfers(organizationId, query)));

export const resolveTransferHandler = apiHandler(routes.resolveTransfer, async ({ path, body, organizationId }) => ({
  transfer: await resolveTransfer(organizationId, path.transferId, body),
}));

export const getTransferHandler = apiHandler(routes.getTransfer, async ({ path, organizationId }) => ({
  transfer: await readTransfer(organizationId, path.transferId),
}));

export const deleteTransferHandler = apiHandler(routes.deleteTransfer, async ({ path, organizationId }) => ({
  success: true as const,
  id: await deleteTransfer(organizationId, path.transferId),
}));
