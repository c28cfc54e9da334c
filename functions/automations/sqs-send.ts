/**
 * The SQS client and the one command the step queue sends (./sqs-step-queue.ts). A function's module says how it has
 * them: imported with it (the stream consumer: its bundle is one file, where a module loaded with import() is wrapped
 * and tree-shaken less, 11 KB more and slower to import, measured) or loaded with import() at the first send (the
 * automations' routes and the runner, whose bundles have chunks: it is then a chunk holding these alone, not every
 * command of the client).
 */
export { SendMessageBatchCommand, SQSClient } from '@aws-sdk/client-sqs';
