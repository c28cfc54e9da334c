import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { ConflictError, NotFoundError } from '../errors';
import { apiHandler } from '../http/api-handler';
import { auditDeletion } from '../audit/deletion';
import { now } from '../ids';
import { pageEnvelope, type Page, type PageRequest } from '../pagination';
import { counterUpdate } from '../store/counters';
import { countedPage } from '../store/query-page';
import { changeLogKey, listOrChanges } from '../store/change-log';
import { reserveIds } from '../store/sequences';
import { normalizeName } from '../store/keys';
import { deleteItem, insertIfAbsent, transact, type TransactWrite } from '../store/transact';
import { setFields, updateExistingItem } from '../store/update-fields';
import { moveUniqueItem, retryOnStaleWrite, StaleWrite } from '../store/versioned';
import type { CrudRecord, CrudResource, CrudVerb } from './define';
import type { FieldTable, FieldValues } from './fields';

/** Whose records: an organization's id, or for records under a parent (a company's notes), the organization and the parent's id. */
export type CrudScope = string | { organizationId: string; parentId: string };

/** What a resource's rules add to its store's steps; each verb's writes need the actions its `ruleActions` declares. */
export interface CrudRules<R> {
  /** Writes the create's transaction adds (a check that the author exists). */
  createWrites?: (organizationId: string, record: R) => TransactWrite[];
}

/**
 * A CRUD resource's access patterns, the steps shared/crud/plan.ts lists: create with its counter, a counted page,
 * one read, a blind update (a read first only to move a unique text's claim), delete with its counter.
 */
export function crudStore<F extends FieldTable>(resource: CrudResource<F>, rules: CrudRules<CrudRecord<F>> = {}) {
  type Record = CrudRecord<F>;
  const { entity, label, keys, parent, unique } = resource.options;
  if (Boolean(rules.createWrites) !== Boolean(resource.options.ruleActions?.create)) throw new Error(`${entity}: a create rule's writes and its ruleActions.create go together`);
  const notFound = () => new NotFoundError(`${label} not found`);
  const scopeOf = (scope: CrudScope) => (typeof scope === 'string' ? { organizationId: scope, parentId: undefined } : scope);
  const ids = (scope: CrudScope) => (scopeOf(scope).parentId === undefined ? [] : [scopeOf(scope).parentId]) as never[];
  const itemKey = (scope: CrudScope, id: number) => keys.item(scopeOf(scope).organizationId, ...ids(scope), id as never);
  /** The collection's counter step; under a parent, on condition that the parent is there. */
  const count = (scope: CrudScope, by: number) => counterUpdate(scopeOf(scope).organizationId, resource.counterOf(scopeOf(scope).parentId), by, parent?.notFound);
  const taken = (value: string) => () => new ConflictError(unique!.taken(value));
  const text = (record: Record) => record[unique!.field] as string;
  /** The record's unique text claimed for it; nothing for a resource without one. */
  const claim = (organizationId: string, record: Record): TransactWrite[] => (unique ? [insertIfAbsent(resource.toClaimItem(organizationId, record)!, taken(text(record)))] : []);
  /** The item still holds the unique text read, so the claim moved or freed is the one it had. */
  const stillHolds = (record: Record) => ({ expression: '#unique = :read', names: { '#unique': unique!.field }, values: { ':read': text(record) } });
  const get = async (scope: CrudScope, id: number): Promise<Record> => {
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: itemKey(scope, id), ConsistentRead: true }));
    if (!Item) throw notFound();
    return resource.fromItem(Item);
  };
  return {
    /** The record, its unique text's claim (taken → 409, nothing written), the counter and the rules' writes in one transaction. */
    async create(scope: CrudScope, body: Partial<FieldValues<F>>, at = now()): Promise<Record> {
      const { organizationId, parentId } = scopeOf(scope);
      const fields = Object.keys(resource.options.fields).map((name) => [name, parent && name === parent.param ? parentId : body[name]]);
      const record = { id: await reserveIds(organizationId, resource.options.sequence ?? entity), ...Object.fromEntries(fields), ...(resource.options.showsCreatedAt && { createdAt: at }), updatedAt: at } as Record;
      await transact([...claim(organizationId, record), insertIfAbsent(resource.toItem(organizationId, record, at)), count(scope, 1), ...(rules.createWrites?.(organizationId, record) ?? [])]);
      return record;
    },
    /** Under a parent, a counter that is not there (totalCount undefined) is a parent that is not. */
    async listPage(scope: CrudScope, request: PageRequest): Promise<Page<Record>> {
      const { organizationId, parentId } = scopeOf(scope);
      const { page, limit } = request;
      const counter = resource.counterOf(parentId);
      const log = { partition: changeLogKey(organizationId, counter).gsi6pk, ...(parent && { ownerCounter: { organizationId, name: counter } }) };
      const { items, totalCount, nextCursor } = await listOrChanges(request, log, (at) => countedPage(keys.collection(organizationId, ...ids(scope)), organizationId, counter, at));
      if (parent && totalCount === undefined) throw parent.notFound();
      return { items: items.map(resource.fromItem), totalCount: totalCount ?? 0, page, limit, nextCursor };
    },
    get,
    /** One conditional update, unless the unique text changes: then the record is read, and its claim moves on condition that it still holds the text read. */
    async update(scope: CrudScope, id: number, changes: Partial<FieldValues<F>>): Promise<Record> {
      const value = unique && (changes[unique.field] as string | undefined);
      if (!unique || value === undefined) return resource.fromItem(await updateExistingItem(itemKey(scope, id), { ...changes, updatedAt: now() }, notFound));
      const { organizationId } = scopeOf(scope);
      return retryOnStaleWrite(async () => {
        const current = await get(scope, id);
        const next = { ...current, ...changes, updatedAt: now() };
        const moved = normalizeName(value) === normalizeName(text(current)) ? [] : moveUniqueItem(unique.claim(organizationId, text(current)), resource.toClaimItem(organizationId, next)!, taken(value));
        await transact([setFields(itemKey(scope, id), { ...changes, updatedAt: next.updatedAt }, { condition: stillHolds(current), onConditionFailed: () => new StaleWrite() }), ...moved]);
        return next;
      });
    },
    /** The record, its unique text's claim (so another record may take the text), the count and the audit entry go together. */
    async remove(scope: CrudScope, id: number): Promise<void> {
      const { organizationId } = scopeOf(scope);
      const others = [count(scope, -1), ...auditDeletion(organizationId, resource.audited, id)];
      if (!unique) return void (await transact([deleteItem(itemKey(scope, id), notFound), ...others]));
      await retryOnStaleWrite(async () => {
        const current = await get(scope, id);
        const { expression, names, values } = stillHolds(current);
        const remove = { Delete: { TableName: config.tableName, Key: itemKey(scope, id), ConditionExpression: expression, ExpressionAttributeNames: names, ExpressionAttributeValues: values } };
        await transact([{ item: remove, onConditionFailed: () => new StaleWrite() }, deleteItem(unique.claim(organizationId, text(current))), ...others]);
      });
    },
  };
}

/** The Lambda handler of one of a CRUD resource's routes, named by the verb. */
export function crudHandler<F extends FieldTable>(resource: CrudResource<F>, verb: CrudVerb, rules?: CrudRules<CrudRecord<F>>) {
  const store = crudStore(resource, rules);
  const { singular, plural, parent } = resource.options;
  const { route } = resource;
  type Path = { [key: string]: string | number };
  const scope = (organizationId: string, path: Path = {}): CrudScope => (parent ? { organizationId, parentId: path[parent.param] as string } : organizationId);
  const idOf = (path: Path) => path[`${singular}Id`] as number;
  switch (verb) {
    case 'list':
      return apiHandler(route.list, async ({ path, query, organizationId }) => pageEnvelope(plural, await store.listPage(scope(organizationId, path as Path), query)) as never);
    case 'create':
      return apiHandler(route.create, async ({ path, body, organizationId }) => ({ [singular]: await store.create(scope(organizationId, path as Path), body as Partial<FieldValues<F>>) }));
    case 'get':
      return apiHandler(route.get, async ({ path, organizationId }) => ({ [singular]: await store.get(scope(organizationId, path), idOf(path)) }));
    case 'update':
      return apiHandler(route.update, async ({ path, body, organizationId }) => ({ [singular]: await store.update(scope(organizationId, path), idOf(path), body as Partial<FieldValues<F>>) }));
    case 'delete':
      return apiHandler(route.delete, async ({ path, organizationId }) => {
        await store.remove(scope(organizationId, path), idOf(path));
        return { success: true as const, id: idOf(path) };
      });
  }
}
