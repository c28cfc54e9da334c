import * as v from 'valibot';
import { Webhook, WebhookDelivery } from './schema';
import { TTL_ATTRIBUTE } from '../../shared/table';
import { keys } from '../../shared/store/keys';

/** A signing secret; a rotated-out one keeps signing until `expiresAt`. */
export const SigningSecret = v.object({ secret: v.string(), expiresAt: v.nullable(v.string()) });
export type SigningSecret = v.InferOutput<typeof SigningSecret>;

/** What the WEBHOOK item holds beyond the API's fields: the secrets, and since when deliveries have been failing. */
export const WebhookRecord = v.object({ ...Webhook.entries, secrets: v.array(SigningSecret), failingSince: v.optional(v.nullable(v.string()), null) });
export type WebhookRecord = v.InferOutput<typeof WebhookRecord>;

export const toWebhookItem = (organizationId: string, webhook: WebhookRecord) => ({ ...keys.webhook(organizationId, webhook.id), entity: 'WEBHOOK', organizationId, ...webhook });

export const fromWebhookItem = (item: Record<string, unknown>): WebhookRecord => v.parse(WebhookRecord, item);

/** The API's view: never the secrets. */
export const publicWebhook = (webhook: WebhookRecord): Webhook => v.parse(Webhook, webhook);

export const DELIVERY_LOG_DAYS = 30;

export function toDeliveryItem(organizationId: string, webhookId: string, delivery: WebhookDelivery) {
  return {
    ...keys.webhookDelivery(organizationId, webhookId, delivery.id),
    entity: 'WEBHOOK_DELIVERY',
    ...delivery,
    [TTL_ATTRIBUTE]: Math.floor(Date.parse(delivery.attemptedAt) / 1000) + DELIVERY_LOG_DAYS * 86_400,
  };
}

export const fromDeliveryItem = (item: Record<string, unknown>): WebhookDelivery => v.parse(WebhookDelivery, item);
