import { INBOUND_USAGE_PLANS } from '#shared/auth/usage-plans';
import type { SourceLimit } from '#shared/limits/per-source';

/**
 * What one source may post to an organization's inbound URLs in a UTC day, the day its inbound quota renews: a quarter
 * of the smallest plan's day (starter: 500 of 2 000), so one bot at a public form leaves the organization at least three
 * quarters of its day. A fixed number, so a post costs no read of the organization's plan (docs/decisions/security.md).
 */
export const INBOUND_SOURCE_SHARE: SourceLimit = { name: 'inbound-day', limit: INBOUND_USAGE_PLANS.starter.dailyQuota / 4, windowSeconds: 86_400 };
