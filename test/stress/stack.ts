import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTable, LOCAL_AWS_ENV, LOCAL_SERVICE_ENV, startDynamoDbLocal, type DynamoDbLocal } from '../../infra/local/dynamodb-local';
import type { LocalGatewayOptions } from '../../infra/local/gateway';
import { freePort } from '../support/ports';

export interface StressStack {
  url: string;
  /** DynamoDB Local's endpoint, for bare SDK calls to the same emulator. */
  endpoint: string;
  /** A new organization on the unmetered plan, so the runs measure the service and not its rate limits. */
  newOrganization: (name: string) => Promise<{ organizationId: string; apiKey: string }>;
  /**
   * Kills DynamoDB Local; whatever was in flight is cut. SIGTERM by default: under SIGKILL the emulator
   * itself can lose a transaction it had acknowledged (docs/reliability.md), which DynamoDB never does.
   */
  killDynamoDb: (signal?: NodeJS.Signals) => Promise<void>;
  /** Starts DynamoDB Local again on the same port from the same data directory. */
  restartDynamoDb: () => Promise<void>;
  stop: () => Promise<void>;
  /** Resolves once the server's in-process queues are idle. */
  queuesIdle: () => Promise<void>;
}

/**
 * The local API in this process against its own DynamoDB Local, persisted in a temporary DATA_DIR so it
 * can be killed and restarted. Call before anything has loaded the shared configuration.
 */
/**
 * `events: false` leaves the stream consumer out, for runs that only count the API's own writes; the hooks
 * let a run attribute DynamoDB calls to routes (test/support/dynamo-calls.ts).
 */
export async function startStressStack({
  events = true,
  powertoolsDev = true,
  jvmOptions,
  ...hooks
}: {
  events?: boolean;
  /** For DynamoDB Local's JVM (test/support/jvm.ts); its defaults without. */
  jvmOptions?: readonly string[];
  /** False: Powertools as in Lambda, one compact JSON line per log and EMF metrics, written to stdout. */
  powertoolsDev?: boolean;
} & Pick<LocalGatewayOptions, 'aroundInvoke' | 'aroundAuthorize' | 'authorizerCacheTtlMs'> = {}): Promise<StressStack> {
  const dataDir = mkdtempSync(join(tmpdir(), 'sales-pipeline-stress-'));
  const port = await freePort();
  let dynamodb: DynamoDbLocal = await startDynamoDbLocal({ port, dataDir, jvmOptions });
  const tableName = 'stress';
  // POWERTOOLS_DEV: the handlers log through console, where a run can count or silence the lines.
  Object.assign(process.env, LOCAL_AWS_ENV, LOCAL_SERVICE_ENV, { AWS_ENDPOINT_URL_DYNAMODB: dynamodb.endpoint, TABLE_NAME: tableName });
  if (powertoolsDev) process.env.POWERTOOLS_DEV = 'true';
  else delete process.env.POWERTOOLS_DEV;
  await createTable(dynamodb.endpoint, tableName);
  // Loaded once the environment points at this DynamoDB Local.
  const { startLocalServer } = await import('../../infra/local/server');
  const { createOrganizationWithKey } = await import('../../infra/demo/organization');
  const local = await startLocalServer(0, { events, ...hooks });
  return {
    url: local.url,
    get endpoint() {
      return dynamodb.endpoint;
    },
    newOrganization: (name) => createOrganizationWithKey(name, { usagePlan: 'internal' }),
    queuesIdle: () => local.idle(),
    killDynamoDb: (signal = 'SIGTERM') => dynamodb.stop(signal),
    restartDynamoDb: async () => {
      dynamodb = await startDynamoDbLocal({ port, dataDir, jvmOptions });
    },
    stop: async () => {
      await local.close();
      await dynamodb.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
