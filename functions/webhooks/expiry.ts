import type { ItemChange } from '#shared/resource';
import { clock } from '#shared/clock';
import { WEBHOOK_EXPIRY } from './entity';
import { expireWebhook } from './store';

/**
 * The stream consumer's part in a subscription's end: DynamoDB's TTL deletes the expiry item once its `expiresAt` has
 * passed, and that removal disables the subscription, EXPIRED (so its `webhook.disabled` event follows), though no event of
 * its organization has come to do it. A removal before that time (the expiry cleared) is no expiry, and a subscription
 * re-enabled with another expiresAt, or deleted, is left as it is.
 */
export async function disableOnExpiry({ kind, oldItem }: ItemChange): Promise<void> {
  if (kind !== 'REMOVE' || oldItem?.entity !== WEBHOOK_EXPIRY) return;
  const expiresAt = String(oldItem.expiresAt);
  if (!(Date.parse(expiresAt) <= clock.now())) return;
  await expireWebhook(String(oldItem.organizationId), String(oldItem.webhookId), expiresAt, new Date(clock.now()).toISOString());
}
