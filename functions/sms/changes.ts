import * as v from 'valibot';
import type { EventSource, ResourceChanges } from '../../shared/resource';
import { SmsMessage } from '../inquiries/schema';
import { smsAudit } from './entity';

const STATUS_EVENTS: Partial<Record<string, string>> = { SENT: 'sms.sent', DELIVERED: 'sms.delivered', FAILED: 'sms.failed', RECEIVED: 'sms.received' };

/** An SMS message emits when its status reaches one with an event, with the thread and inquiry it belongs to. */
const messageEvents: EventSource = {
  entity: 'SMS_MESSAGE',
  types: Object.values(STATUS_EVENTS) as string[],
  eventsOf: ({ oldItem, newItem }) => {
    const type = newItem && newItem.status !== oldItem?.status ? STATUS_EVENTS[String(newItem.status)] : undefined;
    if (!type) return [];
    const inquiryId = String(newItem!.pk).split('#INQUIRY#')[1]!;
    return [{ type, data: { ...v.parse(SmsMessage, newItem), threadId: newItem!.threadId, inquiryId } }];
  },
};

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [messageEvents],
  audited: [smsAudit],
};
