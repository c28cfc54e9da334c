import { apiHandler } from '../../shared/http/api-handler';
import { updateTransfer } from '../../shared/domain/transfers';
import * as routes from '../../shared/routes/transfers';

export const handler = apiHandler(routes.updateTransfer, async ({ path, body, organizationId }) => ({
  transfer: await updateTransfer(organizationId, path.transferId, body),
}));
