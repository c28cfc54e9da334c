import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { TEST_JVM_OPTIONS } from './jvm';
import { freePort } from './ports';

declare module 'vitest' {
  export interface ProvidedContext {
    /** One DynamoDB Local per test worker, the worker numbered n (VITEST_POOL_ID) using the n-th. */
    dynamoEndpoints: string[];
  }
}

/**
 * A DynamoDB Local for each test worker; every test file makes its own table in its worker's. One DynamoDB Local shared
 * by every worker serves their requests largely one at a time, so a file making many requests at once (the load
 * tests) held the others back until they timed out. One each, the whole suite took less than half the time (1 331 s →
 * 622 s on two cores with three workers) and a sixth less CPU.
 */
export default async function setup(project: TestProject) {
  const workers = project.config.maxWorkers;
  const locals = await Promise.all(Array.from({ length: workers }, async () => startDynamoDbLocal({ port: await freePort(), jvmOptions: TEST_JVM_OPTIONS })));
  project.provide(
    'dynamoEndpoints',
    locals.map((local) => local.endpoint),
  );
  return async () => void (await Promise.all(locals.map((local) => local.stop())));
}
