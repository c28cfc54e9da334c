import { apiHandler } from '#shared/http/api-handler';
import { METRIC } from '#shared/observability';
import { metrics } from '#shared/metrics';
import { MetricUnit } from '@aws-lambda-powertools/metrics';
import * as routes from './routes';
import { createProduct, updateProduct, applyProductBatch, readProduct, removeProduct } from './rules';
import { listProductsPage } from './store';
import { pageEnvelope } from '#shared/pagination';

/** The handlers of the products routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const createProductHandler = apiHandler(routes.createProduct, async ({ body, organizationId }) => ({
  product: await createProduct(organizationId, body),
}));

export const listProductsHandler = apiHandler(routes.listProducts, async ({ query, organizationId }) => pageEnvelope('products', await listProductsPage(organizationId, query)));

export const getProductHandler = apiHandler(routes.getProduct, async ({ path, organizationId }) => ({ product: await readProduct(organizationId, path.productId) }));

export const deleteProductHandler = apiHandler(routes.deleteProduct, async ({ path, organizationId }) => {
  await removeProduct(organizationId, path.productId);
  return { success: true as const, id: path.productId };
});

export const updateProductHandler = apiHandler(routes.updateProduct, async ({ path, body, organizationId }) => ({
  product: await updateProduct(organizationId, path.productId, body),
}));

export const batchUpdateProductsHandler = apiHandler(routes.batchUpdateProducts, async ({ body, organizationId }) => {
  const outcome = await applyProductBatch(organizationId, body.updates);
  // Flushed with the request's other metrics: how many items of the batch were applied and refused.
  metrics.addMetric(METRIC.batchItemsApplied, MetricUnit.Count, outcome.summary.succeeded);
  metrics.addMetric(METRIC.batchItemsRefused, MetricUnit.Count, outcome.summary.failed);
  return outcome;
});
