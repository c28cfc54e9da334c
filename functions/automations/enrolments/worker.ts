import { eachMessage } from '#shared/queue-batch';
import { runEnrolment } from './jobs';
import type { EnrolmentJob } from './queue';

/** The bulk enrolment worker as Lambda runs it: a batch of one enrolment. */
export const handler = eachMessage<EnrolmentJob>(runEnrolment, 'bulk enrolment failed; it is marked FAILED');
