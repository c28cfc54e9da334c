import { apiHandler } from '../../shared/http/api-handler';
import { updateTransfer } from './rules';
import * as routes from './routes';

export const handler = apiHandler(routes.updateTransfer, async ({ path, body, organizationId }) => ({
  transfer: await updateTransfer(organizationId, path.transferId, body),
}));
