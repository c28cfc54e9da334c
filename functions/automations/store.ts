import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { auditDeletion } from '#shared/audit/deletion';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { ApiError } from '#shared/errors';
import type { Page, PageRequest } from '#shared/pagination';
import { countedCollectionPage } from '#shared/store/change-log';
import { counterUpdate } from '#shared/store/counters';
import { memberKey, type Key } from '#shared/store/keys';
import { queryAll } from '#shared/store/query-page';
import { deleteIfStill, deleteItem, insertIfAbsent, transact, type TransactWrite } from '#shared/store/transact';
import { putIfVersion, retryOnStaleWrite, StaleWrite } from '#shared/store/versioned';
import { LIMITS, type TriggerName } from './catalog';
import {
  AUTOMATION_CHANGES,
  automationAudit,
  automationCounterNames,
  automationKeys,
  definitionOf,
  fromAutomationItem,
  fromVersionItem,
  toAutomationItem,
  toTriggerEntryItem,
  toVersionItem,
  type StoredAutomation,
  type VersionDefinition,
} from './entity';
import type { Automation } from './schema';

/** The organization's enabled automations on a trigger, with the version a run would follow and its filter. */
export interface TriggerEntry {
  automationId: string;
  version: number;
  filter: Readonly<Record<string, string | readonly string[]>>;
}

const get = async (key: Key) => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: true }))).Item;

/** Counts the automation in, on condition that the organization has fewer than the limit (50): otherwise 409 LIMIT_REACHED. */
function countedIn(organizationId: string): TransactWrite {
  const { Update } = counterUpdate(organizationId, automationCounterNames.automations, 1).item;
  const max = LIMITS.automationsPerOrganization;
  return {
    item: { Update: { ...Update!, ConditionExpression: 'attribute_not_exists(#count) OR #count < :max', ExpressionAttributeValues: { ...Update!.ExpressionAttributeValues, ':max': max } } },
    onConditionFailed: () => new ApiError(409, `An organization has at most ${max} automations; delete one first`, 'LIMIT_REACHED'),
  };
}

/** The trigger entry follows the automation: there while it is enabled, under its trigger, with the version written. */
function triggerEntryMoves(organizationId: string, current: Automation | undefined, next: Automation | undefined): TransactWrite[] {
  const before = current?.isEnabled ? automationKeys.triggerEntry(organizationId, current.trigger.event, current.id) : undefined;
  const after = next?.isEnabled ? toTriggerEntryItem(organizationId, next) : undefined;
  // One transaction may not write one item twice: an entry that stays is overwritten, not deleted and put.
  const removed = before && before.sk !== after?.sk ? [deleteItem(before)] : [];
  return [...removed, ...(after ? [{ item: { Put: { TableName: config.tableName, Item: after } } }] : [])];
}

/** The automation, its first version, its trigger entry and the organization's count, in one transaction. */
export async function insertAutomation(organizationId: string, stored: StoredAutomation): Promise<void> {
  await transact([
    insertIfAbsent(toAutomationItem(organizationId, stored)),
    insertIfAbsent(toVersionItem(organizationId, stored)),
    countedIn(organizationId),
    ...triggerEntryMoves(organizationId, undefined, stored.automation),
  ]);
}

export async function getAutomation(organizationId: string, automationId: string): Promise<StoredAutomation | undefined> {
  const item = await get(automationKeys.automation(organizationId, automationId));
  return item && fromAutomationItem(item);
}

/** The next version on condition of the one read, its immutable copy and its trigger entry moved, in one transaction. */
export async function writeAutomationVersion(organizationId: string, current: StoredAutomation, next: StoredAutomation): Promise<void> {
  await transact([
    putIfVersion(toAutomationItem(organizationId, next), current.automation.version),
    insertIfAbsent(toVersionItem(organizationId, next), () => new StaleWrite()),
    ...triggerEntryMoves(organizationId, current.automation, next.automation),
  ]);
}

/**
 * The automation, its trigger entry and its count, with its audit entry, on condition of the version read (so the
 * entry removed is the one it has). Its versions stay: runs under way read theirs until the stream stops them.
 */
export async function deleteAutomation(organizationId: string, automationId: string, notFound: () => Error): Promise<void> {
  await retryOnStaleWrite(async () => {
    const current = await getAutomation(organizationId, automationId);
    if (!current) throw notFound();
    await transact([
      deleteIfStill(automationKeys.automation(organizationId, automationId), ['version', current.automation.version], () => new StaleWrite()),
      ...triggerEntryMoves(organizationId, current.automation, undefined),
      counterUpdate(organizationId, automationCounterNames.automations, -1),
      ...auditDeletion(organizationId, automationAudit, automationId),
    ]);
  });
}

/** A page of the organization's automations, newest first, or those changed since `updatedSince`. */
export async function listAutomationsPage(organizationId: string, request: PageRequest): Promise<Page<Automation>> {
  const collection = { organizationId, collection: automationKeys.automations(organizationId), counter: automationCounterNames.automations, changes: AUTOMATION_CHANGES };
  return countedCollectionPage(request, collection, (item) => fromAutomationItem(item).automation);
}

/** The organization's enabled automations on a trigger: one Query of their entries. */
export async function enabledAutomationsFor(organizationId: string, trigger: TriggerName): Promise<TriggerEntry[]> {
  const items = await queryAll(automationKeys.triggerEntries(organizationId, trigger));
  return items.map((item) => ({ automationId: item.automationId as string, version: Number(item.version), filter: item.filter as TriggerEntry['filter'] }));
}

/**
 * One version of an automation as a run follows it (the current one when `version` is absent), with the secret its
 * webhook steps sign with: one GetItem; undefined when absent.
 */
export async function readAutomationDefinition(organizationId: string, automationId: string, version?: number): Promise<VersionDefinition | undefined> {
  if (version !== undefined) {
    const item = await get(automationKeys.automationVersion(organizationId, automationId, version));
    return item && fromVersionItem(item);
  }
  const current = await getAutomation(organizationId, automationId);
  return current && definitionOf(current);
}

/** A member of the organization as a `notify_member` step needs it: absent (undefined), or whether it has a phone to text. */
export async function memberReach(organizationId: string, memberId: number): Promise<{ hasPhone: boolean } | undefined> {
  const item = await get(memberKey(organizationId, memberId));
  return item && { hasPhone: typeof item.phone === 'string' && item.phone !== '' };
}
