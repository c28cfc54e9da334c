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

/**
 * The inbound route's own throttle at API Gateway, which every organization's inbound URLs share: twice the largest
 * limited plan, so it is an organization's plan that stops its posts (one tenant's form spam meets its own 429 while
 * the route has room for everyone else's), and below the stage's 1 000 a second, so inbound posts together never
 * take the whole API.
 */
export const INBOUND_ROUTE_THROTTLE = (() => {
  const limited = Object.values(USAGE_PLANS).filter((plan) => Number.isFinite(plan.rateLimit));
  return { rateLimit: 2 * Math.max(...limited.map((plan) => plan.rateLimit)), burstLimit: 2 * Math.max(...limited.map((plan) => plan.burstLimit)) };
})();

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
