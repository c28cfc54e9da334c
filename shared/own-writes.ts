import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, randomBytes } from 'node:crypto';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';

/**
 * A write that timed out after it landed is sent again, by the SDK's own retry or by the caller's retry with the same
 * Idempotency-Key, and meets its own item: a create's `attribute_not_exists` fails, an increment's limit may count it
 * twice. Each conditional write carries a token on its item, and a condition that fails on an item already holding
 * that token is the write's own earlier attempt, so the write succeeded. DynamoDB hands the item back with the failure
 * (`ReturnValuesOnConditionCheckFailure`), so recognising it costs no read.
 */
export const WRITE_TOKEN_ATTRIBUTE = 'writeToken';

const NAME = '#writeToken';
const VALUE = ':writeToken';

/**
 * One attempt of a request that carries an Idempotency-Key, and every later attempt of it (the first's outcome
 * unknown): the ids, times and write tokens its work takes come from its seed and its start, so a later attempt
 * writes the same records as the first, meets those that landed, and answers as the first would have.
 */
export interface Attempt {
  /** Random, kept with the Idempotency-Key's claim from the first attempt on. */
  seed: string;
  /** When the first attempt started: the time in the ids the request makes. */
  startedAtMs: number;
  /**
   * The time every record the request writes takes: the first attempt's start, or, for a later attempt begun too long
   * after it, that attempt's own (a change stamped long before it is written could be passed over by sync).
   */
  timeAtMs: number;
  /**
   * The integer ids drawn from sequences, by draw (1 for the first): an earlier attempt's, which a later one takes
   * again, and this attempt's own, added as it draws, for its key's record to keep when its outcome is unknown.
   */
  draws: Record<string, number>;
  /**
   * Keeps a draw on the key's record as it is made, before anything is written with it: an attempt that crashes
   * (its claim left IN_PROGRESS until its lock runs out) leaves its draws for the attempt that takes it over.
   */
  keepDraw?: (draw: string, id: number) => Promise<unknown>;
}

interface Running extends Attempt {
  /** How many ids the attempt has taken, writes it has tagged and sequence draws it made: the n-th of each is the same in every attempt. */
  ids: number;
  writes: number;
  drawn: number;
}

const attempts = new AsyncLocalStorage<Running>();

/**
 * Runs `work` as an attempt of an idempotent request (shared/http/idempotency.ts). `draws` stays the attempt's own
 * object: what the work draws is there for its key's record afterwards.
 */
export const asAttempt = <T>(attempt: Attempt, work: () => Promise<T>): Promise<T> => attempts.run({ ...attempt, ids: 0, writes: 0, drawn: 0 }, work);

/** The time the records of the idempotent request running now take, if any. */
export const attemptTime = (): number | undefined => attempts.getStore()?.timeAtMs;

/** The time and seed of the n-th id of the idempotent request running now, if any: the same in every attempt. */
export function nextAttemptId(): { atMs: number; seed: string } | undefined {
  const running = attempts.getStore();
  return running && { atMs: running.startedAtMs, seed: `${running.seed}:id:${++running.ids}` };
}

/**
 * A draw from a shared sequence (an integer id): in an idempotent request, the n-th draw is noted on the attempt and
 * kept with its Idempotency-Key as it is drawn (`keepDraw`), so a later attempt takes the same id rather than the next
 * one, whether the first answered 503 or crashed (a create retried after a lost answer then meets the records it
 * wrote). Outside one, simply drawn.
 */
export async function drawnOnce(draw: () => Promise<number>): Promise<number> {
  const running = attempts.getStore();
  if (!running) return draw();
  const index = String(++running.drawn);
  const earlier = running.draws[index];
  if (earlier !== undefined) return earlier;
  const id = (running.draws[index] = await draw());
  // Outside the attempt: the note is no write of the request's own, so the n-th write's token stays the same in every attempt.
  if (running.keepDraw) await attempts.exit(() => running.keepDraw!(index, id));
  return id;
}

/** A new write's token: the same for the n-th write of every attempt of one idempotent request, otherwise random. */
function nextToken(): string {
  const running = attempts.getStore();
  if (!running) return randomBytes(12).toString('base64url');
  return createHash('sha256').update(`${running.seed}:write:${++running.writes}`).digest('base64url').slice(0, 16);
}

type Input = Record<string, any>;

const tagPut = (put: Input, token: string): Input => ({ ...put, Item: { ...put.Item, [WRITE_TOKEN_ATTRIBUTE]: token }, ReturnValuesOnConditionCheckFailure: 'ALL_OLD' });

/** An Update that sets the token, and whose condition fails on an item that holds it already: it was applied. */
function tagUpdate(update: Input, token: string): Input {
  const expression: string = update.UpdateExpression ?? '';
  const set = /(^|\s)SET\s/i.exec(expression);
  const at = set ? set.index + set[0].length : 0;
  return {
    ...update,
    UpdateExpression: set ? `${expression.slice(0, at)}${NAME} = ${VALUE}, ${expression.slice(at)}` : `SET ${NAME} = ${VALUE} ${expression}`,
    ConditionExpression: `(${update.ConditionExpression}) AND (attribute_not_exists(${NAME}) OR ${NAME} <> ${VALUE})`,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, [NAME]: WRITE_TOKEN_ATTRIBUTE },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, [VALUE]: token },
    ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
  };
}

/** A conditional write tagged with the token: a Put or an Update, alone or in a transaction. */
function tagged(write: Input, kind: 'Put' | 'Update', token: string): Input {
  if (!write.ConditionExpression) return write;
  return kind === 'Put' ? tagPut(write, token) : tagUpdate(write, token);
}

/** The token the item DynamoDB handed back with a failed condition holds (in its wire form). */
const tokenOf = (item: Input | undefined): string | undefined => item?.[WRITE_TOKEN_ATTRIBUTE]?.S;

interface Tagged {
  input: Input;
  /** Whether a failure is the command's own earlier attempt, and what it then answers. */
  ownEarlierAttempt: (error: Input) => Input | undefined;
}

function tagCommand(commandName: string, input: Input): Tagged | undefined {
  if (commandName === 'PutItemCommand' || commandName === 'UpdateItemCommand') {
    if (!input.ConditionExpression) return undefined;
    const token = nextToken();
    const kind = commandName === 'PutItemCommand' ? 'Put' : 'Update';
    return {
      input: tagged(input, kind, token),
      ownEarlierAttempt: (error) => {
        if (error.name !== 'ConditionalCheckFailedException' || tokenOf(error.Item) !== token) return undefined;
        // Applied by the earlier attempt: the item as it is stands for what the write would have answered.
        return input.ReturnValues && input.ReturnValues !== 'NONE' ? { Attributes: unmarshall(error.Item) } : {};
      },
    };
  }
  // A transaction's own retries are the SDK's (its ClientRequestToken); a later attempt of an idempotent request is not.
  if (commandName === 'TransactWriteItemsCommand' && attempts.getStore()) {
    const tokens: (string | undefined)[] = [];
    const items = (input.TransactItems as Input[]).map((item) => {
      const kind = item.Put ? 'Put' : item.Update ? 'Update' : undefined;
      if (!kind || !item[kind].ConditionExpression) return tokens.push(undefined), item;
      const token = nextToken();
      tokens.push(token);
      return { [kind]: tagged(item[kind], kind, token) };
    });
    return {
      input: { ...input, TransactItems: items },
      // Cancelled only by conditions that met this transaction's own items, every item it puts among them: all of it
      // was applied before, at once. A Put whose condition held is an item the earlier attempt did not write, so this
      // is another transaction than that attempt's, and its failure stands.
      ownEarlierAttempt: (error) => {
        const reasons: Input[] = error.name === 'TransactionCanceledException' ? (error.CancellationReasons ?? []) : [];
        const metOwn = (index: number) => reasons[index]?.Code === 'ConditionalCheckFailed' && tokens[index] !== undefined && tokenOf(reasons[index]?.Item) === tokens[index];
        const failed = reasons.flatMap((reason, index) => (reason.Code === 'None' || reason.Code === undefined ? [] : [index]));
        const puts = items.flatMap((item, index) => (item.Put && tokens[index] !== undefined ? [index] : []));
        return failed.length > 0 && failed.every(metOwn) && puts.every(metOwn) ? {} : undefined;
      },
    };
  }
  return undefined;
}

/** Installs the recognition on the shared client: every conditional write of every store goes through it. */
export function recogniseOwnEarlierAttempts(client: DynamoDBDocumentClient): void {
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const command = tagCommand(String(context.commandName), args.input as Input);
      if (!command) return next(args);
      return next({ ...args, input: command.input }).catch((error: unknown) => {
        const output = command.ownEarlierAttempt(error as Input);
        if (!output) throw error;
        return { output: { $metadata: (error as { $metadata?: object }).$metadata ?? {}, ...output }, response: undefined };
      });
    },
    { step: 'initialize', name: 'recogniseOwnEarlierAttempts' },
  );
}
