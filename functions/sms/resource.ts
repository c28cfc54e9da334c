import * as v from 'valibot';
import { defineResource, type EventSource } from '../../shared/resource';
import { SmsMessage } from '../inquiries/schema';
import { smsRoutes } from './routes';
import { smsAudit, smsKeys, smsKeySamples } from './entity';
import { sms as smsExample } from './examples';
import { Sms } from './schema';

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

export const sms = defineResource({
  name: 'sms',
  tags: { SMS: 'Text messages from the organization’s members to leads.' },
  routes: smsRoutes,
  components: { Sms: { schema: Sms, example: smsExample } },
  events: [messageEvents],
  // Delivery receipts from the configuration set's topic, and replies from leads from the numbers' two-way topic.
  workers: { smsReceipts: 'receipt', inboundSms: 'inbound' },
  // SMS stuck QUEUED past 5 minutes become FAILED, unconfirmed (functions/sms/unanswered.ts).
  jobs: [{ name: 'SettleUnansweredSms', handler: 'sweep', everyMinutes: 1, dynamodb: ['Query', 'UpdateItem'], indexes: ['gsi1'] }],
  audited: [smsAudit],
  keys: [{ builders: smsKeys, samples: smsKeySamples }],
});
