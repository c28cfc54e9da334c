/**
 * Powertools taken out of a bundle, for the cold-start bench only: the handler factory's floor is bundled once more with
 * `@aws-lambda-powertools/*` resolved here, so the run measures what the rest of the factory costs by itself.
 * Nothing here is called at import; the stubs only have to be what the factory's modules import.
 */
export const MetricUnit = { Count: 'Count', Milliseconds: 'Milliseconds' } as const;

export class Metrics {
  addMetric(): void {}
  addDimension(): void {}
  addMetadata(): void {}
}

export class Logger {
  info(): void {}
  warn(): void {}
  error(): void {}
  debug(): void {}
  appendKeys(): void {}
}

export const injectLambdaContext = () => ({});
export const logMetrics = () => ({});
