import type { Capability, DynamoAction } from './routes/route';
import type { IndexName, OwnKeys } from './table';
import type { ScheduledSends } from './scheduled-sends';

// The functions a resource runs off a route (workers, their queues and topics, authorizers, scheduled jobs), as its
// description declares them and the events stack and `npm start` make them.

/**
 * What triggers a worker, as the events stack wires it and `npm start` runs it in process: the table's stream (every
 * committed change, in order per item), a queue, or an SNS topic, each by the name the events stack gives it.
 */
export type WorkerTrigger =
  /**
   * `failures`: the queue (by its construct id) of the records that failed every retry, and what they mean, for its
   * alarm; `lag`: the alarm (by its id) on the consumer falling behind the stream, and what that means;
   * `parallelization`: batches of one shard handled at once, by partition key (Lambda's ParallelizationFactor, 1–10;
   * 1 when absent): a key's records keep their order, and a backlog of some keys holds back only those sharing its batches;
   * `entities`: when present, only the records of items whose `entity` (of the new image, or the old one) is listed reach
   * the worker (Lambda's event filtering deployed, the local reader alike): the rest (counters, claims, names, the
   * worker's own writes) are read past, neither handed nor billed, and take no place in a batch or a key's queue.
   */
  | { kind: 'stream'; failures: { name: string; meaning: string }; lag: { id: string; meaning: string }; parallelization?: number; entities?: readonly string[] }
  | { kind: 'queue'; queue: string }
  /** `failures`: the queue (by its construct id) of what the worker could not take, and what its messages mean, for its alarm. */
  | { kind: 'topic'; topic: string; failures: { name: string; meaning: string } };

/**
 * A queue with its dead letters, as the events stack makes it and a worker's trigger or `sendsTo` names it: the
 * physical names come from the table's, so the functions that send to it name it the same way, with no cross-stack
 * reference.
 */
export interface QueueChannelDefinition {
  kind: 'queue';
  /** The name triggers and `sendsTo` give it. */
  name: string;
  /** Its construct id and physical name. */
  id: string;
  queueName: (tableName: string) => string;
  retentionDays: number;
  /** How long a received message stays hidden: six times its consumer's timeout, as Lambda advises for SQS sources. */
  visibilityTimeoutSeconds: number;
  /** Its consumer's batch, and the consumer's timeout for a whole batch. */
  batchSize: number;
  functionTimeoutSeconds: number;
  /** What a message failed this many receives, or sent there by its consumer, goes to; the alarm on it says what it means. */
  deadLetters: { id: string; queueName: (tableName: string) => string; retentionDays: number; maxReceiveCount: number; alarm: { id: string; what: string } };
  /** The environment variables that carry its URL and its dead letters' URL to the functions that send to it. */
  environment: { queueUrl: string; deadLettersUrl: string };
  /** One-time schedules (EventBridge Scheduler) send to it too, made and deleted by the worker it triggers. */
  schedules?: ScheduledSends;
  /**
   * A message's group, when its senders set one (`MessageGroupId`, which makes a standard queue an SQS fair queue):
   * the in-process queue of `npm start` serves the groups as that queue does.
   */
  messageGroup?: (message: any) => string;
  /**
   * What `npm start` puts in its place, an in-process queue: `install`, an export below the resource's folder given
   * that queue, so the functions that send to it find it; `what` a job is and what of a job (never all of it, which
   * carries records) its log lines name. With `followsClock`, its waits are timers on shared/clock.ts and a job that
   * threw comes back after the visibility timeout, dead-lettered after `maxReceiveCount` receives, as SQS does: a test
   * moving the clock moves them. The install may answer what it put in place when that can say it is idle (nothing in
   * flight), which the tests' `advanceTime` waits for.
   */
  local: { install: string; what: string; logged: (job: any) => Record<string, unknown>; followsClock?: true };
}

/** An SNS topic an AWS service publishes to, from this account only, as the events stack makes it and a topic trigger names it. */
export interface TopicChannelDefinition {
  kind: 'topic';
  /** The name triggers give it. */
  name: string;
  /** Its construct id. */
  id: string;
  displayName: string;
  /** The service principal allowed to publish to it. */
  publishedBy: string;
  /** An End User Messaging configuration set whose events go to this topic, by its construct id, its name and destination. */
  configurationSet?: { id: string; name: (tableName: string) => string; destination: string; eventTypes: readonly string[] };
  /** A stack output of its ARN, for what is set up outside the stack to publish to it. */
  output?: { id: string; description: string };
  /**
   * What `npm start` does in its place: `install`, an export below the resource's folder given the worker's local code
   * to call for each message (a local publisher); or `post`, a local path whose POSTs the export named by `simulate`
   * turns into what the topic would deliver (`(request, response, handler) => Promise<void>`).
   */
  local: { install: string } | { post: string; simulate: string };
}

/** A queue or topic of the events stack, declared by the resource whose workers use it. */
export type ChannelDefinition = QueueChannelDefinition | TopicChannelDefinition;

/** A function that answers no route: the events stack wires it to its trigger, and `npm start` runs the same code in process. */
export interface WorkerDefinition {
  /** The construct id of its function. */
  name: string;
  /** Its handler below functions/ (`parseHandler`); in a resource's description, below the resource's folder. */
  handler: string;
  trigger: WorkerTrigger;
  dynamodb: DynamoAction[];
  indexes?: IndexName[];
  /** The partition keys its role reaches (patterns): every organization's (`ORG#*`) unless it names others (docs/data-model.md). */
  keys?: OwnKeys[];
  /** The queues (by the events stack's names) it sends to besides its trigger's. */
  sendsTo?: readonly string[];
  /** What it reaches beyond the table and the queues (an SMS provider), as a route's capabilities: settings and grants. */
  capabilities?: readonly Capability[];
  /** An alarm on its function failing in three 5-minute periods in a row, by its id, with what that means. */
  errorsAlarm?: { id: string; meaning: string };
  /**
   * What `npm start` runs for each message of its trigger when not the handler itself: an export below the same
   * folder, given the message as the local trigger has it, not as the AWS event wraps it.
   */
  local?: string;
}

/**
 * A REQUEST authorizer of the gateway: it names, from the request, the organization whose usage plan meters it
 * (usageIdentifierKey). The stack makes its function (with a canary) and the gateway's authorizer.
 */
export interface AuthorizerDefinition {
  /** The construct id of its function. */
  functionName: string;
  /** Its handler below functions/ (`parseHandler`); in a resource's description, below the resource's folder. */
  handler: string;
  dynamodb: DynamoAction[];
  indexes?: IndexName[];
  /** The partition keys its role reaches (patterns): every organization's (`ORG#*`) unless it names others (docs/data-model.md). */
  keys?: OwnKeys[];
  /**
   * The request header its answer depends on alone: API Gateway reuses the answer for the same value (the authorizer
   * cache TTL). None: it runs on every request, uncached.
   */
  identityHeader?: string;
  /** Concurrency kept for it alone (DeploymentOptions.concurrency.authorizer): every request behind it needs it. */
  reserved?: boolean;
  /** Who calls the routes behind it, in place of Cognito users (what cdk-nag asks of COG4). */
  callers: string;
}

/**
 * A function that runs on a clock rather than on a request or an event: the events stack gives it an EventBridge
 * schedule, and `npm start` runs it in process at the same interval.
 */
export interface ScheduledJob {
  /** The construct id of its function and schedule. */
  name: string;
  /** Its handler below functions/ (`parseHandler`); in a resource's description, below the resource's folder. */
  handler: string;
  everyMinutes: number;
  /** DynamoDB actions and indexes its function is granted. */
  dynamodb: DynamoAction[];
  indexes: IndexName[];
  /** The partition keys its role reaches (patterns): every organization's (`ORG#*`) unless it names others (docs/data-model.md). */
  keys?: OwnKeys[];
  /** Its calls are signed with tenant sessions, as a keyed route's are (the isolation canary): its function may assume the tenant-data role. */
  signsAsTenant?: boolean;
  /** Pages when a period passes without it counting this metric (the canary's proof), as well as on its failures. */
  expects?: { metric: string; what: string };
}

/** What a queue channel says of itself; `queueChannel` derives the rest. */
export interface QueueChannelOf extends Pick<QueueChannelDefinition, 'name' | 'retentionDays' | 'schedules' | 'messageGroup' | 'local'> {
  /**
   * One message's kind, kebab-case (`sign-in-code`), the stem of the rest: the construct ids (`SignInCodes` from the
   * name, `SignInCodeDeadLetters`, `SignInCodeDeadLettersWaiting`), the physical names (`<table>-<name>`,
   * `<table>-<one>-dead-letters`) and the URL variables (`SIGN_IN_CODE_QUEUE_URL`, `SIGN_IN_CODE_DLQ_URL`).
   */
  one: string;
  /** The physical names where they were made otherwise before (a deployed queue keeps its name). */
  names?: (tableName: string) => { queue: string; deadLetters: string };
  /** The URL variables' stem where it is not `one`'s (`WEBHOOK`: `WEBHOOK_QUEUE_URL`, `WEBHOOK_DLQ_URL`). */
  variables?: string;
  /** Its consumer's batch and timeout for a whole batch; a received message is hidden six times that, as Lambda advises for SQS sources. */
  batch: { size: number; functionTimeoutSeconds: number };
  /** How long dead letters are kept, after how many receives a message goes there, and what one means, for its alarm. */
  deadLetters: { retentionDays: number; maxReceiveCount: number; meaning: string };
}

const pascalCase = (kebab: string) => kebab.replace(/(^|-)([a-z])/g, (_, __, letter: string) => letter.toUpperCase());

/** A queue with its dead letters, its ids, names and variables derived from its stems, as every queue of the API is made. */
export function queueChannel({ one, names, variables = one.replaceAll('-', '_').toUpperCase(), batch, deadLetters, ...own }: QueueChannelOf): QueueChannelDefinition {
  const named = names ?? ((tableName: string) => ({ queue: `${tableName}-${own.name}`, deadLetters: `${tableName}-${one}-dead-letters` }));
  const stem = pascalCase(one);
  return {
    kind: 'queue',
    ...own,
    id: pascalCase(own.name),
    queueName: (tableName) => named(tableName).queue,
    visibilityTimeoutSeconds: 6 * batch.functionTimeoutSeconds,
    batchSize: batch.size,
    functionTimeoutSeconds: batch.functionTimeoutSeconds,
    deadLetters: {
      id: `${stem}DeadLetters`,
      queueName: (tableName) => named(tableName).deadLetters,
      retentionDays: deadLetters.retentionDays,
      maxReceiveCount: deadLetters.maxReceiveCount,
      alarm: { id: `${stem}DeadLettersWaiting`, what: deadLetters.meaning },
    },
    environment: { queueUrl: `${variables}_QUEUE_URL`, deadLettersUrl: `${variables}_DLQ_URL` },
  };
}
