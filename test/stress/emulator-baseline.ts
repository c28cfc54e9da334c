import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetItemCommand, TransactWriteItemsCommand } from '@aws-sdk/client-dynamodb';
import { createTable, localClient, startDynamoDbLocal } from '../../infra/local/dynamodb-local';
import { freePort } from '../support/ports';

/**
 * How DynamoDB Local itself keeps acknowledged transactions across a kill, with no service code involved:
 * the yardstick for the fault runs. Returns how many acknowledged 3-item transactions were missing afterwards.
 */
async function round(signal: NodeJS.Signals): Promise<{ acknowledged: number; lost: number; partial: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'emulator-baseline-'));
  const port = await freePort();
  let dynamodb = await startDynamoDbLocal({ port, dataDir });
  await createTable(dynamodb.endpoint, 'baseline');
  const client = localClient(dynamodb.endpoint);
  const acknowledged: string[] = [];
  let next = 0;
  let stopped = false;
  const put = (sk: string) => ({ Put: { TableName: 'baseline', Item: { pk: { S: 'ORG#baseline' }, sk: { S: sk } }, ConditionExpression: 'attribute_not_exists(pk)' } });
  const worker = async () => {
    while (!stopped) {
      const id = `T${next++}`;
      if (next === 300) void dynamodb.stop(signal).then(() => (stopped = true));
      await client
        .send(new TransactWriteItemsCommand({ TransactItems: [put(`${id}#A`), put(`${id}#B`), put(`${id}#C`)] }))
        .then(() => acknowledged.push(id))
        .catch(() => undefined);
    }
  };
  await Promise.all(Array.from({ length: 6 }, worker));
  client.destroy();
  dynamodb = await startDynamoDbLocal({ port, dataDir });
  const reader = localClient(dynamodb.endpoint);
  let lost = 0;
  let partial = 0;
  for (const id of acknowledged) {
    const found = await Promise.all(['A', 'B', 'C'].map(async (part) => (await reader.send(new GetItemCommand({ TableName: 'baseline', Key: { pk: { S: 'ORG#baseline' }, sk: { S: `${id}#${part}` } }, ConsistentRead: true }))).Item !== undefined));
    if (!found.some(Boolean)) lost++;
    else if (!found.every(Boolean)) partial++;
  }
  reader.destroy();
  await dynamodb.stop();
  rmSync(dataDir, { recursive: true, force: true });
  return { acknowledged: acknowledged.length, lost, partial };
}

export async function emulatorBaseline({ rounds }: { rounds: number }) {
  let acknowledged = 0;
  let lost = 0;
  let partial = 0;
  let roundsWithLoss = 0;
  for (let i = 0; i < rounds; i++) {
    const result = await round('SIGKILL');
    acknowledged += result.acknowledged;
    lost += result.lost;
    partial += result.partial;
    if (result.lost) roundsWithLoss++;
  }
  let lostWithSigterm = 0;
  for (let i = 0; i < rounds; i++) lostWithSigterm += (await round('SIGTERM')).lost;
  return { rounds, acknowledged, lost, partial, roundsWithLoss, lostWithSigterm };
}
