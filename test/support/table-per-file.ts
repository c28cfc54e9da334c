import { randomUUID } from 'node:crypto';
import { afterAll, expect, inject, vi } from 'vitest';
import { DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { createTable, LOCAL_AWS_ENV, LOCAL_SERVICE_ENV, localClient, localSigning } from '../../infra/local/dynamodb-local';

// Runs before each test file, before it imports anything that reads the configuration.
// The suite's DynamoDB Local (global-setup.ts).
const endpoint = inject('dynamoEndpoint');
const tableName = `test-${randomUUID()}`;
// The file's own database in the suite's DynamoDB Local, which keeps one per access key (global-setup.ts); it takes
// only letters and digits in a key.
const accessKey = { AWS_ACCESS_KEY_ID: `file${tableName.replace(/[^A-Za-z0-9]/g, '')}` };
// POWERTOOLS_DEV: the logger writes through console (so the token scan below sees every line) and metrics stay off.
// Webhooks as in `npm start`: local receivers allowed, retries from 1 s. Sync answers a change at once, so a test reads
// back what it wrote; test/sync-settle.test.ts holds the settling time itself.
// CDK_VALIDATION false: the stack tests synthesize the app at least once per file, and CloudFormation's own validation,
// which the CDK runs at every synth, was about 5 of each synth's 12 s; `npm run synth` beside the suite, and one test of
// the app with every option on (cdk-nag.test.ts), still run it.
Object.assign(process.env, LOCAL_AWS_ENV, accessKey, LOCAL_SERVICE_ENV, { AWS_ENDPOINT_URL_DYNAMODB: endpoint, TABLE_NAME: tableName, POWERTOOLS_DEV: 'true', SYNC_SETTLE_SECONDS: '0', CDK_VALIDATION: 'false' });
// No stream until a test file's server starts the stream consumer (useTestApi({ events: true })).
await createTable(endpoint, tableName, { stream: false });
// The file's signing as it starts: a file that points the environment at a DynamoDB Local of its own changes it.
const signing = localSigning();
// Dropped once the file is done (this hook, registered first, runs after the file's own, its server stopped): the
// suite's DynamoDB Local keeps every table in memory, and the files after this one need none of it (a stream's records
// stay a day, in this file's own database, where no other file's request looks).
afterAll(async () => {
  const client = localClient(endpoint, signing);
  await client.send(new DeleteTableCommand({ TableName: tableName })).finally(() => client.destroy());
});

// No API key may ever reach a log: every line the suite writes is scanned for a token. The handlers' INFO access
// logs are scanned, then dropped here: passed on, each would cross to the test runner's process only to be hidden.
const TOKEN = /sp_live_[A-Za-z0-9_-]{20,}/;
const isAccessLog = (line: string) => /"level":\s*"INFO"/.test(line) && /"message":\s*"request"/.test(line);
const leaks: string[] = [];
for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
  const original = console[method].bind(console);
  console[method] = (...args: unknown[]) => {
    const line = args.map((arg) => (typeof arg === 'string' ? arg : JSON.stringify(arg))).join(' ');
    if (TOKEN.test(line)) leaks.push(line.slice(0, 200));
    if (!isAccessLog(line)) original(...args);
  };
}
afterAll(() => {
  expect(leaks, 'log lines that carry an API key').toEqual([]);
});

// A wait for something the pipeline does later (a delivery, a receipt, a step) gives up after its timeout, which is a
// hang guard, never the behaviour under test: on a two-core machine of CI's kind, busy with the other files, what takes
// a second on a quiet one takes several. Every wait of the suite gets WAIT_SLACK times the time it names (a second when
// it names none); one that ends sooner ends as soon as it holds.
const WAIT_SLACK = 4;
const waitFor = vi.waitFor.bind(vi);
vi.waitFor = ((callback, options) => {
  const { timeout = 1_000, ...rest } = typeof options === 'number' ? { timeout: options } : (options ?? {});
  return waitFor(callback, { ...rest, timeout: timeout * WAIT_SLACK });
}) as typeof vi.waitFor;
