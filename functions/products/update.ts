import { apiHandler } from '../../shared/http/api-handler';
import { updateProduct } from '../../shared/domain/products';
import * as routes from '../../shared/routes/products';

export const handler = apiHandler(routes.updateProduct, async ({ path, body, organizationId }) => ({
  product: await updateProduct(organizationId, path.productId, body),
}));
