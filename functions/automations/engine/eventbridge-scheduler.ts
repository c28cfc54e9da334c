import type { SchedulerClient } from '@aws-sdk/client-scheduler';
import { clock } from '#shared/clock';
import type { AutomationEngine, StepQueue, StepScheduler } from './engine';
import type { ScheduledSend } from './scheduled-send';
import { sqsStepQueue, stepMessageBody } from './sqs-step-queue';
import { stepMessageGroup } from './step-group';

/** Where a schedule sends its message: the step queue, as the scheduler's role, with its dead letters. */
export interface ScheduleTarget {
  group: string;
  queueUrl: string;
  roleArn: string;
  deadLettersArn: string;
}

/**
 * Scheduler's universal target for SQS's SendMessage: it calls the API with the parameters the schedule's input names,
 * MessageGroupId included, which SQS takes on a standard queue as a fair queue's group. (The templated SQS target
 * documents its `SqsParameters.MessageGroupId` for FIFO queues only.)
 */
export const SQS_SEND_MESSAGE_TARGET = 'arn:aws:scheduler:::aws-sdk:sqs:sendMessage';


/**
 * A schedule whose send fails (the queue unreachable, throttled) is retried for an hour, ten times at most, then its
 * message goes to the schedule dead letters, which page (docs/operations.md: redrive them; each is an idempotent wake-up).
 */
export const SCHEDULE_RETRIES = { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 3_600 } as const;

/** A time within this of now is sent to the queue at once: a one-time schedule must be in the future, and fires within its minute anyway. */
const AT_ONCE_WITHIN_MS = 1_000;

/** `at(yyyy-mm-ddThh:mm:ss)` in UTC, at the second after `atMs` when it falls between two: a schedule never fires early. */
export function atExpression(atMs: number): string {
  return `at(${new Date(Math.ceil(atMs / 1000) * 1000).toISOString().slice(0, 19)})`;
}

/**
 * The Scheduler client's module, loaded with import() at the first schedule made or deleted, and one client per
 * container made then: a step that neither waits nor ends a waiting run never parses it (about 15 KB, in a chunk of
 * its own: infra/cdk/bundling.ts).
 */
let sdk: Promise<typeof import('./scheduler-calls')> | undefined;
let client: SchedulerClient | undefined;
const schedulerSdk = () => (sdk ??= import('./scheduler-calls'));
const scheduler = async () => (client ??= new (await schedulerSdk()).SchedulerClient({}));

/**
 * One-time EventBridge Scheduler schedules in the group, each sending its step message to the queue at its time and
 * deleted by Scheduler once it has (ActionAfterCompletion DELETE). The name is the client token too: a twin delivery
 * creating the same schedule gets Scheduler's ConflictException, which is success, as is deleting one already gone.
 */
export function eventBridgeScheduler(target: ScheduleTarget, queue: StepQueue): StepScheduler {
  return {
    async create(name, atMs, message) {
      if (atMs <= clock.now() + AT_ONCE_WITHIN_MS) return queue.send([message]);
      const { ConflictException, CreateScheduleCommand } = await schedulerSdk();
      const command = new CreateScheduleCommand({
        Name: name,
        GroupName: target.group,
        ScheduleExpression: atExpression(atMs),
        ScheduleExpressionTimezone: 'UTC',
        FlexibleTimeWindow: { Mode: 'OFF' },
        ActionAfterCompletion: 'DELETE',
        Target: {
          Arn: SQS_SEND_MESSAGE_TARGET,
          RoleArn: target.roleArn,
          // The message's group as the queue's direct sends set it: without one a waiting step's wake-up would skip the
          // fair queue, and a bulk enrolment's thousand wake-ups would delay every organization's steps.
          Input: JSON.stringify({ QueueUrl: target.queueUrl, MessageBody: stepMessageBody(message), MessageGroupId: stepMessageGroup(message) } satisfies ScheduledSend),
          RetryPolicy: SCHEDULE_RETRIES,
          DeadLetterConfig: { Arn: target.deadLettersArn },
        },
        ClientToken: name,
      });
      await (await scheduler())
        .send(command)
        .catch((error: unknown) => {
          if (!(error instanceof ConflictException)) throw error;
        });
    },
    async delete(name) {
      const { DeleteScheduleCommand, ResourceNotFoundException } = await schedulerSdk();
      await (await scheduler())
        .send(new DeleteScheduleCommand({ Name: name, GroupName: target.group }))
        .catch((error: unknown) => {
          if (!(error instanceof ResourceNotFoundException)) throw error;
        });
    },
  };
}

/** A variable the runner cannot work without: a missing one stops its container loudly. */
function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`Missing required environment variable ${name} (AUTOMATION_QUEUE_URL is set: the automation step runner needs it)`);
  return value;
}

/**
 * The runner's engine in Lambda, from the environment the events stack sets, read once: the step queue and the
 * schedules that send to it. None when AUTOMATION_QUEUE_URL is unset (the local server puts its own in place).
 */
export function deployedRunnerEngine(): AutomationEngine | undefined {
  const queueUrl = process.env.AUTOMATION_QUEUE_URL;
  if (!queueUrl) return undefined;
  const target: ScheduleTarget = {
    group: required('AUTOMATION_SCHEDULE_GROUP'),
    queueUrl,
    roleArn: required('AUTOMATION_SCHEDULER_ROLE_ARN'),
    deadLettersArn: required('AUTOMATION_SCHEDULE_DLQ_ARN'),
  };
  const queue = sqsStepQueue(queueUrl);
  return { queue, scheduler: eventBridgeScheduler(target, queue) };
}
