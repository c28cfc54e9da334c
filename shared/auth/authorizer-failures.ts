import type { AuthorizerKind } from '../routes/route';
import { DIMENSION, functionVersionOf, METRIC, METRICS_NAMESPACE, SERVICE_NAME } from '../observability';

/** One count of the authorizer and the version that ran, written at once. */
async function count(metric: string, authorizer: AuthorizerKind, context: { functionVersion?: string } | undefined): Promise<void> {
  const { Metrics, MetricUnit } = await import('@aws-lambda-powertools/metrics');
  const counted = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });
  counted.addDimensions({ [DIMENSION.authorizer]: authorizer, [DIMENSION.version]: functionVersionOf(context) });
  counted.addMetric(metric, MetricUnit.Count, 1);
  counted.publishStoredMetrics();
}

/**
 * An authorizer that could not decide, its store having failed (API Gateway answers 503). Powertools Metrics is
 * loaded on the first count, not at the cold start that keyed requests wait on.
 */
export const countAuthorizerFailure = (authorizer: AuthorizerKind, context: { functionVersion?: string } | undefined) => count(METRIC.authorizerFailures, authorizer, context);

/**
 * A key or endpoint refused on purpose (the `Unauthorized` API Gateway answers 401), which Lambda counts as an error
 * like any other throw. Lambda's errors less these are the version's real failures (a throw, a failed init, a
 * timeout), which roll a canary back (infra/cdk/monitoring.ts).
 */
export async function refused(authorizer: AuthorizerKind, context: { functionVersion?: string } | undefined): Promise<Error> {
  await count(METRIC.authorizerRefusals, authorizer, context);
  return new Error('Unauthorized');
}
