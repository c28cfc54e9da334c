import { apiHandler } from '../../shared/http/api-handler';
import { updateProduct } from './rules';
import * as routes from './routes';

export const handler = apiHandler(routes.updateProduct, async ({ path, body, organizationId }) => ({
  product: await updateProduct(organizationId, path.productId, body),
}));
