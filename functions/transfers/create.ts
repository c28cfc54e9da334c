import { apiHandler } from '../../shared/http/api-handler';
import { createTransfer } from '../../shared/domain/transfers';
import * as routes from '../../shared/routes/transfers';

export const handler = apiHandler(routes.createTransfer, async ({ body, organizationId }) => ({
  transfer: await createTransfer(organizationId, body),
}));
