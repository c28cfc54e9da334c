import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { freePort } from './ports';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/**
 * DynamoDB Local is the suite's busiest process: on two cores it competes with both test workers. The serial collector
 * measured about a fifth less of its CPU than the JVM's default (G1) for the same test files. The client compiler alone
 * (TieredStopAtLevel=1) saved more, but slowed DynamoDB Local enough that concurrent writes met conflicts the tests do
 * not meet against the defaults.
 */
const TEST_JVM_OPTIONS = ['-XX:+UseSerialGC'];

/** One DynamoDB Local for the whole run; every test file makes its own table in it. */
export default async function setup(project: TestProject) {
  const dynamodb = await startDynamoDbLocal({ port: await freePort(), jvmOptions: TEST_JVM_OPTIONS });
  project.provide('dynamoEndpoint', dynamodb.endpoint);
  return () => dynamodb.stop();
}
