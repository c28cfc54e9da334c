import { BadRequestError } from '../../shared/errors';
import { apiHandler } from '../../shared/http/api-handler';
import { applyProductBatch } from '../../shared/repositories/products';
import * as routes from '../../shared/routes/products';
import { MAX_BATCH_ITEMS } from '../../shared/schemas/products';

export const handler = apiHandler(routes.batchUpdateProducts, async ({ body, organizationId }) => {
  if (body.updates.length > MAX_BATCH_ITEMS) {
    throw new BadRequestError(`The batch exceeds ${MAX_BATCH_ITEMS} items (${body.updates.length} given); nothing was applied`, 'BATCH_TOO_LARGE');
  }
  return applyProductBatch(organizationId, body.updates);
});
