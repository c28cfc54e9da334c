/**
 * The one-time schedules that feed a queue: the events stack makes their group, the role they send as (allowed only
 * to send to the queue and to their dead letters) and those dead letters, which page; the queue's consumer may create
 * and delete schedules in the group only, and pass that role to Scheduler alone, and is given their settings.
 */
export interface ScheduledSends {
  group: (tableName: string) => string;
  /** What a schedule could not send after its retries. */
  deadLetters: { id: string; queueName: (tableName: string) => string; retentionDays: number; alarm: { id: string; what: string } };
  /** The variables that carry the group's name, the queue's ARN, the role's ARN and the dead letters' ARN to the consumer. */
  environment: { group: string; roleArn: string; deadLettersArn: string };
}
