/**
 * `npm run bench:stream`: the stream consumer's ceiling. Leads are created and updated through the local API (its
 * stream consumer off), the table's stream is read back as Lambda's event source mapping would hand it, and the
 * consumer's own handler (functions/stream/record.ts) is fed those records in batches of 100, one batch after the
 * other as one shard's invocations are. It reports records a second, for an organization with no webhook subscription
 * and for one whose subscription wants every event (the delivery queue here takes the jobs in process: SQS's round
 * trip is not in the figure). Prints a line per run; docs/capacity.md quotes them.
 */
import { DescribeStreamCommand, DynamoDBStreamsClient, GetRecordsCommand, GetShardIteratorCommand, type _Record as StreamRecord } from '@aws-sdk/client-dynamodb-streams';
import type { DeliveryJob } from '../../functions/webhooks/queue';
import { jsonClient, pool } from '../stress/http';
import { startStressStack } from '../stress/stack';

const LEADS = Number(process.env.BENCH_STREAM_LEADS ?? 200);
const UPDATES = Number(process.env.BENCH_STREAM_UPDATES ?? 4);
const BATCH = 100;
const progress = (line: string) => process.stderr.write(`bench:stream: ${line}\n`);
// The handler logs as in Lambda (compact JSON lines to stdout): the run pays for writing them and discards them.
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = () => true;

const stack = await startStressStack({ events: false, powertoolsDev: false });
const { localSigning, enableStream } = await import('../../infra/local/dynamodb-local');
const { asLambdaRecord } = await import('../../infra/local/table-stream');
const { config } = await import('#shared/config');
const { setDeliveryQueue } = await import('../../functions/webhooks/queue');
const { handler } = await import('../../functions/stream/record');
const { dynamo } = await import('#shared/dynamo');
const { roundTrips } = await import('../support/dynamo-calls');

/** The consumer's DynamoDB calls while it runs, to split its time between DynamoDB Local's answers and its own work. */
const calls: { command: string; readUnits: number; writeUnits: number; sentAt: number; answeredAt: number }[] = [];
let recording = false;
dynamo.middlewareStack.add(
  (next, context) => async (args) => {
    if (!recording) return next(args);
    const call = { command: String(context.commandName), readUnits: 0, writeUnits: 0, sentAt: performance.now(), answeredAt: 0 };
    calls.push(call);
    try {
      return await next(args);
    } finally {
      call.answeredAt = performance.now();
    }
  },
  { step: 'initialize', name: 'streamBenchRecorder' },
);

let queued = 0;
setDeliveryQueue({ send: async (jobs: DeliveryJob[]) => void (queued += jobs.length), deadLetter: async () => undefined });

const streamArn = await enableStream(stack.endpoint, config.tableName);
const streams = new DynamoDBStreamsClient({
  endpoint: stack.endpoint,
  ...localSigning(),
});
let readSoFar = 0;

/** Every stream record written since the last call, in each shard's order. */
async function newRecords(): Promise<StreamRecord[]> {
  const records: StreamRecord[] = [];
  const { StreamDescription } = await streams.send(new DescribeStreamCommand({ StreamArn: streamArn }));
  for (const shard of StreamDescription?.Shards ?? []) {
    let iterator = (await streams.send(new GetShardIteratorCommand({ StreamArn: streamArn, ShardId: shard.ShardId!, ShardIteratorType: 'TRIM_HORIZON' }))).ShardIterator;
    while (iterator) {
      const page = await streams.send(new GetRecordsCommand({ ShardIterator: iterator, Limit: 1000 }));
      records.push(...(page.Records ?? []));
      if (!page.Records?.length) break;
      iterator = page.NextShardIterator;
    }
  }
  const fresh = records.slice(readSoFar);
  readSoFar = records.length;
  return fresh;
}

/** `LEADS` leads created and each updated `UPDATES` times, through the API: the writes a busy organization makes. */
async function writeLeads(apiKey: string, label: string) {
  const client = jsonClient(stack.url, apiKey);
  await pool(LEADS, 8, async (i) => {
    const created = await client.post('/v1/leads', { name: `${label} Lead ${i}`, email: `${label.replace(/\W/g, '').toLowerCase()}${i}@stream.example.com` });
    if (created.status !== 201) throw new Error(`create answered ${created.status}: ${JSON.stringify(created.body)}`);
    for (let u = 1; u <= UPDATES; u++) {
      const updated = await client.patch(`/v1/leads/${created.body.lead.id}`, { suburb: `Suburb ${u}` });
      if (updated.status !== 200) throw new Error(`update answered ${updated.status}: ${JSON.stringify(updated.body)}`);
    }
  });
}

async function measure(label: string, subscribe: boolean) {
  const organization = await stack.newOrganization(`Stream ${label}`);
  if (subscribe) {
    const webhook = await jsonClient(stack.url, organization.apiKey).post('/v1/webhooks', { url: 'https://hooks.example.com/leads', events: ['*'] });
    if (webhook.status !== 201) throw new Error(`webhook answered ${webhook.status}`);
  }
  await newRecords();
  progress(`${label}: writing ${LEADS} leads, ${UPDATES} updates each`);
  await writeLeads(organization.apiKey, label);
  const records = (await newRecords()).map(asLambdaRecord);
  queued = 0;
  calls.length = 0;
  recording = true;
  const started = performance.now();
  for (let at = 0; at < records.length; at += BATCH) {
    const answer = await handler({ Records: records.slice(at, at + BATCH) });
    if (answer.batchItemFailures.length) throw new Error(`record ${answer.batchItemFailures[0]!.itemIdentifier} failed`);
  }
  const elapsedMs = performance.now() - started;
  recording = false;
  // Round trips are sequential: the time the consumer waits on DynamoDB is the sum of each round's span.
  const rounds = roundTrips(calls as never);
  let waitingMs = 0;
  let roundEnd = 0;
  for (const call of [...calls].sort((a, b) => a.sentAt - b.sentAt)) {
    const start = Math.max(call.sentAt, roundEnd);
    if (call.answeredAt > start) waitingMs += call.answeredAt - start;
    roundEnd = Math.max(roundEnd, call.answeredAt);
  }
  const perRecord = (value: number) => (value / records.length).toFixed(2);
  write(
    `${label}: ${records.length} records in ${(elapsedMs / 1000).toFixed(2)} s = ${Math.round((records.length * 1000) / elapsedMs)} records/s; ` +
      `${perRecord(rounds.length)} DynamoDB round trips a record (${calls.length} calls), ${perRecord(waitingMs)} ms a record waiting on DynamoDB Local, ` +
      `${perRecord(elapsedMs - waitingMs)} ms a record of the consumer's own work; ${queued} webhook jobs queued\n`,
  );
}

try {
  await measure('No subscription', false);
  await measure('One subscription to every event', true);
} finally {
  await stack.stop();
}
