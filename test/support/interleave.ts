import { dynamo } from '#shared/dynamo';

/**
 * Holds the first read of a schedule head until a transaction has been written, so one booking commits
 * while the other is between its reads: the interleaving that two bookings racing only sometimes meet.
 * Answers the function that removes the hold.
 */
export function holdFirstScheduleRead(): () => void {
  const name = 'holdFirstScheduleRead';
  let committed!: () => void;
  const transactionWritten = new Promise<void>((resolve) => (committed = resolve));
  let held = false;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === 'BatchGetItemCommand' && !held && JSON.stringify(args.input).includes('"HEAD"')) {
        held = true;
        // Never hangs the test: without a transaction the read goes on after a while.
        await Promise.race([transactionWritten, new Promise((resolve) => setTimeout(resolve, 5_000))]);
      }
      const result = await next(args);
      if (context.commandName === 'TransactWriteItemsCommand') committed();
      return result;
    },
    { step: 'initialize', name },
  );
  return () => dynamo.middlewareStack.remove(name);
}

const WRITES = new Set(['TransactWriteItemsCommand', 'UpdateCommand', 'UpdateItemCommand']);

/**
 * Holds the first write (a transaction or an UpdateItem, or the `commands` named) whose input matches `pattern` until
 * `release()`: the request that sends it has done its reads and waits between them and its write, where another
 * request can commit. `reached` resolves once the write is held.
 */
export function holdWrite(pattern: RegExp, commands: ReadonlySet<string> = WRITES) {
  const name = `holdWrite${Math.random()}`;
  let release!: () => void;
  let reach!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  const reached = new Promise<void>((resolve) => (reach = resolve));
  let held = false;
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      if (!held && commands.has(String(context.commandName)) && pattern.test(JSON.stringify(args.input))) {
        held = true;
        reach();
        // Never hangs the test.
        await Promise.race([released, new Promise((resolve) => setTimeout(resolve, 10_000))]);
      }
      return next(args);
    },
    { step: 'initialize', name },
  );
  return {
    reached,
    release: () => {
      release();
      dynamo.middlewareStack.remove(name);
    },
  };
}
