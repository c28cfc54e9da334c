import { AsyncLocalStorage } from 'node:async_hooks';
import { dynamo } from '../../shared/dynamo';
import { grantedActions, type DynamoAction, type RouteDefinition } from '../../shared/routes/route';
import type { IndexName } from '../../shared/table';

/**
 * Watches every command the shared DynamoDB client sends while a route's function runs in the local
 * server of this process (the authorizer's token lookup is not a route's: API Gateway caches it).
 * Tests use it to count a request's round trips, and every request is held to its route's grant:
 * an action the stack does not grant would work here and fail with AccessDenied in AWS.
 */
export const invokingRoute = new AsyncLocalStorage<RouteDefinition>();

const sent: string[] = [];
const grantViolations: string[] = [];
let recording = false;

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
    const route = invokingRoute.getStore();
    if (route) {
      const commandName = String(context.commandName);
      if (recording) sent.push(commandName);
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
    return next(args);
  },
  { step: 'initialize', name: 'testCallRecorder' },
);

export async function countDynamoCalls(action: () => Promise<unknown>): Promise<string[]> {
  sent.length = 0;
  recording = true;
  try {
    await action();
  } finally {
    recording = false;
  }
  return [...sent];
}

/** Grant violations seen since the last call. */
export function takeGrantViolations(): string[] {
  return grantViolations.splice(0);
}
