import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import type { AuthorizerKind } from './routes/route';
import { DIMENSION, functionVersionOf, METRIC, METRICS_NAMESPACE, SERVICE_NAME } from './observability';

/**
 * Powertools Metrics (EMF), once per container, flushed per request by the handler factory. Apart from the logger
 * (./observability.ts): the functions that emit no metric (the stream consumer, the SMS and webhook workers) log, and
 * importing the logger built this too, at every one of their cold starts.
 */
export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });

/**
 * An authorizer that could not decide, its store having failed (API Gateway answers 503): one count, of the version
 * that ran, written at once. A refused key counts nothing here, though Lambda counts its `Unauthorized` as an error.
 */
export function countAuthorizerFailure(authorizer: AuthorizerKind, context: { functionVersion?: string } | undefined): void {
  const failure = metrics.singleMetric();
  failure.addDimensions({ [DIMENSION.authorizer]: authorizer, [DIMENSION.version]: functionVersionOf(context) });
  failure.addMetric(METRIC.authorizerFailures, MetricUnit.Count, 1);
}
