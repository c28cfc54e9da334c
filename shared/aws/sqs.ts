import { SQSClient } from '@aws-sdk/client-sqs';

/**
 * The SQS client and the commands the functions' queues send (the automation step queue, the webhook delivery queue),
 * loaded with import() at a function's first message and made then, once per container: most cold starts of the
 * functions that queue (the stream consumer, the automations' routes, the runner, the webhook deliverer and routes)
 * send none, and their bundles have chunks, so this is a chunk holding the client and these commands alone.
 */
export const sqs = new SQSClient({});

export { SendMessageBatchCommand, SendMessageCommand } from '@aws-sdk/client-sqs';
