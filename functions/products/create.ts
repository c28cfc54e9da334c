import { apiHandler } from '../../shared/http/api-handler';
import { createProduct } from './rules';
import * as routes from './routes';

export const handler = apiHandler(routes.createProduct, async ({ body, organizationId }) => ({
  product: await createProduct(organizationId, body),
}));
