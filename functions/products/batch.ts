import { applyProductBatch } from '../../shared/domain/products';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/products';

export const handler = apiHandler(routes.batchUpdateProducts, async ({ body, organizationId }) => applyProductBatch(organizationId, body.updates));
