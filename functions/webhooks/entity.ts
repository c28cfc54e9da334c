import * as v from 'valibot';
import { DISABLED_REASONS, Webhook, WebhookDelivery, type DeliveryFilter, type DisabledReason } from './schema';
import { clock } from '#shared/clock';
import { TTL_ATTRIBUTE } from '#shared/table';
import { changeLogKey } from '#shared/store/keys';
import { indexKeysSortedBy, organizationPartition, type Collection, type Key, keySamplesOf } from '#shared/store/keys';
import type { AuditedRecord } from '#shared/resource';

const org = organizationPartition;

export const webhookKeys = {
  /** Webhook subscriptions: few per organization (at most 16), read whole when events fan out. */
  webhook: (o: string, webhookId: string): Key => ({ pk: org(o), sk: `WEBHOOK#${webhookId}` }),
  webhooks: (o: string): Collection => ({ pk: org(o), skPrefix: 'WEBHOOK#' }),
  /**
   * The claim of a url and set of events (`subscriptionClaim`) by the subscription made for them: a create puts it in
   * its transaction, so two creates of the same url and events at once make one subscription.
   */
  webhookClaim: (o: string, claim: string): Key => ({ pk: org(o), sk: `WEBHOOKCLAIM#${claim}` }),
  /**
   * A subscription's expiry: kept with `expiresAt` as its TTL, so DynamoDB deletes it once the subscription has
   * expired, and the stream consumer, reading that removal, disables the subscription (functions/webhooks/expiry.ts).
   */
  webhookExpiry: (o: string, webhookId: string): Key => ({ pk: org(o), sk: `WEBHOOKEXPIRY#${webhookId}` }),
  /** The organization's delivery slots: one lease per attempt under way (functions/webhooks/slots.ts). */
  deliverySlots: (o: string): Key => ({ pk: org(o), sk: 'DELIVERYSLOTS' }),
  /** A subscription's delivery attempts, newest first; kept 30 days (TTL). */
  webhookDelivery: (o: string, webhookId: string, deliveryId: string): Key => ({ pk: `${org(o)}#WEBHOOK#${webhookId}`, sk: `DELIVERY#${deliveryId}` }),
  /**
   * A subscription's attempts between two ids, newest first: all of them in its partition, those of one event type
   * (gsi1), one status (gsi2) or both (gsi3), so every filter is one Query of exactly its items.
   */
  webhookDeliveriesBetween: (o: string, webhookId: string, fromId: string, toId: string, { eventType, status }: DeliveryFilter = {}) => {
    const skBetween = [`DELIVERY#${fromId}`, `DELIVERY#${toId}`] as [string, string];
    const partition = `${org(o)}#WEBHOOK#${webhookId}`;
    if (eventType && status) return { pk: `${partition}#TYPE#${eventType}#STATUS#${status}`, index: 'gsi3' as const, skBetween };
    if (eventType) return { pk: `${partition}#TYPE#${eventType}`, index: 'gsi1' as const, skBetween };
    if (status) return { pk: `${partition}#STATUS#${status}`, index: 'gsi2' as const, skBetween };
    return { pk: partition, skBetween };
  },
  /** The filter indexes of an attempt: rewritten with it when a PENDING one is attempted. */
  webhookDeliveryIndexes: (o: string, webhookId: string, { id, eventType, status }: Pick<WebhookDelivery, 'id' | 'eventType' | 'status'>) => {
    const partition = `${org(o)}#WEBHOOK#${webhookId}`;
    return indexKeysSortedBy(`DELIVERY#${id}`, { gsi1: `${partition}#TYPE#${eventType}`, gsi2: `${partition}#STATUS#${status}`, gsi3: `${partition}#TYPE#${eventType}#STATUS#${status}` });
  },
} as const;

/** The names of the webhooks' counter items (`COUNT#<name>`). */
export const webhookCounterNames = {
  webhooks: 'WEBHOOKS',
} as const;

export const webhookKeySamples = keySamplesOf(webhookKeys, {
  webhook: ['webhook_1'],
  webhooks: [],
  webhookClaim: ['claim_1'],
  webhookExpiry: ['webhook_1'],
  deliverySlots: [],
  webhookDelivery: ['webhook_1', 'delivery_1'],
  webhookDeliveriesBetween: ['webhook_1', 'delivery_0', 'delivery_9', { eventType: 'lead.created', status: 'FAILED' }],
  webhookDeliveryIndexes: ['webhook_1', { id: 'delivery_1', eventType: 'lead.created', status: 'FAILED' }],
});

/** A signing secret; a rotated-out one keeps signing until `expiresAt`. */
export const SigningSecret = v.object({ secret: v.string(), expiresAt: v.nullable(v.string()) });
export type SigningSecret = v.InferOutput<typeof SigningSecret>;

/**
 * What the WEBHOOK item holds beyond the API's fields: the secrets, sealed (the current one, then at most the one it replaced),
 * the times of the rotations of the last hour (at most MAX_ROTATIONS_PER_HOUR), since when deliveries have been
 * failing, how many attempts in a row failed, and until when its deliveries are paused for it.
 */
export const WebhookRecord = v.object({
  ...Webhook.entries,
  // Kept as a sentence before the reasons were codes: one naming the 410 is GONE, any other FAILING.
  disabledReason: v.pipe(
    v.nullable(v.string()),
    v.transform((reason): DisabledReason | null => (reason === null || (DISABLED_REASONS as readonly string[]).includes(reason) ? (reason as DisabledReason | null) : reason.includes('410') ? 'GONE' : 'FAILING')),
  ),
  // Absent on a subscription made before subscriptions could expire.
  expiresAt: v.optional(v.nullable(v.string()), null),
  /** Sealed (functions/webhooks/signing-secrets.ts); an item written before sealing holds the plain list, read as it is. */
  secrets: v.union([v.instance(Uint8Array), v.array(SigningSecret)]),
  rotatedAt: v.optional(v.array(v.string()), []),
  failingSince: v.optional(v.nullable(v.string()), null),
  failuresInARow: v.optional(v.number(), 0),
  pausedUntil: v.optional(v.nullable(v.string()), null),
});
export type WebhookRecord = v.InferOutput<typeof WebhookRecord>;

export const toWebhookItem = (organizationId: string, webhook: WebhookRecord) => ({ ...webhookKeys.webhook(organizationId, webhook.id), ...changeLogKey(organizationId, WEBHOOK_CHANGES), entity: 'WEBHOOK', organizationId, ...webhook });

/** The subscriptions' change log (updatedSince). */
export const WEBHOOK_CHANGES = 'WEBHOOKS';

export const fromWebhookItem = (item: Record<string, unknown>): WebhookRecord => v.parse(WebhookRecord, item);

/** Whether the subscription's `expiresAt` has passed at `at`. */
export const hasExpired = (webhook: Pick<WebhookRecord, 'expiresAt'>, at = clock.now()) => webhook.expiresAt !== null && Date.parse(webhook.expiresAt) <= at;

/**
 * The API's view: never the secrets. An enabled subscription past its `expiresAt` reads as disabled, EXPIRED, from
 * that instant, whether or not the stream consumer has yet disabled it in the table.
 */
export const publicWebhook = (webhook: WebhookRecord): Webhook =>
  v.parse(Webhook, webhook.isEnabled && hasExpired(webhook) ? { ...webhook, isEnabled: false, disabledReason: 'EXPIRED' } : webhook);

/** The item that triggers a subscription's disabling at its `expiresAt` (`webhookExpiry`). */
export const toExpiryItem = (organizationId: string, webhookId: string, expiresAt: string) => ({
  ...webhookKeys.webhookExpiry(organizationId, webhookId),
  entity: WEBHOOK_EXPIRY,
  organizationId,
  webhookId,
  expiresAt,
  [TTL_ATTRIBUTE]: Math.ceil(Date.parse(expiresAt) / 1000),
});

/** The entity of a subscription's expiry item. */
export const WEBHOOK_EXPIRY = 'WEBHOOK_EXPIRY';

export const DELIVERY_LOG_DAYS = 30;

export function toDeliveryItem(organizationId: string, webhookId: string, delivery: WebhookDelivery) {
  // A PENDING delivery is kept from when it is due, as an attempt is from when it was made.
  const keptFrom = delivery.attemptedAt ?? delivery.nextAttemptAt ?? new Date(clock.now()).toISOString();
  return {
    ...webhookKeys.webhookDelivery(organizationId, webhookId, delivery.id),
    ...webhookKeys.webhookDeliveryIndexes(organizationId, webhookId, delivery),
    entity: 'WEBHOOK_DELIVERY',
    ...delivery,
    [TTL_ATTRIBUTE]: Math.floor(Date.parse(keptFrom) / 1000) + DELIVERY_LOG_DAYS * 86_400,
  };
}

export const fromDeliveryItem = (item: Record<string, unknown>): WebhookDelivery => v.parse(WebhookDelivery, item);

/** A webhook subscription, as the audit log names it (GET /v1/audit-log). */
export const webhookAudit: AuditedRecord = { entity: 'WEBHOOK', resourceType: 'webhook' };
