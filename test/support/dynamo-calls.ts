import { dynamo } from '../../shared/dynamo';

/**
 * Records every command the shared DynamoDB client sends while the local server runs in this
 * process, so tests can hold a request to its number of round trips. The authorizer's token
 * lookup is left out: API Gateway caches it, and it is the same for every route.
 */
const sent: string[] = [];
let recording = false;

dynamo.middlewareStack.add(
  (next, context) => async (args) => {
    const isTokenLookup = JSON.stringify((args.input as { ExpressionAttributeValues?: unknown }).ExpressionAttributeValues ?? {}).includes('TOKEN#');
    if (recording && !isTokenLookup) sent.push(String(context.commandName));
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
