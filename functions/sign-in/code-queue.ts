import { queueSender } from '#shared/routes/queue-sender';
import type { WorkerDefinition } from '#shared/resource';
import { queueChannel } from '#shared/workers';
import { smsSender } from '../sms/capability';

/**
 * A sign-in code asked for a phone, as it waits for the worker that makes the code and texts it when the phone is a
 * member's (./codes.ts). It carries the phone and when it was asked, never a code: the code is made by the worker,
 * stored only as its hash, and exists in plain only in the text.
 */
export interface SignInCodeJob {
  /** The ask's own id: the worker recognises an ask handed again by it. */
  askId: string;
  phone: string;
  requestedAt: string;
}

/**
 * The queue of the asks, with its dead letters. A message is taken in seconds; one that failed five receives (the
 * table or the SMS provider down) is dead-lettered, which pages: the person asked again long since, so it is never
 * redriven, and the worker drops an ask older than a code's life. A day's retention outlasts an outage of the worker.
 */
export const signInCodes = queueChannel({
  name: 'sign-in-codes',
  one: 'sign-in-code',
  retentionDays: 1,
  batch: { size: 5, functionTimeoutSeconds: 10 },
  // Kept longer than the queue keeps an ask: a dead letter keeps its first enqueue time, so at the queue's retention it would expire unread.
  deadLetters: { retentionDays: 4, maxReceiveCount: 5, meaning: 'Sign-in codes asked for could not be made or texted five times: members cannot sign in by code (the table or the SMS provider is failing).' },
  // Its retries wait on the clock the code reads, and dead-letter after five receives, as SQS's do.
  local: { install: 'code-asks#setSignInCodeQueue', what: 'sign-in code', logged: () => ({}), followsClock: true },
});

/** Sending asks to the queue: its URL, and SendMessage to it. */
export const signInCodeQueueSender = queueSender({ name: 'signInCodeQueueSender', to: signInCodes, reachesOutside: true });

/**
 * The worker: each ask through `sendAskedCode` (./codes.ts), which reads the phone's memberships (gsi1) and their
 * organizations, writes the code's hash, texts the code (from the organization's number when it has one) and marks
 * it texted, so an ask handed again recognises itself.
 */
export const signInCodeWorker: WorkerDefinition = {
  name: 'SendSignInCodes',
  handler: 'code-worker',
  trigger: { kind: 'queue', queue: signInCodes.name },
  dynamodb: ['Query', 'GetItem', 'PutItem', 'UpdateItem'],
  indexes: ['gsi1'],
  keys: [{ keys: 'MEMBERPHONE#*', actions: ['Query'] }, { keys: 'ORG#*', actions: ['GetItem'] }, { keys: 'SIGNIN#*', actions: ['PutItem', 'UpdateItem'] }],
  capabilities: [smsSender],
  errorsAlarm: { id: 'SendSignInCodesFailing', meaning: 'The sign-in code worker failed in three 5-minute periods in a row: codes are retried, then dead-lettered, and members cannot sign in by code.' },
  local: 'codes#sendAskedCode',
};
