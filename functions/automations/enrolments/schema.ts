import * as v from 'valibot';
import { JobCount, jobFailure, jobProgress, jobTimes, PrefixedId } from '#shared/schema';
import { LeadStatus } from '../../leads/attributes';

/** Where a bulk enrolment is: waiting for the worker, enrolling the leads, then done or failed. */
export const ENROLMENT_STATUSES = ['QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED'] as const;

/** Every lead in one status, enrolled in an automation by the API in the background, with its progress to poll. */
export const Enrolment = v.object({
  id: v.string(),
  automationId: v.string(),
  leadStatus: v.pipe(LeadStatus, v.description('The leads enrolled: those in this status as the enrolment reaches them.')),
  status: v.pipe(v.picklist(ENROLMENT_STATUSES), v.description('QUEUED, then RUNNING, then SUCCEEDED or FAILED.')),
  progress: jobProgress('Leads gone through of those in the status: `total` is null until the worker has counted them.'),
  enrolled: v.pipe(JobCount, v.description('Runs started: each lead gone through is enrolled, unless it was deleted meanwhile.')),
  failure: jobFailure('The runs it started stay: start another for the rest.'),
  ...jobTimes,
});
export type Enrolment = v.InferOutput<typeof Enrolment>;

export const EnrolmentResponse = v.object({ enrolment: Enrolment });

export const StartEnrolmentBody = v.strictObject({ leadStatus: LeadStatus });
export type StartEnrolmentBody = v.InferOutput<typeof StartEnrolmentBody>;

export const EnrolmentPath = v.object({
  automationId: PrefixedId('automation', 'automationId'),
  enrolmentId: PrefixedId('enrolment', 'enrolmentId', { label: 'Enrolment' }),
});
