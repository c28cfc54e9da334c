import type { AuthorizerKind } from '../routes/route';
import { DIMENSION, functionVersionOf, METRIC, METRICS_NAMESPACE, SERVICE_NAME } from '../observability';

/**
 * An authorizer that could not decide, its store having failed (API Gateway answers 503): one count, of the version
 * that ran, written at once. A refused key counts nothing here, though Lambda counts its `Unauthorized` as an error.
 * Powertools Metrics is loaded on the first failure, not at the cold start that keyed requests wait on.
 */
export async function countAuthorizerFailure(authorizer: AuthorizerKind, context: { functionVersion?: string } | undefined): Promise<void> {
  const { Metrics, MetricUnit } = await import('@aws-lambda-powertools/metrics');
  const failure = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });
  failure.addDimensions({ [DIMENSION.authorizer]: authorizer, [DIMENSION.version]: functionVersionOf(context) });
  failure.addMetric(METRIC.authorizerFailures, MetricUnit.Count, 1);
  failure.publishStoredMetrics();
}
