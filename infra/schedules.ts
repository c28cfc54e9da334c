import type { DynamoAction } from '../shared/routes/route';
import type { IndexName } from '../shared/table';

/**
 * Functions that run on a clock rather than on a request or an event: the events stack gives each an EventBridge
 * schedule, and `npm start` runs each in process at the same interval.
 */
export interface ScheduledJob {
  /** The construct id of its function and schedule. */
  name: string;
  /** Handler module below functions/, without extension. */
  handler: string;
  everyMinutes: number;
  /** DynamoDB actions and indexes its function is granted. */
  dynamodb: DynamoAction[];
  indexes: IndexName[];
}

export const SCHEDULED_JOBS: readonly ScheduledJob[] = [
  // SMS stuck QUEUED past 5 minutes become FAILED, unconfirmed (functions/sms/unanswered.ts).
  { name: 'SettleUnansweredSms', handler: 'sms/sweep', everyMinutes: 1, dynamodb: ['Query', 'UpdateItem'], indexes: ['gsi1'] },
];
