import * as v from 'valibot';
import { fromAppointmentItem } from '../appointments/entity';
import { fromCompanyItem } from '../companies/entity';
import { faqs } from '../faqs/collection';
import { fromInquiryItem } from '../inquiries/entity';
import { fromLeadItem } from '../leads/entity';
import { fromMemberItem } from '../organization/member-entity';
import { policies } from '../policies/collection';
import { fromProductItem } from '../products/entity';
import { fromServiceItem } from '../services/entity';
import { fromTransferItem } from '../transfers/entity';
import { SmsMessage } from '../inquiries/schema';
import type { EventType } from './schema';

type Item = Record<string, unknown>;

/** One committed change of one item, as the table's stream reports it. */
export interface ItemChange {
  kind: 'INSERT' | 'MODIFY' | 'REMOVE';
  oldItem?: Item;
  newItem?: Item;
}

/** An event before it has an id: what changed, and the resource as the API returns it. */
export interface DerivedEvent {
  type: EventType;
  organizationId: string;
  data: Item;
}

/** `ORG#<organizationId>…`: every partition key starts with the organization. */
const organizationOf = (item: Item) => String(item.pk).split('#')[1]!;

/** An SMS message as events carry it: the message, and the thread and inquiry it belongs to. */
function smsData(item: Item): Item {
  const inquiryId = String(item.pk).split('#INQUIRY#')[1]!;
  return { ...v.parse(SmsMessage, item), threadId: item.threadId, inquiryId };
}

const SMS_STATUS_EVENTS: Partial<Record<string, EventType>> = { SENT: 'sms.sent', DELIVERED: 'sms.delivered', FAILED: 'sms.failed', RECEIVED: 'sms.received' };

/** A resource whose create, update and delete map one to one onto events. */
interface ResourceRule {
  toData: (item: Item) => Item;
  created?: EventType;
  updated?: EventType;
  deleted?: EventType;
}

const value = <T>(mapped: { value: T }) => mapped.value as Item;

/** Stored entity → its events. Items not listed here (counters, indexes, name claims) emit nothing. */
const RESOURCES: Partial<Record<string, ResourceRule>> = {
  LEAD: { toData: fromLeadItem, created: 'lead.created', updated: 'lead.updated', deleted: 'lead.deleted' },
  INQUIRY: {
    toData: (item) => {
      const { externalInquiryId: _external, ...summary } = fromInquiryItem(item);
      return summary;
    },
    created: 'inquiry.created',
  },
  SERVICE: { toData: fromServiceItem, created: 'service.created' },
  PRODUCT: { toData: (item) => value(fromProductItem(item)), created: 'product.created', updated: 'product.updated' },
  TRANSFER: { toData: (item) => value(fromTransferItem(item)), created: 'transfer.created', updated: 'transfer.updated' },
  POLICY: { toData: policies.fromItem, created: 'policy.created', updated: 'policy.updated', deleted: 'policy.deleted' },
  FAQ: { toData: faqs.fromItem, created: 'faq.created', updated: 'faq.updated', deleted: 'faq.deleted' },
  APPOINTMENT: { toData: (item) => value(fromAppointmentItem(item)), created: 'appointment.created', updated: 'appointment.updated' },
  MEMBER: { toData: fromMemberItem, created: 'member.created', updated: 'member.updated' },
  COMPANY: { toData: fromCompanyItem, created: 'company.created', updated: 'company.updated' },
};

/** An SMS message emits when its status reaches one with an event: sent, delivered, failed or received. */
function smsEvents({ oldItem, newItem }: ItemChange): DerivedEvent[] {
  if (!newItem || newItem.status === oldItem?.status) return [];
  const type = SMS_STATUS_EVENTS[String(newItem.status)];
  return type ? [{ type, organizationId: organizationOf(newItem), data: smsData(newItem) }] : [];
}

/**
 * The events one committed item change stands for. An update that leaves what the API shows unchanged
 * (a version bump, bookkeeping) emits nothing.
 */
export function eventsOf(change: ItemChange): DerivedEvent[] {
  const entity = String((change.newItem ?? change.oldItem)?.entity);
  if (entity === 'SMS_MESSAGE') return smsEvents(change);
  const rule = RESOURCES[entity];
  if (!rule) return [];
  const { kind, oldItem, newItem } = change;
  if (kind === 'INSERT' && rule.created && newItem) return [{ type: rule.created, organizationId: organizationOf(newItem), data: rule.toData(newItem) }];
  if (kind === 'REMOVE' && rule.deleted && oldItem) return [{ type: rule.deleted, organizationId: organizationOf(oldItem), data: rule.toData(oldItem) }];
  if (kind === 'MODIFY' && rule.updated && oldItem && newItem) {
    const [before, after] = [rule.toData(oldItem), rule.toData(newItem)];
    return JSON.stringify(before) === JSON.stringify(after) ? [] : [{ type: rule.updated, organizationId: organizationOf(newItem), data: after }];
  }
  return [];
}

/**
 * How coarse a stream record's own time is: DynamoDB Streams round it down to the second, DynamoDB Local to
 * the minute. The change was committed at or after that time and before it plus this.
 */
export const STREAM_TIME_PRECISION_MS = 60_000;

/** How long before its commit a write may stamp its item: longer than any API request runs. */
const MAX_STAMP_LEAD_MS = 60_000;

function stampOf(item: Item | undefined, field: 'createdAt' | 'updatedAt'): number | undefined {
  const at = typeof item?.[field] === 'string' ? Date.parse(item[field]) : NaN;
  return Number.isFinite(at) ? at : undefined;
}

/**
 * When a change happened, to the millisecond (docs/decisions/events-and-webhooks.md, "When an event occurred"). The stream record's
 * time is rounded down, so the change's own stamp is used: an insert's createdAt, an update's updatedAt when the
 * update moved it. A stamp is believed only as close to the record's time as a write's stamp can be (not a
 * createdAt a caller gave for an inquiry ingested late). A change that stamps nothing of itself (a delete, an
 * SMS status, an item kept without updatedAt) happened at the earliest time it can have: the record's time, or
 * the item's last stamp when that is later, so it never precedes the item's previous change.
 */
export function occurredAtOf({ kind, oldItem, newItem }: ItemChange, streamTimeMs: number): number {
  const plausible = (at: number | undefined, earliest: number) => at !== undefined && at >= earliest && at < streamTimeMs + STREAM_TIME_PRECISION_MS;
  const own =
    kind === 'INSERT' ? (stampOf(newItem, 'createdAt') ?? stampOf(newItem, 'updatedAt')) : kind === 'MODIFY' && newItem?.updatedAt !== oldItem?.updatedAt ? stampOf(newItem, 'updatedAt') : undefined;
  if (plausible(own, streamTimeMs - MAX_STAMP_LEAD_MS)) return own!;
  const item = newItem ?? oldItem;
  const last = stampOf(item, 'updatedAt') ?? stampOf(item, 'createdAt');
  return plausible(last, streamTimeMs) ? last! : streamTimeMs;
}
