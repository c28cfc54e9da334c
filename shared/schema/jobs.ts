import * as v from 'valibot';
import { Timestamp } from './time';

// What every job an owner starts and the API runs in the background (a recount, a bulk enrolment) says of itself, as
// its record answers: how far it is, why it failed, and when it was made, last written and ended.

const count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** A count a job reports (leads enrolled, days changed). */
export const JobCount = count;

/** How far it is: `done` of `total`, each in the job's own unit, which `meaning` names. */
export const jobProgress = (meaning: string) => v.pipe(v.object({ done: count, total: v.nullable(count) }), v.description(meaning));

/** Why it FAILED, and what the owner may do then (`then`). */
export const jobFailure = (then: string) => v.pipe(v.nullable(v.string()), v.description(`Why it FAILED; null otherwise. ${then}`));

/** When it was made, last written and ended. */
export const jobTimes = {
  createdAt: Timestamp,
  updatedAt: Timestamp,
  finishedAt: v.pipe(v.nullable(Timestamp), v.description('When it SUCCEEDED or FAILED; null before.')),
};

/** A start's 503, when the queue refused the job's message (`queueSeam`'s `sendOrFail`). */
export const notQueued = (job: string) => ({ description: `SERVICE_UNAVAILABLE: the ${job} could not be queued; nothing was started (its record reads FAILED). Retry after Retry-After.` });
