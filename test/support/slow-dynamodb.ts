import { DynamoDBClient } from '@aws-sdk/client-dynamodb';

/**
 * Loaded into a process with `--import` (test/npm-start.test.ts runs `npm start` so): every DynamoDB client of the
 * process answers as a DynamoDB Local on a machine at load ~20 does, its first requests of each kind timing out.
 * SLOW_DYNAMODB_TIMEOUTS: how many attempts of each kind of call (CreateTable, PutItem, …) time out, each after
 * SLOW_DYNAMODB_DELAY_MS (100); `all` for every one. The requests that time out never reach DynamoDB Local.
 */
const timeouts = process.env.SLOW_DYNAMODB_TIMEOUTS === 'all' ? Infinity : Number(process.env.SLOW_DYNAMODB_TIMEOUTS ?? 0);
const delayMs = Number(process.env.SLOW_DYNAMODB_DELAY_MS ?? 100);
const attempts = new Map<string, number>();

// Every client of the SDK (the document client shares its client's middleware stack) sends through this prototype.
const Client = Object.getPrototypeOf(DynamoDBClient.prototype) as { send: (...args: unknown[]) => unknown };
const send = Client.send;
const slowed = new WeakSet<object>();
Client.send = function (this: DynamoDBClient, ...args: unknown[]) {
  if (!slowed.has(this.middlewareStack)) {
    slowed.add(this.middlewareStack);
    // After the SDK's retry middleware: each of its attempts meets this.
    this.middlewareStack.add(
      (next, context) => async (input) => {
        const kind = String(context.commandName);
        const attempt = (attempts.get(kind) ?? 0) + 1;
        attempts.set(kind, attempt);
        if (attempt > timeouts) return next(input);
        await new Promise((resolve) => setTimeout(resolve, delayMs));
        throw Object.assign(new Error(`Request timed out (attempt ${attempt} of ${kind}, slowed for the test)`), { name: 'TimeoutError' });
      },
      { step: 'finalizeRequest', priority: 'low', name: 'slowDynamoDb' },
    );
  }
  return send.apply(this, args);
};
