import { jobQueue } from '#shared/job-queue';
import { automationStepSender } from '../engine/capability';
import { automationSteps } from '../engine/channels';

/** A bulk enrolment to run: the worker reads its record, so a message handed again goes on from where it stopped. */
export interface EnrolmentJob {
  organizationId: string;
  enrolmentId: string;
}

/**
 * The queue of bulk enrolments, queuing them, and the worker: each enrolment through `runEnrolment` (./jobs.ts), which
 * pages through the status's leads, starts a run for each (its first step queued for the step runner) and records its
 * progress on the enrolment's item. A page of 100 leads is a few hundred writes; thousands of leads take minutes.
 */
export const {
  channel: automationEnrolments,
  sender: enrolmentQueueSender,
  worker: enrolmentWorker,
} = jobQueue<EnrolmentJob>({
  name: 'automation-enrolments',
  one: 'automation-enrolment',
  what: 'bulk enrolment',
  whatMany: 'Bulk enrolments',
  stuck: 'they stay QUEUED or RUNNING',
  install: 'enrolments/start#setEnrolmentQueue',
  logged: (job) => ({ organizationId: job.organizationId, enrolmentId: job.enrolmentId }),
  senderName: 'enrolmentQueueSender',
  worker: {
    name: 'EnrolAutomationLeads',
    handler: 'enrolments/worker',
    // The automation, its version, each lead and page of leads (gsi2: by status), the run and its watches, the enrolment.
    dynamodb: ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem'],
    indexes: ['gsi2'],
    sendsTo: [automationSteps.name],
    capabilities: [automationStepSender],
    alarmId: 'EnrolAutomationLeadsFailing',
    local: 'enrolments/jobs#runEnrolment',
  },
});
