/**
 * Request limits per organization. The same numbers become API Gateway usage plans in the stack
 * and the local server's limiter, so what a test reaches on a laptop is what a tenant meets deployed.
 */
export interface UsagePlan {
  /** Steady requests per second (token bucket refill). */
  rateLimit: number;
  /** Requests that may arrive at once (token bucket size). */
  burstLimit: number;
  /** Requests per UTC day. */
  dailyQuota: number;
}

export const USAGE_PLANS = {
  starter: { rateLimit: 10, burstLimit: 20, dailyQuota: 20_000 },
  standard: { rateLimit: 50, burstLimit: 100, dailyQuota: 200_000 },
  scale: { rateLimit: 200, burstLimit: 400, dailyQuota: 2_000_000 },
  // The operator's own integrations, load tests and benchmarks: only the stage's throttle applies.
  internal: { rateLimit: Number.POSITIVE_INFINITY, burstLimit: Number.POSITIVE_INFINITY, dailyQuota: Number.POSITIVE_INFINITY },
} as const satisfies Record<string, UsagePlan>;

export type UsagePlanName = keyof typeof USAGE_PLANS;

export const USAGE_PLAN_NAMES = Object.keys(USAGE_PLANS) as UsagePlanName[];

/** What an organization without a chosen plan gets. */
export const DEFAULT_USAGE_PLAN: UsagePlanName = 'standard';

export const isUsagePlanName = (name: string): name is UsagePlanName => Object.hasOwn(USAGE_PLANS, name);

/**
 * The value the authorizer hands API Gateway to meter a request (its `usageIdentifierKey`), and the
 * value of the organization's API Gateway API key. Never sent by callers: the API key source is the authorizer.
 */
export const usageIdentifierKey = (organizationId: string): string => organizationId;

/** Seconds a throttled caller should wait; API Gateway's gateway responses can only carry a fixed value. */
export const RETRY_AFTER_SECONDS = { THROTTLED: 1, QUOTA_EXCEEDED: 3600 } as const;
