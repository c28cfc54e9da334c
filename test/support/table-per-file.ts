import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { createTable, LOCAL_AWS_ENV } from '../../infra/local/dynamodb-local';

// Runs before each test file, before it imports anything that reads the configuration.
const endpoint = inject('dynamoEndpoint');
const tableName = `test-${randomUUID()}`;
Object.assign(process.env, LOCAL_AWS_ENV, { AWS_ENDPOINT_URL_DYNAMODB: endpoint, TABLE_NAME: tableName });
await createTable(endpoint, tableName);
