import { eachMessage } from '#shared/queue-batch';
import { sendAskedCode } from './codes';
import type { SignInCodeJob } from './code-queue';

/** The sign-in code worker as Lambda runs it: each ask of an SQS batch, only those that threw handed again. */
export const handler = eachMessage<SignInCodeJob>(sendAskedCode, 'sign-in code ask failed; SQS will retry it');
