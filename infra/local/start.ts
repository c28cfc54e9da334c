import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createTable, LOCAL_AWS_ENV, startDynamoDbLocal } from './dynamodb-local';

/**
 * `npm start`: DynamoDB Local, the table, a demo organization and the local API.
 * PORT (3000), DYNAMODB_PORT (8000), TABLE_NAME (sales-pipeline) and DATA_DIR (in memory) may be set.
 */
const port = Number(process.env.PORT ?? 3000);
const dynamoPort = Number(process.env.DYNAMODB_PORT ?? 8000);
const tableName = process.env.TABLE_NAME ?? 'sales-pipeline';
const dataDir = process.env.DATA_DIR;

const startedAt = Date.now();
if (dataDir) mkdirSync(dataDir, { recursive: true });
const dynamodb = await startDynamoDbLocal({ port: dynamoPort, dataDir });
Object.assign(process.env, LOCAL_AWS_ENV, { AWS_ENDPOINT_URL_DYNAMODB: dynamodb.endpoint, TABLE_NAME: tableName });
await createTable(dynamodb.endpoint, tableName);

// Shared code reads its configuration on import, so it is loaded once the environment is set.
const { createOrganizationWithKey } = await import('../demo/organization');
const { startLocalServer } = await import('./server');

// With DATA_DIR the demo organization survives restarts; its key is kept beside the data.
const demoFile = dataDir ? join(dataDir, 'demo-organization.json') : undefined;
const demo =
  demoFile && existsSync(demoFile)
    ? (JSON.parse(readFileSync(demoFile, 'utf8')) as Awaited<ReturnType<typeof createOrganizationWithKey>>)
    : await createOrganizationWithKey('Harbour City Plumbing & Electrical', { demo: true });
if (demoFile) writeFileSync(demoFile, JSON.stringify(demo, null, 2));

const { server, url } = await startLocalServer(port);
console.log(`
Sales Pipeline API running at ${url}  (ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s)
  DynamoDB Local: ${dynamodb.endpoint}, table ${tableName}${dataDir ? `, data in ${dataDir}` : ', in memory'}
  Demo organization: ${demo.organizationId}
  Demo API key:      ${demo.apiKey}
  Demo company:      ${(demo.demo?.companyIds as string[] | undefined)?.[0] ?? '-'}

  curl -H "Authorization: Bearer ${demo.apiKey}" ${url}/v1/leads
  API reference: ${url}/docs   OpenAPI: ${url}/openapi

Press Ctrl-C to stop.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  server.close();
  server.closeAllConnections();
  await dynamodb.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
