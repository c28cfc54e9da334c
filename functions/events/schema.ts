import * as v from 'valibot';
import { PageQuery, pageSchema, Timestamp } from '../../shared/schema';

/**
 * Every event type, `resource.action`. Webhook subscriptions name these (or `*`); `GET /v1/events` filters
 * by one. Adding a type is adding a rule to functions/events/derive.ts and a name here.
 */
export const EVENT_TYPES = [
  'lead.created',
  'lead.updated',
  'lead.deleted',
  'inquiry.created',
  'sms.sent',
  'sms.delivered',
  'sms.failed',
  'sms.received',
  'service.created',
  'product.created',
  'product.updated',
  'transfer.created',
  'transfer.updated',
  'policy.created',
  'policy.updated',
  'policy.deleted',
  'faq.created',
  'faq.updated',
  'faq.deleted',
  'appointment.created',
  'appointment.updated',
  'member.created',
  'member.updated',
  'company.created',
  'company.updated',
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export const EventTypeSchema = v.picklist(EVENT_TYPES, `type must be one of ${EVENT_TYPES.join(', ')}`);

/** An event as the API and webhooks deliver it; `data` is the resource as the API returns it. */
export const Event = v.object({
  id: v.string(),
  type: v.picklist(EVENT_TYPES),
  occurredAt: Timestamp,
  organizationId: v.string(),
  data: v.record(v.string(), v.unknown()),
});
export type Event = v.InferOutput<typeof Event>;

export const EventListQuery = v.object({ ...PageQuery.entries, type: v.optional(EventTypeSchema) });

export const EventPage = pageSchema('events', Event);

/** How long events are kept (and listed). */
export const EVENT_RETENTION_DAYS = 30;
