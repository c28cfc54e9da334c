import { queueSender } from '#shared/routes/queue-sender';

/**
 * The engine's names, from the table's: the events stack makes the queues and the schedule group, and the functions
 * that send a step or schedule one name them the same way, with no cross-stack reference.
 */
export const automationQueueNames = (tableName: string) => ({
  queue: `${tableName}-automation-steps`,
  deadLetters: `${tableName}-automation-step-dead-letters`,
  /** What EventBridge Scheduler could not hand to the queue after its retries. */
  scheduleDeadLetters: `${tableName}-automation-schedule-dead-letters`,
  scheduleGroup: `${tableName}-automations`,
});

/**
 * Queuing automation steps, for the routes that enrol a lead and cancel a run: the step queue's URL, and SendMessage
 * to it (SSE-SQS, so no key to grant). Only the runner makes and deletes schedules: a cancelled run's is deleted by
 * the `cleanup` message its cancel queues.
 */
export const automationStepSender = queueSender({
  name: 'automationStepSender',
  to: { queueName: (tableName) => automationQueueNames(tableName).queue, environment: { queueUrl: 'AUTOMATION_QUEUE_URL' } },
  // Queuing a step reaches no one by itself: what a run sends, the runner sends, as its automation's steps say.
  reachesOutside: false,
});
