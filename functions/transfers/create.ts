import { apiHandler } from '../../shared/http/api-handler';
import { createTransfer } from './rules';
import * as routes from './routes';

export const handler = apiHandler(routes.createTransfer, async ({ body, organizationId }) => ({
  transfer: await createTransfer(organizationId, body),
}));
