import { clock } from '#shared/clock';
import { config } from '#shared/config';
import { ApiError } from '#shared/errors';
import { newId } from '#shared/ids';
import { queueSeam } from '#shared/aws/queue-seam';
import { writeAlone } from '#shared/store/transact';
import { enrollableDefinition, needsAppointment } from '../runs/start';
import { finishEnrolment, iso, toEnrolmentItem } from './jobs';
import { automationEnrolments, type EnrolmentJob } from './queue';
import type { Enrolment, StartEnrolmentBody } from './schema';

const seam = queueSeam<EnrolmentJob>(automationEnrolments.environment.queueUrl, automationEnrolments.local.what);

/** Where enrolments wait for the worker: the SQS queue deployed, the in-process queue `npm start` installs. */
export const enrolmentQueue = seam.queue;
export const setEnrolmentQueue = seam.set;

/**
 * A new bulk enrolment, QUEUED: the automation checked as a hand enrolment checks it (an appointment's trigger needs
 * each lead's appointment, so it takes none in bulk), its record put, then its message. A message that cannot be
 * sent leaves it FAILED, and the request fails.
 */
export async function startEnrolment(organizationId: string, automationId: string, { leadStatus }: StartEnrolmentBody): Promise<Enrolment> {
  const definition = await enrollableDefinition(organizationId, automationId);
  if (needsAppointment(definition)) throw new ApiError(409, `Leads cannot be enrolled in bulk in an automation on ${definition.trigger.event}: each run needs its appointment; enrol each lead with its appointmentId`, 'NOT_ENROLLABLE');
  const atMs = clock.now();
  const enrolment: Enrolment = { id: newId('enrolment', new Date(atMs)), automationId, leadStatus, status: 'QUEUED', progress: { done: 0, total: null }, enrolled: 0, failure: null, createdAt: iso(atMs), updatedAt: iso(atMs), finishedAt: null };
  await writeAlone({ item: { Put: { TableName: config.tableName, Item: toEnrolmentItem(organizationId, enrolment), ConditionExpression: 'attribute_not_exists(pk)' } } });
  await seam.sendOrFail({ organizationId, enrolmentId: enrolment.id }, { named: 'enrolment', markFailed: () => finishEnrolment(organizationId, enrolment.id, { status: 'FAILED', failure: 'It could not be queued.' }) });
  return enrolment;
}
