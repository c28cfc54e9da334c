import { defineResource } from '../../shared/resource';
import { smsRoutes } from './routes';
import { smsKeys, smsKeySamples } from './entity';
import { sms as smsExample } from './examples';
import { Sms } from './schema';
import { changes } from './changes';

export const sms = defineResource({
  name: 'sms',
  tags: { SMS: 'Text messages from the organization’s members to leads.' },
  routes: smsRoutes,
  components: { Sms: { schema: Sms, example: smsExample } },
  ...changes,
  // Delivery receipts from the configuration set's topic, and replies from leads from the numbers' two-way topic.
  workers: { smsReceipts: 'receipt', inboundSms: 'inbound' },
  // SMS stuck QUEUED past 5 minutes become FAILED, unconfirmed (functions/sms/unanswered.ts).
  jobs: [{ name: 'SettleUnansweredSms', handler: 'sweep', everyMinutes: 1, dynamodb: ['Query', 'UpdateItem'], indexes: ['gsi1'] }],
  keys: [{ builders: smsKeys, samples: smsKeySamples }],
});
