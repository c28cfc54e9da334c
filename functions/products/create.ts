import { apiHandler } from '../../shared/http/api-handler';
import { createProduct } from '../../shared/domain/products';
import * as routes from '../../shared/routes/products';

export const handler = apiHandler(routes.createProduct, async ({ body, organizationId }) => ({
  product: await createProduct(organizationId, body),
}));
