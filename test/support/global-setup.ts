import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';
import { startDynamoDbLocal } from '../../infra/local/dynamodb-local';

declare module 'vitest' {
  export interface ProvidedContext {
    dynamoEndpoint: string;
  }
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** One DynamoDB Local for the whole run; every test file makes its own table in it. */
export default async function setup(project: TestProject) {
  const dynamodb = await startDynamoDbLocal({ port: await freePort() });
  project.provide('dynamoEndpoint', dynamodb.endpoint);
  return () => dynamodb.stop();
}
