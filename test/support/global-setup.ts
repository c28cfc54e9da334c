import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { TEST_JVM_OPTIONS } from './jvm';
import { freePort } from './ports';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

/** One DynamoDB Local for the whole run; every test file makes its own table in it. */
export default async function setup(project: TestProject) {
  const dynamodb = await startDynamoDbLocal({ port: await freePort(), jvmOptions: TEST_JVM_OPTIONS });
  project.provide('dynamoEndpoint', dynamodb.endpoint);
  return () => dynamodb.stop();
}
