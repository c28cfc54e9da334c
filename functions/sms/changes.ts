import type { EventSource, ResourceChanges } from '#shared/resource';
import { fromSmsItem, smsAudit } from './entity';

const STATUS_EVENTS: Partial<Record<string, string>> = { SENT: 'sms.sent', DELIVERED: 'sms.delivered', FAILED: 'sms.failed', RECEIVED: 'sms.received' };

/** An SMS message emits when its status reaches one with an event, as GET /v1/sms/{smsId} answers it (its lead, thread and inquiry). */
const messageEvents: EventSource = {
  entity: 'SMS_MESSAGE',
  data: 'Sms',
  types: Object.values(STATUS_EVENTS) as string[],
  eventsOf: ({ oldItem, newItem }) => {
    const type = newItem && newItem.status !== oldItem?.status ? STATUS_EVENTS[String(newItem.status)] : undefined;
    if (!type) return [];
    return [{ type, data: fromSmsItem(newItem!) }];
  },
};

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [messageEvents],
  audited: [smsAudit],
};
