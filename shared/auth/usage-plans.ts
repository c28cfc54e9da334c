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
 * What an organization's inbound URLs (forms, parsers, voice platforms: no API key) may take, metered apart from its
 * API keys under a usage identifier of their own (inboundUsageIdentifierKey), in the inbound plan of the same name as
 * its plan: a bot posting to a public form meets its own 429 and never spends the quota the organization's
 * integrations run on. Half the plan's rate and burst and a tenth of its day (starter: 2 000 posts), where a trades
 * business's forms and calls post tens a day and a franchise's thousands.
 */
export const INBOUND_USAGE_PLANS = Object.fromEntries(
  Object.entries(USAGE_PLANS).map(([name, plan]) => [name, { rateLimit: plan.rateLimit / 2, burstLimit: plan.burstLimit / 2, dailyQuota: plan.dailyQuota / 10 }]),
) as Record<UsagePlanName, UsagePlan>;

/** The two things metered per organization: its API keys' requests, and its inbound URLs' posts. */
export type Meter = 'api' | 'inbound';

export const METERED_PLANS: Record<Meter, Record<UsagePlanName, UsagePlan>> = { api: USAGE_PLANS, inbound: INBOUND_USAGE_PLANS };

/**
 * The inbound route's own throttle at API Gateway, which every organization's inbound URLs share: twice the largest
 * limited inbound plan, so it is an organization's inbound plan that stops its posts (one tenant's form spam meets its
 * own 429 while the route has room for everyone else's), and below the stage's 1 000 a second, so inbound posts
 * together never take the whole API.
 */
export const INBOUND_ROUTE_THROTTLE = (() => {
  const limited = Object.values(INBOUND_USAGE_PLANS).filter((plan) => Number.isFinite(plan.rateLimit));
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

const INBOUND_PREFIX = 'inbound_';

/**
 * The usage identifier of an organization's inbound posts, which the inbound authorizer hands API Gateway, and the
 * value of the organization's second API Gateway key, in the inbound plan: metered apart from its API keys.
 */
export const inboundUsageIdentifierKey = (organizationId: string): string => INBOUND_PREFIX + organizationId;

/** Whose requests a usage identifier meters, and which: the inverse of usageIdentifierKey and inboundUsageIdentifierKey. */
export const meteredBy = (key: string): { organizationId: string; meter: Meter } =>
  key.startsWith(INBOUND_PREFIX) ? { organizationId: key.slice(INBOUND_PREFIX.length), meter: 'inbound' } : { organizationId: key, meter: 'api' };

/** Seconds a throttled caller should wait; API Gateway's gateway responses can only carry a fixed value. */
export const RETRY_AFTER_SECONDS = { THROTTLED: 1, QUOTA_EXCEEDED: 3600 } as const;
