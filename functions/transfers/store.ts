import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../shared/config';
import { dynamo } from '../../shared/dynamo';
import { filterSignature } from '../../shared/filters';
import { normalizeName } from '../../shared/store/keys';
import { linkScenario, unlinkScenario, type ScenarioReferrer } from '../services/scenario-links';
import { fromTransferItem, toTransferItem, toTransferLabelItem, TRANSFER_CHANGES, transferAudit, transferKeys, type VersionedTransfer } from './entity';
import { ConflictError, ValidationError } from '../../shared/errors';
import type { Page } from '../../shared/pagination';
import type { Transfer, TransferListQuery } from './schema';
import { filteredPage } from '../../shared/store/collection-page';
import { changeLogKey, listOrChanges } from '../../shared/store/change-log';
import { deleteItem, insertIfAbsent, transact, type TransactWrite } from '../../shared/store/transact';
import { moveUniqueItem, putIfVersion, StaleWrite, writeVersion } from '../../shared/store/versioned';
import { auditDeletion } from '../../shared/audit/deletion';

export const TRANSFER_SEQUENCE = 'TRANSFER';

const labelTaken = (label: string) => () => new ConflictError(`A transfer rule labelled "${label.trim()}" already exists`);

/** How the transfer names its scenario, so the scenario's delete can clear it (functions/services/scenario-links.ts). */
const referrer = (organizationId: string, transferId: number): ScenarioReferrer => ({ key: transferKeys.transfer(organizationId, transferId), attribute: 'scenarioId' });

/** The linked scenario must exist in this organization: linked inside the write's transaction, 400 when absent. */
function scenarioLink(organizationId: string, transferId: number, scenarioId: number | null): TransactWrite[] {
  if (scenarioId === null) return [];
  const missing = () => new ValidationError([{ path: 'scenarioId', message: `scenarioId ${scenarioId} does not match any scenario of the organization` }]);
  return linkScenario(organizationId, scenarioId, referrer(organizationId, transferId), missing);
}

const scenarioUnlink = (organizationId: string, transferId: number, scenarioId: number | null): TransactWrite[] =>
  scenarioId === null ? [] : unlinkScenario(organizationId, scenarioId, referrer(organizationId, transferId));

/** The transfer, its label item and the check of its scenario, in one transaction: a taken label → 409. */
export async function insertTransfer(organizationId: string, transfer: Transfer): Promise<void> {
  await transact([
    insertIfAbsent(toTransferItem(organizationId, { value: transfer, version: 1 })),
    insertIfAbsent(toTransferLabelItem(organizationId, transfer), labelTaken(transfer.label)),
    ...scenarioLink(organizationId, transfer.id, transfer.scenarioId),
  ]);
}

export async function getTransfer(organizationId: string, transferId: number): Promise<VersionedTransfer | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: transferKeys.transfer(organizationId, transferId), ConsistentRead: true }));
  return Item && fromTransferItem(Item);
}

/**
 * One conditional write on the version read. A new label moves the label item, and a new scenarioId
 * is checked, in the same transaction; otherwise it is a single Put.
 */
export async function writeTransferVersion(organizationId: string, current: VersionedTransfer, next: VersionedTransfer): Promise<void> {
  const relabelled = normalizeName(current.value.label) !== normalizeName(next.value.label);
  await writeVersion(putIfVersion(toTransferItem(organizationId, next), current.version), [
    ...(relabelled ? moveUniqueItem(transferKeys.transferLabel(organizationId, current.value.label), toTransferLabelItem(organizationId, next.value), labelTaken(next.value.label)) : []),
    ...(next.value.scenarioId !== current.value.scenarioId
      ? [...scenarioUnlink(organizationId, current.value.id, current.value.scenarioId), ...scenarioLink(organizationId, next.value.id, next.value.scenarioId)]
      : []),
  ]);
}

/**
 * The transfer on condition of the version read (else StaleWrite, read again), its label and its link to a
 * scenario, in one transaction: the label is free again at once.
 */
export async function deleteTransferVersion(organizationId: string, current: VersionedTransfer): Promise<void> {
  const transfer = current.value;
  await transact([
    {
      item: {
        Delete: {
          TableName: config.tableName,
          Key: transferKeys.transfer(organizationId, transfer.id),
          ConditionExpression: '#version = :version',
          ExpressionAttributeNames: { '#version': 'version' },
          ExpressionAttributeValues: { ':version': current.version },
        },
      },
      onConditionFailed: () => new StaleWrite(),
    },
    deleteItem(transferKeys.transferLabel(organizationId, transfer.label)),
    ...scenarioUnlink(organizationId, transfer.id, transfer.scenarioId),
    ...auditDeletion(organizationId, transferAudit, transfer.id),
  ]);
}

/** A page of the organization's transfer rules, newest first, filtered; an exact totalCount (docs/decisions/store.md). */
/**
 * The page of the organization's rules that pass the filters. `usableNow` is whether a rule that keeps business hours
 * can take a call now (the organization's hours, read by the caller): with `availableNow`, only the enabled rules
 * usable now, or with false the others.
 */
export async function listTransfersPage(organizationId: string, { isEnabled, scenarioId, availableNow, ...request }: TransferListQuery, usableNow = true): Promise<Page<Transfer>> {
  const { page, limit } = request;
  const available = (item: Record<string, unknown>) => item.isEnabled === true && ((item.settings as Transfer['settings'] | undefined)?.ignore_business_hours === true || usableNow);
  const keep = (item: Record<string, unknown>) =>
    (isEnabled === undefined || item.isEnabled === isEnabled) && (scenarioId === undefined || item.scenarioId === scenarioId) && (availableNow === undefined || available(item) === availableNow);
  const log = { partition: changeLogKey(organizationId, TRANSFER_CHANGES).gsi6pk, filters: { isEnabled, scenarioId, availableNow } };
  const result = await listOrChanges(request, log, (at) => filteredPage(transferKeys.transfers(organizationId), { keep, filter: filterSignature({ isEnabled, scenarioId, availableNow, usableNow: availableNow === undefined ? undefined : usableNow }) }, at));
  return { ...result, items: result.items.map((item) => fromTransferItem(item).value), totalCount: result.totalCount ?? 0, page, limit };
}
