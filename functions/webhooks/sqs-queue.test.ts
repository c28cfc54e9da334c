import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { DeliveryJob } from './queue';
import { sqsDeliveryQueue } from './sqs-queue';

// The deployed delivery queue through the real SDK client, loaded at its first message, against a local server
// speaking SQS's JSON protocol: what it sends, and how it reads a refusal.

const requests: { target: string; body: Record<string, any> }[] = [];
let refuseNext = false;
const server = createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, any>;
    requests.push({ target: String(request.headers['x-amz-target']), body });
    const failed = refuseNext ? [{ Id: '0', Code: 'KMS.ThrottlingException', Message: 'slow down', SenderFault: false }] : [];
    refuseNext = false;
    // With each message's MD5, which the client checks against what it sent.
    const md5 = (text: string) => createHash('md5').update(text).digest('hex');
    const answer = body.Entries
      ? { Successful: (body.Entries as { Id: string; MessageBody: string }[]).filter(({ Id }) => !failed.some((f) => f.Id === Id)).map(({ Id, MessageBody }) => ({ Id, MessageId: `m-${Id}`, MD5OfMessageBody: md5(MessageBody) })), Failed: failed }
      : { MessageId: 'm-dlq', MD5OfMessageBody: md5(body.MessageBody) };
    response.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify(answer));
  });
});

let base = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  process.env.AWS_ENDPOINT_URL_SQS = base;
});
afterAll(async () => {
  delete process.env.AWS_ENDPOINT_URL_SQS;
  await new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve())));
});
afterEach(() => void (requests.length = 0));

const job = (webhookId: string, notBefore = new Date().toISOString()): DeliveryJob => ({
  organizationId: 'org_1',
  webhookId,
  event: { id: 'evt_1', type: 'lead.created', occurredAt: notBefore, data: { id: 'lead_1' } } as never,
  attempt: 1,
  firstQueuedAt: notBefore,
  notBefore,
});

describe('the deployed webhook delivery queue', () => {
  it('sends jobs to the queue in batches of ten, a later job delayed until its time, and a dead job to the dead-letter queue with why', async () => {
    const queue = sqsDeliveryQueue(`${base}/000000000000/deliveries`, `${base}/000000000000/deliveries-dlq`);
    const later = new Date(Date.now() + 120_000).toISOString();
    await queue.send([...Array.from({ length: 11 }, (_, i) => job(`wh_${i}`)), job('wh_later', later)]);
    expect(requests.map(({ target, body }) => [target, body.QueueUrl, body.Entries.length])).toEqual([
      ['AmazonSQS.SendMessageBatch', `${base}/000000000000/deliveries`, 10],
      ['AmazonSQS.SendMessageBatch', `${base}/000000000000/deliveries`, 2],
    ]);
    const [, second] = requests;
    expect(second!.body.Entries.map(({ DelaySeconds }: { DelaySeconds: number }) => DelaySeconds > 100)).toEqual([false, true]);
    expect(JSON.parse(second!.body.Entries[1].MessageBody).webhookId).toBe('wh_later');
    await queue.deadLetter(job('wh_dead'), 'retries ran out');
    expect(requests.at(-1)!.target).toBe('AmazonSQS.SendMessage');
    expect(requests.at(-1)!.body.QueueUrl).toBe(`${base}/000000000000/deliveries-dlq`);
    expect(JSON.parse(requests.at(-1)!.body.MessageBody)).toMatchObject({ webhookId: 'wh_dead', reason: 'retries ran out' });
  });

  it('fails the send when SQS refuses a job, so the caller’s attempt is handed again', async () => {
    const queue = sqsDeliveryQueue(`${base}/000000000000/deliveries`, `${base}/000000000000/deliveries-dlq`);
    refuseNext = true;
    await expect(queue.send([job('wh_1'), job('wh_2')])).rejects.toThrow('SQS refused 1 delivery jobs: KMS.ThrottlingException slow down');
  });
});
