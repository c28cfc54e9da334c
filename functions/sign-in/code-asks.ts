import { randomUUID } from 'node:crypto';
import { clock } from '#shared/clock';
import { queueSeam } from '#shared/aws/queue-seam';
import { signInCodes, type SignInCodeJob } from './code-queue';

const seam = queueSeam<SignInCodeJob>(signInCodes.environment.queueUrl, 'sign-in code');

/** Where the asks wait: an SQS queue deployed, an in-process queue under `npm start` and the tests. */
export const signInCodeQueue = seam.queue;

/** The composition seam: the SQS queue in Lambda, the in-process queue `npm start` installs. */
export const setSignInCodeQueue = seam.set;

/**
 * Asks for a code for a phone: one message to the queue, whoever's phone it is, so the request does the same work and
 * takes the same time for a member's phone and a stranger's. The worker (./codes.ts, `sendAskedCode`) finds out which.
 */
export async function askSignInCode(phone: string): Promise<void> {
  await signInCodeQueue().send([{ askId: randomUUID(), phone, requestedAt: new Date(clock.now()).toISOString() }]);
}
