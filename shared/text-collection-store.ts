import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from './config';
import { dynamo } from './dynamo';
import { ConflictError, NotFoundError } from './errors';
import { apiHandler } from './http/api-handler';
import { auditDeletion } from './audit/deletion';
import { now } from './ids';
import { pageEnvelope, type Page, type PageRequest } from './pagination';
import { counterUpdate } from './store/counters';
import { countedPage } from './store/query-page';
import { changeLogKey, listOrChanges } from './store/change-log';
import { reserveIds } from './store/sequences';
import { normalizeName } from './store/keys';
import { deleteItem, insertIfAbsent, transact, type TransactWrite } from './store/transact';
import { setFields, updateExistingItem } from './store/update-fields';
import { moveUniqueItem, retryOnStaleWrite, StaleWrite } from './store/versioned';
import type { TextCollection, TextFields, TextRecord } from './text-collection';

/** A text collection's access patterns: create with its counter, a counted page, one read, a blind update, delete with its counter. */
export function textCollectionStore<Text extends string>(collection: TextCollection<Text>) {
  const { entity, label, keys } = collection.options;
  const notFound = () => new NotFoundError(`${label} not found`);
  const { unique } = collection.options;
  const taken = (value: string) => () => new ConflictError(unique!.taken(value));
  /** The record's unique text claimed for it; nothing for a collection without one. */
  const claim = (organizationId: string, record: TextRecord<Text>): TransactWrite[] =>
    unique ? [insertIfAbsent(collection.toClaimItem(organizationId, record)!, taken(record[unique.field]))] : [];
  /** The item still holds the unique text read, so the claim moved or freed is the one it had. */
  const stillHolds = (record: TextRecord<Text>) => ({ expression: '#unique = :read', names: { '#unique': unique!.field }, values: { ':read': record[unique!.field] } });
  const get = async (organizationId: string, id: number): Promise<TextRecord<Text>> => {
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.item(organizationId, id), ConsistentRead: true }));
    if (!Item) throw notFound();
    return collection.fromItem(Item);
  };
  return {
    /** The record, its unique text's claim (taken → 409, nothing written) and the collection's counter in one transaction. */
    async create(organizationId: string, body: TextFields<Text>, at = now()): Promise<TextRecord<Text>> {
      const record = { id: await reserveIds(organizationId, entity), ...body, updatedAt: at } as TextRecord<Text>;
      await transact([...claim(organizationId, record), insertIfAbsent(collection.toItem(organizationId, record, at)), counterUpdate(organizationId, keys.counter, 1)]);
      return record;
    },
    async listPage(organizationId: string, request: PageRequest): Promise<Page<TextRecord<Text>>> {
      const { page, limit } = request;
      const log = { partition: changeLogKey(organizationId, keys.counter).gsi6pk };
      const { items, totalCount, nextCursor } = await listOrChanges(request, log, (at) => countedPage(keys.collection(organizationId), organizationId, keys.counter, at));
      return { items: items.map(collection.fromItem), totalCount: totalCount ?? 0, page, limit, nextCursor };
    },
    /** One strongly consistent GetItem: a record is readable right after its create. */
    get,
    /**
     * One conditional update: no rule spans fields, so nothing needs reading first, unless the unique text changes:
     * then the record is read, and its claim moves (taken → 409) on condition that it still holds the text read.
     */
    async update(organizationId: string, id: number, changes: Partial<TextFields<Text>>): Promise<TextRecord<Text>> {
      const text = unique && changes[unique.field];
      if (!unique || text === undefined) return collection.fromItem(await updateExistingItem(keys.item(organizationId, id), { ...changes, updatedAt: now() }, notFound));
      return retryOnStaleWrite(async () => {
        const current = await get(organizationId, id);
        const next = { ...current, ...changes, updatedAt: now() };
        const moved = normalizeName(text) === normalizeName(current[unique.field]) ? [] : moveUniqueItem(unique.claim(organizationId, current[unique.field]), collection.toClaimItem(organizationId, next)!, taken(text));
        await transact([setFields(keys.item(organizationId, id), { ...changes, updatedAt: next.updatedAt }, { condition: stillHolds(current), onConditionFailed: () => new StaleWrite() }), ...moved]);
        return next;
      });
    },
    /** The record, its unique text's claim (so another record may take the text) and the count go together. */
    async remove(organizationId: string, id: number): Promise<void> {
      const others = [counterUpdate(organizationId, keys.counter, -1), ...auditDeletion(organizationId, collection.audited, id)];
      if (!unique) return void (await transact([deleteItem(keys.item(organizationId, id), notFound), ...others]));
      await retryOnStaleWrite(async () => {
        const current = await get(organizationId, id);
        const { expression, names, values } = stillHolds(current);
        await transact([
          { item: { Delete: { TableName: config.tableName, Key: keys.item(organizationId, id), ConditionExpression: expression, ExpressionAttributeNames: names, ExpressionAttributeValues: values } }, onConditionFailed: () => new StaleWrite() },
          deleteItem(unique.claim(organizationId, current[unique.field])),
          ...others,
        ]);
      });
    },
  };
}

/** The Lambda handler of one of a text collection's routes. */
export function textCollectionHandler<Text extends string>(collection: TextCollection<Text>, verb: 'list' | 'create' | 'get' | 'update' | 'delete') {
  const store = textCollectionStore(collection);
  const { singular, plural } = collection.options;
  const route = collection.route;
  const idOf = (params: { [key: string]: number }) => params[`${singular}Id`]!;
  switch (verb) {
    case 'list':
      return apiHandler(route.list, async ({ query, organizationId }) => pageEnvelope(plural, await store.listPage(organizationId, query)) as never);
    case 'create':
      return apiHandler(route.create, async ({ body, organizationId }) => ({ [singular]: await store.create(organizationId, body as TextFields<Text>) }));
    case 'get':
      return apiHandler(route.get, async ({ path, organizationId }) => ({ [singular]: await store.get(organizationId, idOf(path)) }));
    case 'update':
      return apiHandler(route.update, async ({ path, body, organizationId }) => ({ [singular]: await store.update(organizationId, idOf(path), body) }));
    case 'delete':
      return apiHandler(route.delete, async ({ path, organizationId }) => {
        await store.remove(organizationId, idOf(path));
        return { success: true as const, id: idOf(path) };
      });
  }
}
