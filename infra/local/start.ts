import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AUTHORIZER_CACHE_TTL_SECONDS } from '../cdk/options';
import { BASE_URL_VARIABLE, checkedBaseUrl } from '#shared/http/base-url';
import { createTable, dynamoDbLocalEndpoint, DynamoDbLocalTimeout, LOCAL_AWS_ENV, LOCAL_JVM_OPTIONS, LOCAL_SERVICE_ENV, portInUse, PortInUseError, spawnDynamoDbLocal } from './dynamodb-local';
import { briefly, DEFAULT_START_TIMEOUT_SECONDS, patientWhileStartingUp, startedUp, startingUp, StartUpTimeout, type Patience } from './patience';
import { showLocalTexts } from '../../functions/sms/local-provider';

/**
 * `npm start`: DynamoDB Local, the table, a demo organization and the local API.
 * PORT (3000), DYNAMODB_PORT (8000), TABLE_NAME (sales-pipeline), DATA_DIR (in memory), AUTHORIZER_CACHE_TTL (300),
 * PUBLIC_BASE_URL (the Host asked) and START_TIMEOUT (180: the seconds DynamoDB Local is waited for) may be set.
 */
const port = Number(process.env.PORT ?? 3000);
const dynamoPort = Number(process.env.DYNAMODB_PORT ?? 8000);
const tableName = process.env.TABLE_NAME ?? 'sales-pipeline';
// A relative DATA_DIR is read from where the command was typed (npm runs scripts from the project root).
const dataDir = process.env.DATA_DIR ? resolve(process.env.INIT_CWD ?? process.cwd(), process.env.DATA_DIR) : undefined;
// As API Gateway deployed: an API key's answer is reused for this many seconds, so a revoked key works until then.
const authorizerCacheTtl = process.env.AUTHORIZER_CACHE_TTL || String(AUTHORIZER_CACHE_TTL_SECONDS.default);
if (!/^\d{1,4}$/.test(authorizerCacheTtl) || Number(authorizerCacheTtl) > AUTHORIZER_CACHE_TTL_SECONDS.max) {
  fail(`AUTHORIZER_CACHE_TTL must be whole seconds from 0 to ${AUTHORIZER_CACHE_TTL_SECONDS.max}, as the stack's authorizerCacheTtl (got "${authorizerCacheTtl}").`);
}

// As deployed behind the console's distribution with its firewall: the API's own address refuses what lacks the origin
// secret, and every per-source limit counts the viewer's address the edge writes (docs/decisions/edge.md).
const viewerEdge = process.env.VIEWER_EDGE || 'false';
if (viewerEdge !== 'true' && viewerEdge !== 'false') fail(`VIEWER_EDGE must be true or false (got "${viewerEdge}").`);

const startTimeout = process.env.START_TIMEOUT || String(DEFAULT_START_TIMEOUT_SECONDS);
if (!/^\d{1,4}$/.test(startTimeout) || Number(startTimeout) < 1) fail(`START_TIMEOUT must be whole seconds from 1 to 9999 (got "${startTimeout}").`);

/** One line on stderr and a non-zero exit, for a problem the developer can fix. */
function fail(message: string): never {
  process.stderr.write(`npm start: ${message}\n`);
  process.exit(1);
}

// The URL inbound endpoints and the document name (a tunnel's, say), checked before anything starts.
if (process.env[BASE_URL_VARIABLE]) {
  try {
    checkedBaseUrl(process.env[BASE_URL_VARIABLE]);
  } catch (error) {
    fail(`${(error as Error).message}.`);
  }
}

const startedAt = Date.now();
// Checked before Java starts, so a taken PORT leaves nothing running.
if (await portInUse(port)) fail(`PORT ${port} is already in use; stop what listens there or set PORT to a free port.`);
if (dataDir) mkdirSync(dataDir, { recursive: true });
Object.assign(process.env, LOCAL_AWS_ENV, { AWS_ENDPOINT_URL_DYNAMODB: dynamoDbLocalEndpoint(dynamoPort), TABLE_NAME: tableName });
for (const [name, value] of Object.entries(LOCAL_SERVICE_ENV)) process.env[name] ??= value;
// One JSON line per request; the EMF metric blobs only matter to CloudWatch (POWERTOOLS_METRICS_DISABLED=false shows them).
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
// DynamoDB Local is waited for, its JVM's start and its first slow answers alike, up to START_TIMEOUT, saying so.
const patience: Patience = { deadline: startedAt + Number(startTimeout) * 1000, seconds: Number(startTimeout), say: (line) => console.log(line) };
const starting = await spawnDynamoDbLocal({
  port: dynamoPort,
  dataDir,
  jvmOptions: LOCAL_JVM_OPTIONS,
  waiting: {
    timeoutMs: Number(startTimeout) * 1000,
    onWaiting: (seconds) => console.log(seconds < 1 ? 'waiting for DynamoDB Local (JVM starting)…' : `still waiting for DynamoDB Local (JVM starting, ${seconds} s)…`),
  },
}).catch((error: unknown) => {
  if (error instanceof PortInUseError) fail(error.message);
  failedToStart(error);
});
// Whatever ends this process before Ctrl-C (a failed start, an error) ends DynamoDB Local with it: kill is synchronous.
process.once('exit', () => void starting.stop());

/** Anything start-up meets is said in a line (a JVM that will not run adds its output), not as a stack trace. */
function failedToStart(error: unknown): never {
  if (error instanceof StartUpTimeout) fail(error.message);
  if (error instanceof DynamoDbLocalTimeout) fail(`${error.message}; is the machine overloaded? START_TIMEOUT gives it longer.`);
  if ((error as Error | undefined)?.message?.startsWith('DynamoDB Local exited')) fail((error as Error).message.trim());
  fail(`could not start: ${briefly(error)}`);
}

const { dynamodb, demo, local } = await (async () => {
  // Shared code reads its configuration on import, so it is loaded once the environment is set, while the JVM starts.
  const [dynamodb, { createOrganizationWithKey }, { startLocalServer }, { dynamo }] = await Promise.all([starting.ready, import('../demo/organization'), import('./server'), import('#shared/dynamo')]);
  dynamodb.onUnexpectedExit((code) => fail(`DynamoDB Local stopped unexpectedly (exit code ${code}); the API cannot serve without it.`));
  // Its first answers may still be slow: each call of start-up waits them out (a retry is that call again).
  patientWhileStartingUp(dynamo.middlewareStack);
  startingUp(`creating table ${tableName}`, patience);
  await createTable(dynamodb.endpoint, tableName);

  // With DATA_DIR the demo organization survives restarts; its key is kept beside the data.
  const demoFile = dataDir ? join(dataDir, 'demo-organization.json') : undefined;
  const restarted = Boolean(demoFile && existsSync(demoFile));
  startingUp('seeding the demo organization', patience);
  const demo =
    restarted && demoFile
      ? (JSON.parse(readFileSync(demoFile, 'utf8')) as Awaited<ReturnType<typeof createOrganizationWithKey>>)
      : await createOrganizationWithKey('Harbour City Plumbing & Electrical', { demo: true });
  if (demoFile) writeFileSync(demoFile, JSON.stringify(demo, null, 2));

  // After a DATA_DIR restart the stream consumer starts at the newest change: older ones had their events already.
  startingUp('starting the stream reader', patience);
  const local = await startLocalServer(port, { streamFrom: restarted ? 'LATEST' : 'TRIM_HORIZON', authorizerCacheTtlMs: Number(authorizerCacheTtl) * 1000, viewerEdge: viewerEdge === 'true' }).catch(async (error: NodeJS.ErrnoException) => {
    await dynamodb.stop();
    if (error.code === 'EADDRINUSE') fail(`PORT ${port} is already in use; stop what listens there or set PORT to a free port.`);
    throw error;
  });
  startedUp();
  return { dynamodb, demo, local };
})().catch(failedToStart);

// The texts the local SMS provider "sends" (a member's sign-in code among them), where the developer reads them.
showLocalTexts((sms) => console.log(`SMS to ${sms.to}: ${sms.body}`));

const edgeLine = local.originUrl
  ? `  The edge as deployed (VIEWER_EDGE=true): ${local.url} is the distribution; the API's own address\n  ${local.originUrl} refuses requests without the origin secret.\n`
  : '';
console.log(`
Sales Pipeline API running at ${local.url}  (ready in ${((Date.now() - startedAt) / 1000).toFixed(1)} s)
  DynamoDB Local: ${dynamodb.endpoint}, table ${tableName}${dataDir ? `, data in ${dataDir}` : ', in memory'}
  Demo organization: ${demo.organizationId}
  Demo API key:      ${demo.apiKey}
  Demo company:      ${(demo.demo?.companyIds as string[] | undefined)?.[0] ?? '-'}

  curl -H "Authorization: Bearer ${demo.apiKey}" ${local.url}/v1/leads
  API reference: ${local.url}/docs   OpenAPI: ${local.url}/openapi
  Owners' console: ${local.url}/console  (a member with a phone signs in: the texted code is printed here)
${edgeLine}  ${authorizerCacheTtl === '0' ? 'Every request is authorized afresh (AUTHORIZER_CACHE_TTL=0).' : `A key's authorization is reused for ${authorizerCacheTtl} s, as deployed: a revoked key works until then (AUTHORIZER_CACHE_TTL=0 asks every time).`}

Press Ctrl-C to stop.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  // The stream consumer first, so no read is left waiting on a DynamoDB Local that is going away.
  await local.close();
  await dynamodb.stop();
  process.exit(0);
};
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
