import * as v from 'valibot';
import { Webhook, WebhookDelivery } from './schema';
import { TTL_ATTRIBUTE } from '../../shared/table';
import { changeLogKey } from '../../shared/store/change-log';
import { organizationPartition, SAMPLE_ORGANIZATION_ID, type Collection, type Key, type KeySamples } from '../../shared/store/keys';

const org = organizationPartition;

export const webhookKeys = {
  /** Webhook subscriptions: few per organization (at most 16), read whole when events fan out. */
  webhook: (o: string, webhookId: string): Key => ({ pk: org(o), sk: `WEBHOOK#${webhookId}` }),
  webhooks: (o: string): Collection => ({ pk: org(o), skPrefix: 'WEBHOOK#' }),
  /** A subscription's delivery attempts, newest first; kept 30 days (TTL). */
  webhookDelivery: (o: string, webhookId: string, deliveryId: string): Key => ({ pk: `${org(o)}#WEBHOOK#${webhookId}`, sk: `DELIVERY#${deliveryId}` }),
  webhookDeliveriesBetween: (o: string, webhookId: string, fromId: string, toId: string) => ({ pk: `${org(o)}#WEBHOOK#${webhookId}`, skBetween: [`DELIVERY#${fromId}`, `DELIVERY#${toId}`] as [string, string] }),
} as const;

/** The names of the webhooks' counter items (`COUNT#<name>`). */
export const webhookCounterNames = {
  webhooks: 'WEBHOOKS',
} as const;

const O = SAMPLE_ORGANIZATION_ID;

export const webhookKeySamples: KeySamples<typeof webhookKeys> = {
  webhook: () => webhookKeys.webhook(O, 'webhook_1'),
  webhooks: () => webhookKeys.webhooks(O),
  webhookDelivery: () => webhookKeys.webhookDelivery(O, 'webhook_1', 'delivery_1'),
  webhookDeliveriesBetween: () => webhookKeys.webhookDeliveriesBetween(O, 'webhook_1', 'delivery_0', 'delivery_9'),
};

/** A signing secret; a rotated-out one keeps signing until `expiresAt`. */
export const SigningSecret = v.object({ secret: v.string(), expiresAt: v.nullable(v.string()) });
export type SigningSecret = v.InferOutput<typeof SigningSecret>;

/** What the WEBHOOK item holds beyond the API's fields: the secrets, and since when deliveries have been failing. */
export const WebhookRecord = v.object({ ...Webhook.entries, secrets: v.array(SigningSecret), failingSince: v.optional(v.nullable(v.string()), null) });
export type WebhookRecord = v.InferOutput<typeof WebhookRecord>;

export const toWebhookItem = (organizationId: string, webhook: WebhookRecord) => ({ ...webhookKeys.webhook(organizationId, webhook.id), ...changeLogKey(organizationId, WEBHOOK_CHANGES), entity: 'WEBHOOK', organizationId, ...webhook });

/** The subscriptions' change log (updatedSince). */
export const WEBHOOK_CHANGES = 'WEBHOOKS';

export const fromWebhookItem = (item: Record<string, unknown>): WebhookRecord => v.parse(WebhookRecord, item);

/** The API's view: never the secrets. */
export const publicWebhook = (webhook: WebhookRecord): Webhook => v.parse(Webhook, webhook);

export const DELIVERY_LOG_DAYS = 30;

export function toDeliveryItem(organizationId: string, webhookId: string, delivery: WebhookDelivery) {
  return {
    ...webhookKeys.webhookDelivery(organizationId, webhookId, delivery.id),
    entity: 'WEBHOOK_DELIVERY',
    ...delivery,
    [TTL_ATTRIBUTE]: Math.floor(Date.parse(delivery.attemptedAt) / 1000) + DELIVERY_LOG_DAYS * 86_400,
  };
}

export const fromDeliveryItem = (item: Record<string, unknown>): WebhookDelivery => v.parse(WebhookDelivery, item);
