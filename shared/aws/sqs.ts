import { SQSClient } from '@aws-sdk/client-sqs';

/**
 * The SQS client and the commands the functions' queues send (the automation step queue, the webhook delivery queue),
 * loaded with import() at a function's first message: the stream consumer's batches, the automations' routes and the
 * webhooks' deliveries and routes mostly send none, and their bundles have chunks, so this is a chunk holding the
 * client and these commands alone.
 */
let client: SQSClient | undefined;

/** The container's one client, made at its first message (a client that failed to be made is tried again at the next). */
export const sqs = (): SQSClient => (client ??= new SQSClient({}));

export { SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
