import { wants } from './wants';
import type { WebhookRecord } from './entity';
import { allWebhooks, expireWebhook } from './store';
import { hasExpired } from './entity';
import { clock } from '#shared/clock';
import type { Event } from '../events/schema';
import { deliveryQueue, type DeliveryJob } from './queue';
import { readsOnce } from '#shared/reads-once';

/** An organization's subscriptions. */
export type SubscriptionsOf = (organizationId: string) => Promise<WebhookRecord[]>;

/** Reads each organization's subscriptions once, however many calls ask (one stream batch's records). */
export const subscriptionsOnce = (read: SubscriptionsOf = allWebhooks): SubscriptionsOf => readsOnce(read);

/**
 * One delivery job per event and enabled subscription that asked for its type, queued in one call per 10 jobs.
 * Only an organization's own subscriptions ever meet its events; one past its `expiresAt` meets none.
 */
export async function enqueueDeliveries(events: Event[], subscriptionsOf: SubscriptionsOf = allWebhooks): Promise<number> {
  const byOrganization = new Map<string, Event[]>();
  for (const event of events) byOrganization.set(event.organizationId, [...(byOrganization.get(event.organizationId) ?? []), event]);
  const at = new Date(clock.now()).toISOString();
  const jobs: DeliveryJob[] = [];
  for (const [organizationId, organizationEvents] of byOrganization) {
    const webhooks = await subscriptionsOf(organizationId);
    if (webhooks.length === 0) continue;
    // A subscription past its expiresAt gets nothing, and is disabled now if DynamoDB's TTL has not yet had it disabled.
    await Promise.all(webhooks.filter((webhook) => webhook.isEnabled && hasExpired(webhook)).map((webhook) => expireWebhook(organizationId, webhook.id, webhook.expiresAt!, at)));
    for (const event of organizationEvents) {
      for (const webhook of webhooks.filter((candidate) => wants(candidate, event.type))) {
        jobs.push({ organizationId, webhookId: webhook.id, event, attempt: 1, firstQueuedAt: at, notBefore: at });
      }
    }
  }
  if (jobs.length) await deliveryQueue().send(jobs);
  return jobs.length;
}
