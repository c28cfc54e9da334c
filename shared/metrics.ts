import { Metrics } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE, SERVICE_NAME } from './observability';

/**
 * Powertools Metrics (EMF), once per container, flushed per request by the handler factory. Apart from the logger
 * (./observability.ts): the functions that emit no metric (the stream consumer, the SMS and webhook workers) log, and
 * importing the logger built this too, at every one of their cold starts. The authorizers count only their failures
 * and refusals, loading Powertools Metrics then (./auth/authorizer-failures.ts).
 */
export const metrics = new Metrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE_NAME });
