import { defineResource, namedComponents } from '#shared/resource';
import { smsRoutes } from './routes';
import { smsKeys, smsKeySamples } from './entity';
import * as examples from './examples';
import { Sms } from './schema';
import { Conversation } from './conversation-schema';
import { changes } from './changes';
import { inboundSms, smsEvents } from './channels';

export const sms = defineResource({
  name: 'sms',
  tags: { SMS: 'Text messages from the organization’s members to leads.', Conversations: 'One row per customer: the latest text with each lead, for an inbox.' },
  // Members text the leads they work.
  sessionRoles: { write: 'MEMBER' },
  routes: smsRoutes,
  components: namedComponents({ Sms, Conversation }, examples),
  ...changes,
  // Delivery receipts from the configuration set's topic (npm start's carrier hands each receipt to applyReceipt), and
  // replies from leads from the numbers' two-way topic.
  workers: [
    { name: 'SmsReceipts', handler: 'receipt', trigger: { kind: 'topic', topic: 'smsEvents', failures: { name: 'SmsReceiptFailures', meaning: 'SMS delivery receipts were not applied' } }, dynamodb: ['UpdateItem'], local: 'receipts#applyReceipt' },
    {
      name: 'InboundSmsReplies',
      handler: 'inbound',
      trigger: { kind: 'topic', topic: 'inboundSms', failures: { name: 'SmsReplyFailures', meaning: 'SMS replies from leads were not recorded' } },
      // The organization by its number's claim, the lead by its phone's claim, the lead's latest thread (its inquiries,
      // gsi3), then the message and the lead's unread count, or a new SMS inquiry; from a phone no lead has, a new lead
      // (an activity id from its sequence) with its SMS inquiry; STOP puts and START deletes the phone's opt-out.
      dynamodb: ['Query', 'GetItem', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'],
      indexes: ['gsi3'],
      // An inbound SMS names only the number it was sent to: its claim, then the organization's records.
      keys: ['SMSNUMBER#*', 'ORG#*'],
    },
  ],
  channels: [smsEvents, inboundSms],
  // SMS stuck QUEUED past 5 minutes become FAILED, unconfirmed (functions/sms/unanswered.ts).
  // The queued SMS of every organization (gsi1 `SMSQUEUED#<shard>`), then each message in its organization.
  jobs: [{ name: 'SettleUnansweredSms', handler: 'sweep', everyMinutes: 1, dynamodb: ['Query', 'UpdateItem'], indexes: ['gsi1'], keys: ['SMSQUEUED#*', 'ORG#*'] }],
  keys: [{ builders: smsKeys, samples: smsKeySamples }],
  zapier: {
    triggers: [{ key: 'sms_received', noun: 'SMS', label: 'SMS Received', description: 'Triggers when a lead texts the business.', eventType: 'sms.received' }],
    creates: [{ key: 'send_sms', noun: 'SMS', label: 'Send SMS', description: 'Sends an SMS to a lead, unless the number opted out.', tool: 'send_sms' }],
  },
});
