import { MetricUnit } from '@aws-lambda-powertools/metrics';
import { applyProductBatch } from './rules';
import { apiHandler } from '../../shared/http/api-handler';
import { METRIC, metrics } from '../../shared/observability';
import * as routes from './routes';

export const handler = apiHandler(routes.batchUpdateProducts, async ({ body, organizationId }) => {
  const outcome = await applyProductBatch(organizationId, body.updates);
  // Flushed with the request's other metrics: how many items of the batch were applied and refused.
  metrics.addMetric(METRIC.batchItemsApplied, MetricUnit.Count, outcome.summary.succeeded);
  metrics.addMetric(METRIC.batchItemsRefused, MetricUnit.Count, outcome.summary.failed);
  return outcome;
});
