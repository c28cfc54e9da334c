import * as v from 'valibot';
import { DeletedSchema, Instant, NonEmptyString, PageQuery, pageSchema, partialUpdateBody, PrefixedId, Timestamp } from '#shared/schema';
import { clock } from '#shared/clock';
// The generated list, not events/schema.ts: the events resource's redelivery route answers this module's WebhookDelivery.
import { EVENT_TYPES } from '../events/types';

/** Stripe's ceiling: enough for every integration an organization runs, few enough to fan out cheaply. */
export const MAX_WEBHOOKS_PER_ORGANIZATION = 16;
export const WILDCARD = '*';

/** A rotated-out secret keeps signing beside the new one this long, so receivers can switch without losing deliveries. */
export const ROTATION_OVERLAP_HOURS = 24;
/**
 * Rotations a subscription may have in any hour: enough to rotate again after a mistaken one, too few for a loop to
 * churn its secrets (each rotation drops the secret before the previous one at once).
 */
export const MAX_ROTATIONS_PER_HOUR = 3;

const parsed = (url: string) => (URL.canParse(url) ? new URL(url) : undefined);

export const WebhookUrl = v.pipe(
  v.string('url must be a string'),
  v.trim(),
  v.maxLength(2048, 'url must be at most 2048 characters'),
  v.check((url) => /^https?:$/.test(parsed(url)?.protocol ?? ''), 'url must be an absolute http or https URL'),
  v.check((url) => !parsed(url)?.username && !parsed(url)?.password, 'url must not carry credentials'),
  v.metadata({ jsonSchema: { format: 'uri' } }),
);

const EventSelection = v.pipe(
  v.array(v.picklist([...EVENT_TYPES, WILDCARD], `events must hold event types (${EVENT_TYPES.join(', ')}) or "${WILDCARD}"`), 'events must be an array'),
  v.minLength(1, 'events must name at least one event type or "*"'),
  v.maxLength(EVENT_TYPES.length + 1, `events must have at most ${EVENT_TYPES.length + 1} items`),
  v.transform((events) => [...new Set(events)]),
);

/** Why the service disabled a subscription: its receiver answered 410 Gone, its deliveries failed for 24 hours, or its `expiresAt` passed. */
export const DISABLED_REASONS = ['GONE', 'FAILING', 'EXPIRED'] as const;
export type DisabledReason = (typeof DISABLED_REASONS)[number];

/** The latest `expiresAt` a subscription may have, from `at`: a year on, the same date and time. */
export function latestExpiry(at: number): number {
  const latest = new Date(at);
  latest.setUTCFullYear(latest.getUTCFullYear() + 1);
  return latest.getTime();
}

/** When a subscription ends by itself: in the future, at most a year on (checked against the clock when the body is read). */
const ExpiresAt = v.pipe(
  Instant('expiresAt', 'When the subscription ends by itself: from then it receives nothing and reads as disabled with `disabledReason` EXPIRED. In the future, at most a year from now.'),
  v.check((at) => Date.parse(at) > clock.now(), 'expiresAt must be in the future'),
  v.check((at) => Date.parse(at) <= latestExpiry(clock.now()), 'expiresAt must be at most a year from now'),
);

export const CreateWebhookBody = v.strictObject({
  url: WebhookUrl,
  events: EventSelection,
  description: v.optional(v.nullable(NonEmptyString('description', 500)), null),
  expiresAt: v.optional(v.nullable(ExpiresAt), null),
});
export type CreateWebhookBody = v.InferOutput<typeof CreateWebhookBody>;

export const UpdateWebhookBody = partialUpdateBody({
  url: WebhookUrl,
  events: EventSelection,
  description: v.nullable(NonEmptyString('description', 500)),
  isEnabled: v.boolean('isEnabled must be a boolean'),
  expiresAt: v.nullable(ExpiresAt),
});
export type UpdateWebhookBody = v.InferOutput<typeof UpdateWebhookBody>;

export const Webhook = v.object({
  id: v.string(),
  url: v.string(),
  events: v.array(v.string()),
  description: v.nullable(v.string()),
  isEnabled: v.boolean(),
  /** Why the service disabled the subscription: GONE (its receiver answered 410 Gone), FAILING (its deliveries failed for 24 hours) or EXPIRED (its `expiresAt` passed); null otherwise. */
  disabledReason: v.nullable(v.picklist(DISABLED_REASONS)),
  /** When the subscription ends by itself; null when it does not. */
  expiresAt: v.nullable(Timestamp),
  /** Since when every delivery attempt has failed (the first failure after a success); null while none has failed since the last success. */
  failingSince: v.nullable(Timestamp),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Webhook = v.InferOutput<typeof Webhook>;

/** Only the create and rotate answers carry the signing secret. */
export const WebhookWithSecret = v.object({ ...Webhook.entries, secret: v.string() });

export const WebhookIdPath = v.object({ webhookId: PrefixedId('webhook', 'webhookId') });
export const WebhookResponse = v.object({ webhook: Webhook });
export const WebhookSecretResponse = v.object({ webhook: WebhookWithSecret });
export const WebhookPage = pageSchema('webhooks', Webhook);
export const WebhookDeleted = DeletedSchema;
/** `url` keeps the subscriptions to that url exactly: a platform's check that its subscription still exists. */
export const ListWebhooksQuery = v.object({ ...PageQuery.entries, url: v.optional(WebhookUrl) });

/** The event a `POST /v1/webhooks/{webhookId}/test` sends: never stored as an event, never sent to a subscription unasked. */
export const TEST_EVENT_TYPE = 'webhook.test';
export const TEST_EVENT_MESSAGE = 'A test event sent on request: nothing changed in the organization.';

/** The body of the test event: an event's shape, of a type no subscription names and `GET /v1/events` never lists. */
export const WebhookTestEvent = v.object({
  id: v.string(),
  type: v.literal(TEST_EVENT_TYPE),
  occurredAt: Timestamp,
  organizationId: v.string(),
  data: v.object({ webhookId: v.string(), message: v.string() }),
});
export type WebhookTestEvent = v.InferOutput<typeof WebhookTestEvent>;

/** PENDING: queued by a redelivery, not attempted yet. SUCCEEDED: the receiver answered 2xx. FAILED: anything else. */
export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export const WebhookDelivery = v.object({
  id: v.string(),
  eventId: v.string(),
  /** The event's type, or `webhook.test` for a test event. */
  eventType: v.string(),
  /** 1 for the first try, then each retry. */
  attempt: v.pipe(v.number(), v.integer()),
  status: v.picklist(DELIVERY_STATUSES),
  /** The receiver's HTTP status; null when it did not answer, or while PENDING. */
  statusCode: v.nullable(v.pipe(v.number(), v.integer())),
  /** Why the attempt failed without an HTTP status (timeout, refused connection, blocked address), or why it was not sent; null otherwise. */
  error: v.nullable(v.string()),
  /** How long the attempt took; null while PENDING. */
  durationMs: v.nullable(v.pipe(v.number(), v.integer())),
  /** When the attempt was made; null while PENDING. */
  attemptedAt: v.nullable(Timestamp),
  /** When the next attempt is due (for a PENDING delivery, its first; a receiver's Retry-After can push it back); null when none follows (it succeeded, retries ran out, or the subscription was disabled). */
  nextAttemptAt: v.nullable(Timestamp),
});
export type WebhookDelivery = v.InferOutput<typeof WebhookDelivery>;

export const WebhookDeliveryPage = pageSchema('deliveries', WebhookDelivery);

/** Filters combine: the attempts of one event type, of one status, or both. */
export const ListWebhookDeliveriesQuery = v.object({
  ...PageQuery.entries,
  eventType: v.optional(v.picklist([...EVENT_TYPES, TEST_EVENT_TYPE], `eventType must be one of ${[...EVENT_TYPES, TEST_EVENT_TYPE].join(', ')}`)),
  status: v.optional(v.picklist(DELIVERY_STATUSES, `status must be one of ${DELIVERY_STATUSES.join(', ')}`)),
});
export type DeliveryFilter = Pick<v.InferOutput<typeof ListWebhookDeliveriesQuery>, 'eventType' | 'status'>;

/** POST /v1/webhooks/{webhookId}/test: the attempt, whatever the receiver answered. */
export const WebhookTestResponse = v.object({ attempt: WebhookDelivery });

/** POST /v1/events/{eventId}/redeliver. */
export const RedeliverEventBody = v.strictObject({ webhookId: PrefixedId('webhook', 'webhookId') });
export const WebhookDeliveryResponse = v.object({ delivery: WebhookDelivery });
