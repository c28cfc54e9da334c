import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { ConflictError, NotFoundError } from '../errors';
import { auditDeletion } from '../audit/deletion';
import { now } from '../ids';
import type { Page, PageRequest } from '../pagination';
import { defined } from '../store/changes';
import { counterUpdate } from '../store/counters';
import { countedCollectionPage } from '../store/change-log';
import { reserveIds } from '../store/sequences';
import { normalizeName, type Key } from '../store/keys';
import { deleteIfStill, deleteItem, insertIfAbsent, transact, type TransactWrite } from '../store/transact';
import { setFields, updateExistingItem, type Condition } from '../store/update-fields';
import { moveUniqueItem, putIfVersion, retryOnStaleWrite, StaleWrite, writeVersion } from '../store/versioned';
import type { CrudRecord, CrudResource, CrudVerb } from './define';
import type { FieldTable, FieldValues } from './fields';

/** Whose records: an organization's id, or for records under a parent (a company's notes), the organization and the parent's id. */
export type CrudScope = string | { organizationId: string; parentId: string };

/**
 * What a resource's rules add to its store's steps. Each verb a rule runs in must declare the DynamoDB actions it
 * adds (`ruleActions`, even none), or the store refuses it at load.
 */
export interface CrudRules<R, Q = never> {
  /** Checks and completes a record before it is written (create; a versioned update, on the merged record): throws a 400, or answers the record to write. */
  check?: (organizationId: string, next: R, input: Partial<R>, current?: R) => Promise<R>;
  /** Writes that go in the record's transaction: on create (`current` absent), and for a versioned record, on update and on delete (`next` absent). */
  writes?: (organizationId: string, next: R | undefined, current: R | undefined) => TransactWrite[];
  /** The list, when it filters beyond paging. */
  list?: (organizationId: string, query: Q) => Promise<Page<R>>;
}

/** The verbs each rule runs in. */
const RULE_VERBS = { check: ['create', 'update'], writes: ['create', 'update', 'delete'], list: ['list'] } as const;

type Scoped = { organizationId: string; parentId?: string };
const scopeOf = (scope: CrudScope): Scoped => (typeof scope === 'string' ? { organizationId: scope } : scope);

/** The pieces every verb uses: keys under the scope, the counter step, the unique text's claim and its condition. */
function storeParts<F extends FieldTable>(resource: CrudResource<F>, rules: CrudRules<CrudRecord<F>, unknown>) {
  type Record = CrudRecord<F>;
  const { entity, label, keys, parent, unique, versioned, ruleActions } = resource.options;
  for (const [rule, verbs] of Object.entries(RULE_VERBS) as [keyof CrudRules<unknown>, readonly CrudVerb[]][]) {
    const undeclared = rules[rule] ? verbs.filter((verb) => (verb === 'create' || versioned || rule !== 'writes') && !ruleActions?.[verb]) : [];
    if (undeclared.length) throw new Error(`${entity}: its ${rule} rule runs in ${undeclared.join(', ')}, which declare no ruleActions`);
  }
  // Only a versioned update reads the record, so only there can a check see the merged record.
  if (rules.check && !versioned) throw new Error(`${entity}: a check rule needs a versioned record`);
  const ids = ({ parentId }: Scoped) => (parentId === undefined ? [] : [parentId]) as never[];
  const text = (record: Record) => record[unique!.field] as string;
  const taken = (value: string) => () => new ConflictError(unique!.taken(value));
  const notFound = () => new NotFoundError(`${label} not found`);
  const itemKey = (scope: Scoped, id: number): Key => keys.item(scope.organizationId, ...ids(scope), id as never);
  return {
    resource,
    rules,
    entity,
    notFound,
    itemKey,
    collection: (scope: Scoped) => keys.collection(scope.organizationId, ...ids(scope)),
    /** The collection's counter step, if it has one; under a parent, on condition that the parent is there. */
    count: (scope: Scoped, by: number): TransactWrite[] => (keys.counter === undefined ? [] : [counterUpdate(scope.organizationId, resource.counterOf(scope.parentId)!, by, parent?.notFound)]),
    /** The record's unique text claimed for it; nothing for a resource without one. */
    claim: (organizationId: string, record: Record): TransactWrite[] => (unique ? [insertIfAbsent(resource.toClaimItem(organizationId, record)!, taken(text(record)))] : []),
    /** The claim moved when the unique text changes (ignoring case and spacing). */
    moveClaim: (organizationId: string, current: Record, next: Record): TransactWrite[] =>
      !unique || normalizeName(text(next)) === normalizeName(text(current)) ? [] : moveUniqueItem(unique.claim(organizationId, text(current)), resource.toClaimItem(organizationId, next)!, taken(text(next))),
    freeClaim: (organizationId: string, current: Record): TransactWrite[] => (unique ? [deleteItem(unique.claim(organizationId, text(current)))] : []),
    /** What the item must still hold for a write of what was read: its version, or the unique text read. */
    stillAsRead: (current: { value: Record; version: number }): Condition =>
      versioned
        ? { expression: '#version = :version', names: { '#version': 'version' }, values: { ':version': current.version } }
        : { expression: '#unique = :read', names: { '#unique': unique!.field }, values: { ':read': text(current.value) } },
    /** One strongly consistent read, with the version a write is conditioned on. */
    async read(scope: Scoped, id: number): Promise<{ value: Record; version: number }> {
      const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: itemKey(scope, id), ConsistentRead: true }));
      if (!Item) throw notFound();
      return { value: resource.fromItem(Item), version: Number(Item.version) };
    },
  };
}
type Parts<F extends FieldTable> = ReturnType<typeof storeParts<F>>;

/** The record checked, then its id reserved (a refused request reserves none), then one transaction: record, claim, counter, the rules' writes. */
async function create<F extends FieldTable>(parts: Parts<F>, scope: Scoped, body: Partial<FieldValues<F>>, at: string): Promise<CrudRecord<F>> {
  const { resource, rules } = parts;
  const { parent, showsCreatedAt, versioned, sequence } = resource.options;
  const fields = Object.keys(resource.options.fields).map((name) => [name, parent && name === parent.param ? scope.parentId : body[name]]);
  const draft = { id: 0, ...resource.defaults, ...defined(Object.fromEntries(fields)), ...(showsCreatedAt && { createdAt: at }), updatedAt: at } as CrudRecord<F>;
  const { id: _, ...checked } = rules.check ? await rules.check(scope.organizationId, draft, body as never) : draft;
  const record = { id: await reserveIds(scope.organizationId, sequence ?? parts.entity), ...checked } as CrudRecord<F>;
  const item = resource.toItem(scope.organizationId, record, versioned ? { version: 1 } : { at });
  await transact([...parts.claim(scope.organizationId, record), insertIfAbsent(item), ...parts.count(scope, 1), ...(rules.writes?.(scope.organizationId, record, undefined) ?? [])]);
  return record;
}

/**
 * A versioned record is read, merged, checked and put whole on condition of its version, its claim and the rules'
 * writes beside it; otherwise one conditional update, unless the unique text changes: then the record is read, and
 * its claim moves on condition that it still holds the text read. A lost race is read again.
 */
async function update<F extends FieldTable>(parts: Parts<F>, scope: Scoped, id: number, changes: Partial<FieldValues<F>>): Promise<CrudRecord<F>> {
  const { resource, rules } = parts;
  const { unique, versioned } = resource.options;
  const key = parts.itemKey(scope, id);
  if (!versioned && (!unique || changes[unique.field] === undefined)) return resource.fromItem(await updateExistingItem(key, { ...changes, updatedAt: now() }, parts.notFound));
  const { organizationId } = scope;
  return retryOnStaleWrite(async () => {
    const current = await parts.read(scope, id);
    const merged = { ...current.value, ...defined(changes), updatedAt: now() } as CrudRecord<F>;
    const next = rules.check ? await rules.check(organizationId, merged, changes as never, current.value) : merged;
    const others = [...parts.moveClaim(organizationId, current.value, next), ...(rules.writes?.(organizationId, next, current.value) ?? [])];
    if (versioned) await writeVersion(putIfVersion(resource.toItem(organizationId, next, { version: current.version + 1 }), current.version), others);
    else await transact([setFields(key, { ...changes, updatedAt: next.updatedAt }, { condition: parts.stillAsRead(current), onConditionFailed: () => new StaleWrite() }), ...others]);
    return next;
  });
}

/** The record, its claim (so another record may take the text at once), the rules' writes, the count and the audit entry go together. */
async function remove<F extends FieldTable>(parts: Parts<F>, scope: Scoped, id: number): Promise<void> {
  const { resource, rules } = parts;
  const { organizationId } = scope;
  const others = [...parts.count(scope, -1), ...auditDeletion(organizationId, resource.audited, id)];
  const key = parts.itemKey(scope, id);
  if (!resource.options.unique && !resource.options.versioned) return void (await transact([deleteItem(key, parts.notFound), ...others]));
  await retryOnStaleWrite(async () => {
    const current = await parts.read(scope, id);
    await transact([deleteIfStill(key, parts.stillAsRead(current), () => new StaleWrite()), ...parts.freeClaim(organizationId, current.value), ...(rules.writes?.(organizationId, undefined, current.value) ?? []), ...others]);
  });
}

/** A counted page, or the changes since `updatedSince`; under a parent, a counter that is not there is a parent that is not. */
async function listPage<F extends FieldTable>(parts: Parts<F>, scope: Scoped, request: PageRequest): Promise<Page<CrudRecord<F>>> {
  const { resource } = parts;
  const { parent } = resource.options;
  const { organizationId, parentId } = scope;
  const counter = resource.counterOf(parentId)!;
  const owner = parent && { ownerCounter: { organizationId, name: counter }, ownerNotFound: parent.notFound };
  return countedCollectionPage(request, { organizationId, collection: parts.collection(scope), counter, changes: resource.changeLogOf(parentId), ...owner }, resource.fromItem);
}

/**
 * A CRUD resource's access patterns, the steps shared/crud/plan.ts lists for its routes' grants: create with its
 * counter, a counted page, one read, an update, delete with its counter; its rules add checks and writes.
 */
export function crudStore<F extends FieldTable, Q = PageRequest>(resource: CrudResource<F>, rules: CrudRules<CrudRecord<F>, Q> = {}) {
  const parts = storeParts(resource, rules as CrudRules<CrudRecord<F>, unknown>);
  return {
    create: (scope: CrudScope, body: Partial<FieldValues<F>>, at = now()) => create(parts, scopeOf(scope), body, at),
    listPage: (scope: CrudScope, query: Q) => (rules.list ? rules.list(scopeOf(scope).organizationId, query) : listPage(parts, scopeOf(scope), query as PageRequest)),
    get: async (scope: CrudScope, id: number) => (await parts.read(scopeOf(scope), id)).value,
    /** The record with the version a write of it is conditioned on. */
    read: (scope: CrudScope, id: number) => parts.read(scopeOf(scope), id),
    update: (scope: CrudScope, id: number, changes: Partial<FieldValues<F>>) => update(parts, scopeOf(scope), id, changes),
    remove: (scope: CrudScope, id: number) => remove(parts, scopeOf(scope), id),
  };
}
