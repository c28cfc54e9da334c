import { Logger } from '@aws-lambda-powertools/logger';

/**
 * Powertools for AWS Lambda, once per container. Each reads its settings from the environment the stack
 * sets: POWERTOOLS_LOG_LEVEL and POWERTOOLS_LOGGER_SAMPLE_RATE (a share of invocations logged at DEBUG),
 * POWERTOOLS_METRICS_DISABLED and POWERTOOLS_DEV locally. Traces are Lambda's own (active tracing): the
 * X-Ray SDK that the Powertools Tracer needs would add a third to every cold start (docs/performance.md).
 * The Metrics instance is in ./metrics.ts, so the functions that emit none do not build it.
 */
export const SERVICE_NAME = 'sales-pipeline';
export const METRICS_NAMESPACE = 'SalesPipeline';

export const logger = new Logger({ serviceName: SERVICE_NAME });

/** The custom metrics the functions emit (EMF), named once for the alarms and the dashboard. */
export const METRIC = {
  requests: 'Requests',
  latency: 'Latency',
  /** One per error answer, with the dimension `errorCode`. */
  errors: 'Errors',
  /** One per 5xx answer, by operation and function version: what rolls a route's canary back. */
  serverErrors: 'ServerErrors',
  /** One per authorizer invocation that could not decide (its store failed), by authorizer and version; a refused key is none. */
  authorizerFailures: 'AuthorizerFailures',
  authorizerRefusals: 'AuthorizerRefusals',
  batchItemsApplied: 'BatchItemsApplied',
  batchItemsRefused: 'BatchItemsRefused',
  /** One per AssumeRole a container makes for an organization's session (shared/tenancy/credentials.ts): a warm request makes none. */
  tenantSessionsAssumed: 'TenantSessionsAssumed',
  /** One per AssumeRole STS refused or failed (throttling, most likely): the request answers 503, and an alarm pages. */
  tenantSessionsRefused: 'TenantSessionsRefused',
  /** One per run of the isolation canary whose cross-organization read was refused: its alarm pages when a period has none. */
  isolationProven: 'IsolationProven',
} as const;

/**
 * Dimension names; the organization is metadata, not a dimension (one metric per tenant would be costly). `version` is
 * the Lambda version that answered, so a canary's alarm sees only its new version: only the 5xx and authorizer
 * failure counts carry it, and only a version that failed has a series (docs/capacity.md).
 */
export const DIMENSION = { operation: 'operation', errorCode: 'errorCode', version: 'version', authorizer: 'authorizer', reason: 'reason' } as const;

/** The version a function runs as: Lambda's, by the alias it was invoked through; `$LATEST` when unpublished or local. */
export const functionVersionOf = (context: { functionVersion?: string } | undefined): string =>
  context?.functionVersion || process.env.AWS_LAMBDA_FUNCTION_VERSION || '$LATEST';
