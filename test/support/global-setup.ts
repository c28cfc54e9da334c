import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { TEST_JVM_OPTIONS } from './jvm';
import { freePort } from './ports';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The suite's DynamoDB Local, in which every test file has a database of its own. */
    dynamoEndpoint: string;
  }
}

/**
 * One DynamoDB Local for the suite, not `sharedDb`: each test file signs with an access key of its own
 * (table-per-file.ts), and DynamoDB Local keeps a database per access key, each served by a thread of its own.
 * - In one shared database the files queued behind one another (one DynamoDB Local per worker was the way round it),
 *   and they grew slower as the suite went on: DynamoDB Local keeps a database's stream records for a day, tables
 *   deleted or not, and with a stream enabled every request it serves looks for the stream's first record by a scan of
 *   them all.
 * - One JVM rather than one per worker compiles DynamoDB Local's code once. On twelve of the slowest files, three
 *   workers: a DynamoDB Local per worker, shared databases 217 s (JVMs 273 s of CPU); per worker, a database per file
 *   128 s (133 s); one for the suite, a database per file 94 s (74 s).
 */
export default async function setup(project: TestProject) {
  const local = await startDynamoDbLocal({ port: await freePort(), sharedDb: false, jvmOptions: TEST_JVM_OPTIONS });
  project.provide('dynamoEndpoint', local.endpoint);
  return () => local.stop();
}
