import type { WorkerDefinition } from '#shared/resource';
import { queueSender } from '#shared/routes/queue-sender';
import { queueChannel } from '#shared/workers';
import { automationStepSender } from '../engine/capability';
import { automationSteps } from '../engine/channels';

/** A bulk enrolment to run: the worker reads its record, so a message handed again goes on from where it stopped. */
export interface EnrolmentJob {
  organizationId: string;
  enrolmentId: string;
}

/** The worker's time: a page of 100 leads is a few hundred writes; thousands of leads take minutes. */
export const ENROLMENT_WORKER_TIMEOUT_SECONDS = 900;

/**
 * The queue of bulk enrolments, one at a time (batches of one, so a timeout fails no other). An enrolment that threw
 * is marked FAILED before the message is handed again, so a second receive finds it done; messages dead-letter only
 * when even that mark failed, which pages.
 */
export const automationEnrolments = queueChannel({
  name: 'automation-enrolments',
  one: 'automation-enrolment',
  retentionDays: 1,
  batch: { size: 1, functionTimeoutSeconds: ENROLMENT_WORKER_TIMEOUT_SECONDS },
  deadLetters: { retentionDays: 14, maxReceiveCount: 3, meaning: 'Bulk enrolments an owner started could not be run or marked three times: they stay QUEUED or RUNNING.' },
  // Its retries wait on the clock the code reads, as SQS's do.
  local: { install: 'enrolments/start#setEnrolmentQueue', what: 'bulk enrolment', logged: (job: EnrolmentJob) => ({ organizationId: job.organizationId, enrolmentId: job.enrolmentId }), followsClock: true },
});

/** Queuing bulk enrolments: the queue's URL, and SendMessage to it. */
export const enrolmentQueueSender = queueSender({ name: 'enrolmentQueueSender', to: automationEnrolments, reachesOutside: false });

/**
 * The worker: each enrolment through `runEnrolment` (./jobs.ts), which pages through the status's leads, starts a run
 * for each (its first step queued for the step runner) and records its progress on the enrolment's item.
 */
export const enrolmentWorker: WorkerDefinition = {
  name: 'EnrolAutomationLeads',
  handler: 'enrolments/worker',
  trigger: { kind: 'queue', queue: automationEnrolments.name },
  // The automation, its version, each lead and page of leads (gsi2: by status), the run and its watches, the enrolment.
  dynamodb: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'],
  indexes: ['gsi2'],
  sendsTo: [automationSteps.name],
  capabilities: [automationStepSender],
  errorsAlarm: { id: 'EnrolAutomationLeadsFailing', meaning: 'Bulk enrolments failed in three 5-minute periods in a row: each is marked FAILED for its owner to start again.' },
  local: 'enrolments/jobs#runEnrolment',
};
