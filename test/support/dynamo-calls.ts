import { AsyncLocalStorage } from 'node:async_hooks';
import { dynamo } from '#shared/dynamo';
import { grantedActions, type DynamoAction, type RouteDefinition } from '#shared/routes/route';
import type { IndexName } from '#shared/table';

/**
 * Watches every command the shared DynamoDB client sends while a route's function runs in the local
 * server of this process (the authorizer's token lookup is not a route's: API Gateway caches it).
 * Tests use it to count a request's round trips, and every request is held to its route's grant:
 * an action the stack does not grant would work here and fail with AccessDenied in AWS.
 */
const invocation = new AsyncLocalStorage<{ route: RouteDefinition; measurement: number }>();

/** The local server's hooks that attribute each call to its route, and none of the authorizer's to any. */
export const attributingCalls = {
  // Which measurement the invocation began in, so work a previous request left running is not counted in the next.
  aroundInvoke: <T>(route: RouteDefinition, invoke: () => Promise<T>) => invocation.run({ route, measurement: recording ? measurement : 0 }, invoke),
  // A keep-alive connection can carry the previous request's context into the next one's authorizer.
  aroundAuthorize: <T>(authorize: () => Promise<T>) => invocation.exit(authorize),
};

/** One DynamoDB call a route made: its command, the capacity DynamoDB says it consumed, and when it was in flight. */
export interface DynamoCall {
  command: string;
  readUnits: number;
  writeUnits: number;
  sentAt: number;
  answeredAt: number;
}

type ConsumedCapacity = { ReadCapacityUnits?: number; WriteCapacityUnits?: number; CapacityUnits?: number };

const CAPACITY_REPORTING = /^(Get|Put|Update|Delete|BatchGet|BatchWrite|Query|Scan|TransactGet|TransactWrite)/;

/** DynamoDB's own account of a call's capacity (ReturnConsumedCapacity TOTAL): one entry, or one per table. */
function consumed(command: string, output: { ConsumedCapacity?: ConsumedCapacity | ConsumedCapacity[] }): { readUnits: number; writeUnits: number } {
  const entries = [output.ConsumedCapacity ?? []].flat();
  // DynamoDB Local gives only CapacityUnits; whether they are read or write units is the command's kind.
  const reads = /^(Get|BatchGet|Query|Scan|TransactGet)/.test(command);
  const sum = (pick: (entry: ConsumedCapacity) => number | undefined) => entries.reduce((total, entry) => total + (pick(entry) ?? 0), 0);
  return {
    readUnits: sum((entry) => entry.ReadCapacityUnits ?? (reads ? entry.CapacityUnits : 0)),
    writeUnits: sum((entry) => entry.WriteCapacityUnits ?? (reads ? 0 : entry.CapacityUnits)),
  };
}

const sent: DynamoCall[] = [];
const grantViolations: string[] = [];
let recording = false;
/** Numbers the measurements; 0 is none. */
let measurement = 0;

const TRANSACT_ACTIONS: Record<string, DynamoAction> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem' };

/** The IAM actions a command needs: a transaction needs the action of each of its items. */
function actionsOf(commandName: string, input: { TransactItems?: Record<string, unknown>[] }): string[] {
  if (commandName === 'TransactWriteItemsCommand') {
    return (input.TransactItems ?? []).flatMap((item) => Object.keys(item).map((kind) => TRANSACT_ACTIONS[kind] ?? kind));
  }
  if (commandName === 'TransactGetItemsCommand') return ['GetItem'];
  return [commandName.replace(/Command$/, '')];
}

dynamo.middlewareStack.add(
  (next, context) => async (args) => {
    const invoked = invocation.getStore();
    const route = invoked?.route;
    if (route) {
      const commandName = String(context.commandName);
      for (const action of actionsOf(commandName, args.input as never)) {
        if (!grantedActions(route).includes(action as DynamoAction)) {
          grantViolations.push(`${route.method} ${route.path} sent ${commandName} needing dynamodb:${action}, which its route row does not grant`);
        }
      }
      const index = (args.input as { IndexName?: string }).IndexName;
      if (index && !route.indexes?.includes(index as IndexName)) {
        grantViolations.push(`${route.method} ${route.path} queried index ${index}, which its route row does not grant`);
      }
    }
    if (!recording || !invoked || invoked.measurement !== measurement) return next(args);
    const command = String(context.commandName);
    const reportsCapacity = CAPACITY_REPORTING.test(command);
    if (reportsCapacity) (args.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
    const call: DynamoCall = { command, readUnits: 0, writeUnits: 0, sentAt: performance.now(), answeredAt: 0 };
    sent.push(call);
    const result = await next(args);
    call.answeredAt = performance.now();
    if (reportsCapacity) Object.assign(call, consumed(command, result.output as never));
    return result;
  },
  { step: 'initialize', name: 'testCallRecorder' },
);

/** The calls `action` made through routes of the local server, with their consumed capacity and timing. */
export async function measureDynamoCalls(action: () => Promise<unknown>): Promise<DynamoCall[]> {
  sent.length = 0;
  measurement++;
  recording = true;
  try {
    await action();
  } finally {
    recording = false;
  }
  return [...sent];
}

export async function countDynamoCalls(action: () => Promise<unknown>): Promise<string[]> {
  return (await measureDynamoCalls(action)).map((call) => call.command);
}

/** Grant violations seen since the last call. */
export function takeGrantViolations(): string[] {
  return grantViolations.splice(0);
}

/** Calls grouped into round trips: a call sent after every call of the round before it was answered starts a new one. */
export function roundTrips(calls: DynamoCall[]): string[][] {
  const rounds: { answeredAt: number; commands: string[] }[] = [];
  for (const call of [...calls].sort((a, b) => a.sentAt - b.sentAt)) {
    const last = rounds.at(-1);
    if (last && call.sentAt < last.answeredAt) {
      last.commands.push(call.command);
      last.answeredAt = Math.max(last.answeredAt, call.answeredAt);
    } else rounds.push({ answeredAt: call.answeredAt, commands: [call.command] });
  }
  return rounds.map((round) => round.commands.sort());
}

let indexQueries: { index: string; count: number } | undefined;

dynamo.middlewareStack.add(
  (next, context) => async (args) => {
    if (indexQueries && context.commandName === 'QueryCommand' && (args.input as { IndexName?: string }).IndexName === indexQueries.index) indexQueries.count++;
    return next(args);
  },
  { step: 'initialize', name: 'testIndexQueryCounter' },
);

/**
 * How many Queries of `index` anything in this process sent while `action` ran: the authorizers' too, which
 * measureDynamoCalls leaves out (API Gateway caches the API key authorizer's; the inbound one's it does not).
 */
export async function countIndexQueries<T>(index: IndexName, action: () => Promise<T>): Promise<{ queries: number; answer: T }> {
  indexQueries = { index, count: 0 };
  try {
    const answer = await action();
    return { queries: indexQueries.count, answer };
  } finally {
    indexQueries = undefined;
  }
}

let failingCalls: { sent: string[]; failing: number } | undefined;

dynamo.middlewareStack.add(
  (next, context) => async (args) => {
    if (!failingCalls) return next(args);
    const index = failingCalls.sent.push(String(context.commandName)) - 1;
    if (index === failingCalls.failing) throw Object.assign(new Error('Request timed out'), { name: 'TimeoutError' });
    return next(args);
  },
  { step: 'initialize', name: 'testFailingCall' },
);

/**
 * The commands anything in this process sent while `action` ran, the authorizers' too (no route's, so
 * measureDynamoCalls leaves them out); the call numbered `failing` (from 0), if given, fails as a timeout instead.
 */
export async function commandsSentBy(action: () => Promise<unknown>, failing = -1): Promise<string[]> {
  const run = { sent: [] as string[], failing };
  failingCalls = run;
  try {
    await action();
  } finally {
    failingCalls = undefined;
  }
  return run.sent;
}
