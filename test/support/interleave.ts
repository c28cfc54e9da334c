import { dynamo } from '../../shared/dynamo';

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
