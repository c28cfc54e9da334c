import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ManualClock, setClock } from '#shared/clock';
import type { StepMessage } from './engine';
import { atExpression, deployedRunnerEngine, eventBridgeScheduler, SCHEDULE_RETRIES, type ScheduleTarget } from './eventbridge-scheduler';
import { queueOnlyEngine, sqsStepQueue } from './sqs-step-queue';
import { stepMessageOf } from './scheduled-send';

// The deployed engine through the real SDK clients, against a local server speaking EventBridge Scheduler's and SQS's
// protocols: what it asks of each, and how it reads their refusals.

interface AwsRequest {
  method: string;
  path: string;
  target: string | undefined;
  body: Record<string, any>;
}
interface AwsAnswer {
  status: number;
  errorType?: string;
  body?: Record<string, unknown>;
}

/** One server for both services: it records each request and answers the next queued answer, or a success. */
async function startAws() {
  const requests: AwsRequest[] = [];
  let answers: AwsAnswer[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const target = request.headers['x-amz-target'] as string | undefined;
      requests.push({ method: request.method!, path: request.url!, target, body: text ? JSON.parse(text) : {} });
      const answer = answers.shift() ?? { status: 200, body: target ? { Successful: [], Failed: [] } : { ScheduleArn: 'arn:aws:scheduler:local:000000000000:schedule/g/s' } };
      const headers = { 'content-type': target ? 'application/x-amz-json-1.0' : 'application/json', ...(answer.errorType ? { 'x-amzn-errortype': answer.errorType } : {}) };
      response.writeHead(answer.status, headers).end(JSON.stringify(answer.body ?? { Message: `${answer.errorType} from the service` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    answerWith: (...next: AwsAnswer[]) => void (answers = next),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
}

const NOW = Date.parse('2026-11-20T09:00:00.000Z');
const target: ScheduleTarget = {
  group: 'pipeline-automations',
  queueUrl: 'https://sqs.local.amazonaws.com/000000000000/pipeline-automation-steps',
  roleArn: 'arn:aws:iam::000000000000:role/scheduler',
  deadLettersArn: 'arn:aws:sqs:local:000000000000:pipeline-automation-schedule-dead-letters',
};
const message: StepMessage = { kind: 'advance', organizationId: 'org_1', runId: 'run_01JAAAAAAAAAAAAAAAAAAAAAAA', wake: 2 };
const RUNNER_VARIABLES = ['AUTOMATION_QUEUE_URL', 'AUTOMATION_SCHEDULE_GROUP', 'AUTOMATION_SCHEDULER_ROLE_ARN', 'AUTOMATION_SCHEDULE_DLQ_ARN'];

let aws: Awaited<ReturnType<typeof startAws>>;
/** The queue's URL names its host, which the SQS client sends to: the local server's. */
let QUEUE_URL = '';
let restoreClock: () => void;
// The clients are made once per container, on first use, reading their endpoints then.
beforeAll(async () => {
  aws = await startAws();
  QUEUE_URL = `${aws.url}/000000000000/pipeline-automation-steps`;
  Object.assign(process.env, { AWS_ENDPOINT_URL_SCHEDULER: aws.url, AWS_ENDPOINT_URL_SQS: aws.url });
  restoreClock = setClock(new ManualClock(NOW));
});
afterAll(async () => {
  restoreClock();
  for (const name of ['AWS_ENDPOINT_URL_SCHEDULER', 'AWS_ENDPOINT_URL_SQS', ...RUNNER_VARIABLES]) delete process.env[name];
  await aws.close();
});
afterEach(() => {
  aws.requests.length = 0;
  aws.answerWith();
});

const scheduler = () => eventBridgeScheduler(target, sqsStepQueue(QUEUE_URL));

describe('one-time schedules on EventBridge Scheduler', () => {
  it('creates one in the group that sends the message to the step queue once (SendMessage, by Scheduler’s universal target), at its second in UTC, as the scheduler’s role, with retries, dead letters and the name as client token', async () => {
    await scheduler().create('run_01JAAAAAAAAAAAAAAAAAAAAAAA-3-2', NOW + 86_400_000 + 250, message);
    expect(aws.requests).toEqual([
      {
        method: 'POST',
        path: '/schedules/run_01JAAAAAAAAAAAAAAAAAAAAAAA-3-2',
        target: undefined,
        body: {
          GroupName: 'pipeline-automations',
          ScheduleExpression: 'at(2026-11-21T09:00:01)',
          ScheduleExpressionTimezone: 'UTC',
          FlexibleTimeWindow: { Mode: 'OFF' },
          ActionAfterCompletion: 'DELETE',
          Target: {
            Arn: 'arn:aws:scheduler:::aws-sdk:sqs:sendMessage',
            RoleArn: target.roleArn,
            Input: JSON.stringify({ QueueUrl: target.queueUrl, MessageBody: JSON.stringify(message), MessageGroupId: 'org_1' }),
            RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 3_600 },
            DeadLetterConfig: { Arn: target.deadLettersArn },
          },
          ClientToken: 'run_01JAAAAAAAAAAAAAAAAAAAAAAA-3-2',
        },
      },
    ]);
    expect(SCHEDULE_RETRIES).toEqual({ MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 3_600 });
  });

  it('puts each wake-up in its organization’s message group, the one the queue’s direct sends give the same message, so a bulk enrolment’s waits stay in the fair queue', async () => {
    // A bulk enrolment's waiting steps, with another organization's one among them, each scheduled, then sent at once.
    const waits: StepMessage[] = Array.from({ length: 5 }, (_, wake): StepMessage => ({ ...message, organizationId: 'org_bulk', wake }));
    waits.splice(2, 0, { kind: 'advance', organizationId: 'org_quiet', runId: 'run_01JBBBBBBBBBBBBBBBBBBBBBBB', wake: 1 });
    for (const [i, wait] of waits.entries()) await scheduler().create(`run_a-1-${i}`, NOW + 3_600_000, wait);
    const scheduled = aws.requests.map(({ body }) => JSON.parse((body.Target as { Input: string }).Input) as { MessageBody: string; MessageGroupId: string });
    aws.requests.length = 0;
    await sqsStepQueue(QUEUE_URL).send(waits);
    const sent = aws.requests.flatMap(({ body }) => body.Entries as { MessageBody: string; MessageGroupId: string }[]);
    expect(scheduled.map(({ MessageBody, MessageGroupId }) => [JSON.parse(MessageBody).organizationId, MessageGroupId])).toEqual(waits.map(({ organizationId }) => [organizationId, organizationId]));
    expect(scheduled.map(({ MessageBody, MessageGroupId }) => [MessageBody, MessageGroupId])).toEqual(sent.map(({ MessageBody, MessageGroupId }) => [MessageBody, MessageGroupId]));
  });

  it('dead-letters its SendMessage call, which the step worker reads, moved back to the step queue, as the step message it carries', async () => {
    await scheduler().create('run_a-1-9', NOW + 3_600_000, message);
    const deadLetter = JSON.parse(aws.requests[0]!.body.Target.Input as string);
    expect(stepMessageOf(deadLetter)).toEqual(message);
    expect(stepMessageOf(message)).toBe(message);
  });

  it('never fires early: a time between two seconds is the later one', () => {
    expect(atExpression(Date.parse('2026-11-21T09:00:00.000Z'))).toBe('at(2026-11-21T09:00:00)');
    expect(atExpression(Date.parse('2026-11-21T09:00:00.001Z'))).toBe('at(2026-11-21T09:00:01)');
    expect(atExpression(Date.parse('2026-12-31T23:59:59.999Z'))).toBe('at(2027-01-01T00:00:00)');
  });

  it('takes a schedule that exists (a twin delivery made it) for made, and fails on any other refusal', async () => {
    aws.answerWith({ status: 409, errorType: 'ConflictException' });
    await expect(scheduler().create('run_a-1-1', NOW + 3_600_000, message)).resolves.toBeUndefined();
    aws.answerWith({ status: 400, errorType: 'ValidationException' });
    await expect(scheduler().create('run_a-1-1', NOW + 3_600_000, message)).rejects.toThrow(/ValidationException/);
  });

  it('deletes one from the group, taking one already gone (fired, or deleted) for deleted, and fails on any other refusal', async () => {
    await scheduler().delete('run_a-1-1');
    expect(aws.requests.map(({ method, path }) => `${method} ${path}`)).toEqual([expect.stringMatching(/^DELETE \/schedules\/run_a-1-1\?.*groupName=pipeline-automations/)]);
    aws.answerWith({ status: 404, errorType: 'ResourceNotFoundException' });
    await expect(scheduler().delete('run_a-1-1')).resolves.toBeUndefined();
    aws.answerWith({ status: 403, errorType: 'AccessDeniedException' });
    await expect(scheduler().delete('run_a-1-1')).rejects.toThrow(/AccessDenied/);
  });

  it('sends a message due within the second to the queue at once, making no schedule (one must be in the future)', async () => {
    await scheduler().create('run_a-1-1', NOW + 1_000, message);
    await scheduler().create('run_a-1-2', NOW - 60_000, { ...message, wake: 3 });
    expect(aws.requests.map(({ target, body }) => ({ target, body }))).toEqual([
      { target: 'AmazonSQS.SendMessageBatch', body: { QueueUrl: QUEUE_URL, Entries: [{ Id: '0', MessageBody: JSON.stringify(message), MessageGroupId: 'org_1' }] } },
      { target: 'AmazonSQS.SendMessageBatch', body: { QueueUrl: QUEUE_URL, Entries: [{ Id: '0', MessageBody: JSON.stringify({ ...message, wake: 3 }), MessageGroupId: 'org_1' }] } },
    ]);
  });
});

describe('the deployed step queue', () => {
  it('sends messages ten to a batch, and fails when SQS refuses any, so the sender’s attempt is tried again', async () => {
    const messages = Array.from({ length: 12 }, (_, wake): StepMessage => ({ ...message, wake }));
    await sqsStepQueue(QUEUE_URL).send(messages);
    expect(aws.requests.map(({ body }) => body.Entries.map(({ MessageBody }: { MessageBody: string }) => JSON.parse(MessageBody).wake))).toEqual([[0, 1, 2, 3, 4, 5, 6, 7, 8, 9], [10, 11]]);
    aws.answerWith({ status: 200, body: { Successful: [], Failed: [{ Id: '0', Code: 'InternalError', SenderFault: false }] } });
    await expect(sqsStepQueue(QUEUE_URL).send([message])).rejects.toThrow(/SQS refused 1 automation step messages: InternalError/);
  });

  it('puts each step in its organization’s message group, so the fair queue keeps one organization’s burst from delaying another’s steps', async () => {
    // A bulk enrolment of one organization, and another organization's one step among it.
    const messages: StepMessage[] = Array.from({ length: 11 }, (_, wake): StepMessage => ({ ...message, organizationId: 'org_bulk', wake }));
    messages.splice(4, 0, { kind: 'cleanup', organizationId: 'org_quiet', runId: 'run_01JBBBBBBBBBBBBBBBBBBBBBBB', scheduleName: 'run_b-1-1' });
    await sqsStepQueue(QUEUE_URL).send(messages);
    const entries = aws.requests.flatMap(({ body }) => body.Entries as { MessageBody: string; MessageGroupId?: string }[]);
    expect(entries).toHaveLength(12);
    expect(entries.map(({ MessageGroupId }) => MessageGroupId)).toEqual(entries.map(({ MessageBody }) => (JSON.parse(MessageBody) as StepMessage).organizationId));
    expect(entries.filter(({ MessageGroupId }) => MessageGroupId === 'org_quiet')).toHaveLength(1);
  });
});

describe('the engine each deployed function reads from its environment', () => {
  afterEach(() => RUNNER_VARIABLES.forEach((name) => delete process.env[name]));

  it('is none without the queue’s URL, as under npm start, which puts its own in place', () => {
    expect(queueOnlyEngine()).toBeUndefined();
    expect(deployedRunnerEngine()).toBeUndefined();
  });

  it('stops the runner’s container loudly when a setting of its schedules is missing', () => {
    Object.assign(process.env, { AUTOMATION_QUEUE_URL: QUEUE_URL, AUTOMATION_SCHEDULE_GROUP: target.group, AUTOMATION_SCHEDULER_ROLE_ARN: target.roleArn, AUTOMATION_SCHEDULE_DLQ_ARN: target.deadLettersArn });
    expect(Object.keys(deployedRunnerEngine()!).sort()).toEqual(['queue', 'scheduler']);
    delete process.env.AUTOMATION_SCHEDULER_ROLE_ARN;
    expect(() => deployedRunnerEngine()).toThrow(/Missing required environment variable AUTOMATION_SCHEDULER_ROLE_ARN/);
  });

  it('is, for a function that puts no engine in place (the stream consumer, the routes that enrol and cancel), the queue-only one at its first use', async () => {
    vi.resetModules();
    const unset = await import('./engine');
    expect(() => unset.automationEngine()).toThrow(/No automation engine is in place/);
    vi.resetModules();
    process.env.AUTOMATION_QUEUE_URL = QUEUE_URL;
    const { automationEngine } = await import('./engine');
    await automationEngine().queue.send([message]);
    expect(aws.requests.map(({ target, body }) => [target, body.QueueUrl])).toEqual([['AmazonSQS.SendMessageBatch', QUEUE_URL]]);
    await expect(automationEngine().scheduler.delete('run_a-1-1')).rejects.toThrow(/Only the automation step runner/);
  });

  it('gives the functions that only queue steps the queue, and a scheduler that refuses: only the runner makes and deletes schedules', async () => {
    process.env.AUTOMATION_QUEUE_URL = QUEUE_URL;
    const engine = queueOnlyEngine()!;
    await engine.queue.send([message]);
    expect(aws.requests.map(({ target }) => target)).toEqual(['AmazonSQS.SendMessageBatch']);
    await expect(engine.scheduler.delete('run_a-1-1')).rejects.toThrow(/Only the automation step runner/);
    await expect(engine.scheduler.create('run_a-1-1', NOW + 3_600_000, message)).rejects.toThrow(/Only the automation step runner/);
    expect(aws.requests).toHaveLength(1);
  });
});
