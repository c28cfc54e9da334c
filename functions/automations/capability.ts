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
