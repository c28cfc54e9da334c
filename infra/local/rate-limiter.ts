import { METERED_PLANS, meteredBy, type UsagePlan, type UsagePlanName } from '#shared/auth/usage-plans';

export type Admission = 'ADMITTED' | 'THROTTLED' | 'QUOTA_EXCEEDED';

interface Usage {
  tokens: number;
  refilledAt: number;
  day: string;
  requestsToday: number;
}

const utcDay = (epochMs: number) => new Date(epochMs).toISOString().slice(0, 10);

/**
 * API Gateway's usage-plan metering for the local server: a token bucket per usage identifier
 * (burstLimit tokens, refilled at rateLimit per second) and a request count per UTC day.
 */
export function createRateLimiter({ now = Date.now }: { now?: () => number } = {}) {
  const usage = new Map<string, Usage>();
  return {
    admit(identifier: string, plan: UsagePlan): Admission {
      const at = now();
      const day = utcDay(at);
      let entry = usage.get(identifier);
      if (!entry) usage.set(identifier, (entry = { tokens: plan.burstLimit, refilledAt: at, day, requestsToday: 0 }));
      if (entry.day !== day) Object.assign(entry, { day, requestsToday: 0 });
      const elapsedMs = at - entry.refilledAt;
      if (elapsedMs > 0) entry.tokens = Math.min(plan.burstLimit, entry.tokens + (elapsedMs / 1000) * plan.rateLimit);
      entry.refilledAt = at;
      if (entry.requestsToday >= plan.dailyQuota) return 'QUOTA_EXCEEDED';
      if (entry.tokens < 1) return 'THROTTLED';
      entry.tokens -= 1;
      entry.requestsToday += 1;
      return 'ADMITTED';
    },
  };
}

export type RateLimiter = ReturnType<typeof createRateLimiter>;

/** How long the local server trusts a plan it read: a plan change reaches API Gateway's metering within seconds too. */
export const PLAN_CACHE_MS = 10_000;

/**
 * The gateway's `meter`: looks up the plan of a usage identifier (API Gateway keeps that association;
 * locally the organization item does) and admits the request against it.
 */
export function createUsagePlanMeter(planOf: (usageIdentifierKey: string) => Promise<UsagePlan>, { now = Date.now }: { now?: () => number } = {}) {
  const limiter = createRateLimiter({ now });
  const plans = new Map<string, { plan: UsagePlan; readAt: number }>();
  return async (usageIdentifierKey: string): Promise<Admission> => {
    let cached = plans.get(usageIdentifierKey);
    if (!cached || now() - cached.readAt > PLAN_CACHE_MS) {
      // API Gateway's own association never fails a request: a plan read before stands while the table does not answer.
      const stale = cached;
      const plan = await planOf(usageIdentifierKey).catch((error: unknown) => {
        if (stale) return stale.plan;
        throw error;
      });
      cached = { plan, readAt: now() };
      plans.set(usageIdentifierKey, cached);
    }
    return limiter.admit(usageIdentifierKey, cached.plan);
  };
}

/**
 * The plan of a usage identifier, as API Gateway finds the usage plan its key is in: the identifier names the
 * organization and what it meters (meteredBy), its API keys' requests or its inbound URLs' posts, each with its own
 * plan of the organization's plan's name (METERED_PLANS), so the two never spend each other's quota.
 */
export const meteredPlanOf = (planNameOf: (organizationId: string) => Promise<UsagePlanName>) => async (usageIdentifierKey: string): Promise<UsagePlan> => {
  const { organizationId, meter } = meteredBy(usageIdentifierKey);
  return METERED_PLANS[meter][await planNameOf(organizationId)];
};
