import { AsyncLocalStorage } from 'node:async_hooks';
import { dynamo } from '../dynamo';
import { organizationPartition } from '../store/keys';
import { AUDIT_ENTRY_ENTITY, type AuditVia } from './entry';

/** Who is writing: the request (or run of the CLI, or provider report) every write in its scope is attributed to. */
export interface Writer {
  /** The API key of the request; null for inbound posts, provider reports and the admin CLI. */
  keyId: string | null;
  keyName: string | null;
  requestId: string;
  /** The HTTP method and path (no query) of the request; null when no HTTP request wrote (the CLI, a provider's report). */
  method: string | null;
  path: string | null;
  via: AuditVia;
  /** The OAuth client the MCP server acted for (`via: mcp` with an OAuth token); absent or null otherwise. */
  clientId?: string | null;
  /** The member whose session made the request (`via: session`), or whom its key or grant acts for; absent or null otherwise. */
  memberId?: number | null;
}

/** What each Put and Update of a writer carries on its item: the writer, when, and which of its writes it was. */
export interface WriterStamp extends Writer {
  at: string;
  /** Counts the writer's commands, so two writes of one request to one item carry different stamps. */
  write: number;
}

/** The attribute the stamp is kept in, on the items a writer puts or updates. */
export const WRITER_ATTRIBUTE = 'writtenBy';

const writers = new AsyncLocalStorage<{ writer: Writer; writes: number }>();

/**
 * Runs `work` as `writer`: every Put and Update it sends through the shared DynamoDB client stamps its items with
 * the writer (below), and the deletes of records write their audit entries with it (shared/audit/deletion.ts).
 * AsyncLocalStorage, because the local server runs requests side by side in one process.
 */
export function asWriter<T>(writer: Writer, work: () => Promise<T>): Promise<T> {
  return writers.run({ writer, writes: 0 }, work);
}

/** The writer of the work running now, if any: stream consumers and scheduled jobs write as nobody. */
export const currentWriter = (): Writer | undefined => writers.getStore()?.writer;

/** A provider's report or an inbound message without an HTTP request of ours: its own id names it. */
export const inboundWriter = (requestId: string): Writer => ({ keyId: null, keyName: null, requestId, method: null, path: null, via: 'inbound' });

type Input = Record<string, any>;

const NAME = '#auditWriter';
const VALUE = ':auditWriter';

/**
 * Only an organization's own partitions take a stamp: an item outside them (an SMS number's claim) holds the
 * organization's id and nothing else of it, and no record lives there.
 */
const ORGANIZATION_PREFIX = organizationPartition('');
const inOrganization = (key: Input | undefined) => typeof key?.pk === 'string' && key.pk.startsWith(ORGANIZATION_PREFIX);

/**
 * Only records take the stamp: a Put of an item with a `createdAt` (every record has one) and an Update that SETs
 * attributes. Counters and sequences (ADD only), uniqueness guards, contact claims and name items carry none: nothing
 * audits them, and 200 bytes more on each would cost write units in every transaction that moves them.
 */
const isRecord = (item: Input | undefined) => item !== undefined && 'createdAt' in item && item.entity !== AUDIT_ENTRY_ENTITY;

const stampItem = (item: Input, stamp: WriterStamp): Input => (isRecord(item) && inOrganization(item) ? { ...item, [WRITER_ATTRIBUTE]: stamp } : item);

/** An Update that SETs, with the stamp added to its SET clause. */
function stampUpdate(update: Input, stamp: WriterStamp): Input {
  const expression: string = update.UpdateExpression ?? '';
  const set = /(^|\s)SET\s/i.exec(expression);
  if (!set || !inOrganization(update.Key)) return update;
  const at = set.index + set[0].length;
  return {
    ...update,
    UpdateExpression: `${expression.slice(0, at)}${NAME} = ${VALUE}, ${expression.slice(at)}`,
    ExpressionAttributeNames: { ...update.ExpressionAttributeNames, [NAME]: WRITER_ATTRIBUTE },
    ExpressionAttributeValues: { ...update.ExpressionAttributeValues, [VALUE]: stamp },
  };
}

const WRITES = new Set(['PutItemCommand', 'UpdateItemCommand', 'TransactWriteItemsCommand', 'BatchWriteItemCommand']);

/**
 * A command's input with the writer's stamp on every item it puts or updates (a new input: a retried transaction
 * sends its items again, each time stamped afresh). Deletes are left as they are: a deleted item keeps no stamp, so
 * the delete of a record writes its audit entry itself, in its transaction.
 */
export function stamped(commandName: string, input: Input): Input {
  const running = writers.getStore();
  if (!running || !WRITES.has(commandName)) return input;
  const stamp: WriterStamp = { ...running.writer, at: new Date().toISOString(), write: ++running.writes };
  switch (commandName) {
    case 'PutItemCommand':
      return { ...input, Item: stampItem(input.Item, stamp) };
    case 'UpdateItemCommand':
      return stampUpdate(input, stamp);
    case 'TransactWriteItemsCommand':
      return {
        ...input,
        TransactItems: (input.TransactItems as Input[]).map((item) =>
          item.Put ? { ...item, Put: { ...item.Put, Item: stampItem(item.Put.Item, stamp) } } : item.Update ? { ...item, Update: stampUpdate(item.Update, stamp) } : item,
        ),
      };
    case 'BatchWriteItemCommand':
      return {
        ...input,
        RequestItems: Object.fromEntries(
          Object.entries(input.RequestItems as Record<string, Input[]>).map(([table, requests]) => [
            table,
            requests.map((request) => (request.PutRequest ? { ...request, PutRequest: { ...request.PutRequest, Item: stampItem(request.PutRequest.Item, stamp) } } : request)),
          ]),
        ),
      };
    default:
      return input;
  }
}

// Installed with this module: a writer can only be set through it, so every function that has one stamps.
dynamo.middlewareStack.add((next, context) => async (args) => next({ ...args, input: stamped(String(context.commandName), args.input as Input) }), {
  step: 'initialize',
  name: 'stampWriter',
});

/** The stamp an item carries, if any. */
export const stampOf = (item: Record<string, unknown> | undefined): WriterStamp | undefined => item?.[WRITER_ATTRIBUTE] as WriterStamp | undefined;

/** Whether two stamps are one write's: an Update by no writer leaves the item's last stamp as it was. */
export const sameWrite = (a: WriterStamp | undefined, b: WriterStamp | undefined) => a !== undefined && b !== undefined && a.requestId === b.requestId && a.write === b.write && a.at === b.at;
