import { wants } from './rules';
import { allWebhooks } from './store';
import type { Event } from '../events/schema';
import { deliveryQueue, type DeliveryJob } from '../../shared/webhooks/queue';

/**
 * One delivery job per event and enabled subscription that asked for its type. An organization's
 * subscriptions are read once per batch, and only its own events ever meet them.
 */
export async function enqueueDeliveries(events: Event[]): Promise<number> {
  const byOrganization = new Map<string, Event[]>();
  for (const event of events) byOrganization.set(event.organizationId, [...(byOrganization.get(event.organizationId) ?? []), event]);
  const at = new Date().toISOString();
  const jobs: DeliveryJob[] = [];
  for (const [organizationId, organizationEvents] of byOrganization) {
    const webhooks = await allWebhooks(organizationId);
    if (webhooks.length === 0) continue;
    for (const event of organizationEvents) {
      for (const webhook of webhooks.filter((candidate) => wants(candidate, event.type))) {
        jobs.push({ organizationId, webhookId: webhook.id, event, attempt: 1, firstQueuedAt: at, notBefore: at });
      }
    }
  }
  if (jobs.length) await deliveryQueue().send(jobs);
  return jobs.length;
}
