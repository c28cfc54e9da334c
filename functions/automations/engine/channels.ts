import type { QueueChannelDefinition, WorkerDefinition } from '#shared/resource';
import { queueChannel } from '#shared/workers';
import { smsSender } from '../../sms/capability';
import { automationQueueNames } from './capability';
import type { StepMessage } from './engine';
import { stepMessageGroup } from './step-group';
import { opensSecrets } from '#shared/sealing-key';

/**
 * The step runner's batch and time: a message runs one run's steps up to its next wait (an SMS, a webhook of at most
 * 10 s, a few table writes), so five take well under a minute. The queue hides a received message for six times the
 * function's timeout, as Lambda advises for SQS sources; a step's claim lease (two minutes) has lapsed by the time a
 * message whose attempt failed is handed again.
 */
export const STEP_BATCH = { size: 5, functionTimeoutSeconds: 60 } as const;

/**
 * The automation step queue: `advance`, `reschedule` and `cleanup` wake-ups (./engine.ts) from the stream consumer,
 * the routes that enrol and cancel, the runner itself, and the one-time schedules of waiting steps. A message failed
 * five receives waits in the dead letters, which page; redriving them is safe, as each is an idempotent wake-up
 * (docs/operations.md). Under `npm start` the in-process queue follows the clock, so tests move a run's waits by
 * moving it.
 */
export const automationSteps = queueChannel({
  name: 'automation-steps',
  one: 'automation-step',
  variables: 'AUTOMATION',
  retentionDays: 7,
  batch: STEP_BATCH,
  deadLetters: { retentionDays: 14, maxReceiveCount: 5, meaning: 'Automation steps failed five receives: their runs wait past their time until the messages are redriven (docs/operations.md).' },
  // Each organization its own group: a fair queue deployed (./sqs-step-queue.ts), served alike in process.
  messageGroup: stepMessageGroup,
  // A waiting step's schedule (./eventbridge-scheduler.ts), retried for an hour, then dead-lettered, which pages.
  schedules: {
    group: (tableName) => automationQueueNames(tableName).scheduleGroup,
    deadLetters: {
      id: 'AutomationScheduleDeadLetters',
      queueName: (tableName) => automationQueueNames(tableName).scheduleDeadLetters,
      retentionDays: 14,
      alarm: { id: 'AutomationScheduleDeadLettersWaiting', what: 'Automation schedules could not wake their runs for an hour: the runs wait past their time until the messages are redriven to the step queue (docs/operations.md).' },
    },
    environment: { group: 'AUTOMATION_SCHEDULE_GROUP', roleArn: 'AUTOMATION_SCHEDULER_ROLE_ARN', deadLettersArn: 'AUTOMATION_SCHEDULE_DLQ_ARN' },
  },
  local: {
    install: 'engine/local-engine#installLocalAutomationEngine',
    what: 'automation step',
    logged: (message: StepMessage) => ({ kind: message.kind, organizationId: message.organizationId, runId: message.runId }),
    followsClock: true,
  },
});

export const automationChannels: QueueChannelDefinition[] = [automationSteps];

/**
 * The runner: each step message through `runStepMessage` (./step-worker.ts; in Lambda behind ../runner-handler.ts,
 * which puts the deployed engine in place), which reads the run, its automation's version and the organization,
 * claims and records steps, writes their effects (the SMS record, a lead's status, a note, their markers) and ends
 * runs with their watches; it sends its own next messages to its queue.
 */
export const automationWorkers: WorkerDefinition[] = [
  {
    name: 'RunAutomationSteps',
    handler: 'runner-handler',
    trigger: { kind: 'queue', queue: automationSteps.name },
    // BatchGetItem and gsi3: an SMS step reads its lead and organization together and finds the lead's latest thread (AUTOMATED_SMS_ACCESS).
    dynamodb: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'],
    indexes: ['gsi3', 'gsi4'],
    // An SMS step texts through End User Messaging as POST /v1/sms does; a webhook step opens the automation's sealed secret.
    capabilities: [smsSender, opensSecrets],
    errorsAlarm: { id: 'RunAutomationStepsFailing', meaning: 'The automation step runner failed in three 5-minute periods in a row: steps are retried, then dead-lettered.' },
    local: 'engine/step-worker#runStepMessage',
  },
];
