import { ServiceUnavailableError } from '../errors';
import { logger } from '../observability';

/** When to ask again after a queue refused a job. */
const QUEUE_RETRY_AFTER_SECONDS = 5;

/** Where a function's jobs wait: an SQS queue deployed, the in-process queue `npm start` and the tests put in its place. */
export interface JobQueue<J> {
  send(jobs: J[]): Promise<void>;
}

/**
 * A queue's composition seam: `queue()` answers the SQS queue whose URL the stack put in `urlVariable` (its client
 * loaded and made at the first job, shared/aws/sqs.ts), or what `set` put in its place (the install a queue channel's
 * `local` names). `set` answers what it was given, so `npm start` can wait for an in-process queue to be idle.
 */
export function queueSeam<J>(urlVariable: string, what: string) {
  const deployed = (): JobQueue<J> | undefined => {
    const queueUrl = process.env[urlVariable];
    if (!queueUrl) return undefined;
    return {
      async send(jobs) {
        const { sqs, SendMessageCommand } = await import('./sqs');
        for (const job of jobs) await sqs().send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: JSON.stringify(job) }));
      },
    };
  };
  let current = deployed();
  return {
    queue(): JobQueue<J> {
      if (!current) throw new Error(`No ${what} queue: ${urlVariable} is unset and none was set in process`);
      return current;
    },
    set<Q extends JobQueue<J>>(queue: Q): Q {
      current = queue;
      return queue;
    },
    /**
     * A job an owner started, its record already put: its message sent, or, when the queue refuses it, its record
     * marked FAILED (`markFailed`) and a 503. Nothing runs, so asking again is safe.
     */
    async sendOrFail(job: J & Record<string, unknown>, { markFailed, named }: { markFailed: () => Promise<unknown>; named: string }): Promise<void> {
      try {
        await this.queue().send([job]);
      } catch (error) {
        logger.error(`${what} could not be queued`, { error, ...job });
        await markFailed();
        throw new ServiceUnavailableError(`The ${named} could not be queued; nothing was started. Retry after the Retry-After seconds.`, QUEUE_RETRY_AFTER_SECONDS);
      }
    },
  };
}
