import { randomUUID } from 'node:crypto';
import { clock } from '#shared/clock';
import { QUEUE_URL, type SignInCodeJob } from './code-queue';

/** Where the asks wait: an SQS queue deployed, an in-process queue under `npm start` and the tests. */
export interface SignInCodeQueue {
  send(jobs: SignInCodeJob[]): Promise<void>;
}

/** The deployed queue, from the environment the stack sets; its client made at the first ask (shared/aws/sqs.ts). */
function configuredQueue(): SignInCodeQueue | undefined {
  const queueUrl = process.env[QUEUE_URL];
  if (!queueUrl) return undefined;
  return {
    async send(jobs) {
      const { sqs, SendMessageCommand } = await import('#shared/aws/sqs');
      for (const job of jobs) await sqs().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(job) }));
    },
  };
}

let current: SignInCodeQueue | undefined = configuredQueue();

export function signInCodeQueue(): SignInCodeQueue {
  if (!current) throw new Error(`No sign-in code queue: ${QUEUE_URL} is unset and none was set in process`);
  return current;
}

/** The composition seam: the SQS queue in Lambda, the in-process queue `npm start` installs. */
export function setSignInCodeQueue<Q extends SignInCodeQueue>(queue: Q): Q {
  current = queue;
  return queue;
}

/**
 * Asks for a code for a phone: one message to the queue, whoever's phone it is, so the request does the same work and
 * takes the same time for a member's phone and a stranger's. The worker (./codes.ts, `sendAskedCode`) finds out which.
 */
export async function askSignInCode(phone: string): Promise<void> {
  await signInCodeQueue().send([{ askId: randomUUID(), phone, requestedAt: new Date(clock.now()).toISOString() }]);
}
