import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../shared/config';
import { dynamo } from '../../shared/dynamo';
import { normalizeName } from '../../shared/store/keys';
import { serviceKeys } from '../services/entity';
import { fromTransferItem, toTransferItem, toTransferLabelItem, transferKeys, type VersionedTransfer } from './entity';
import { ConflictError, ValidationError } from '../../shared/errors';
import type { Transfer } from './schema';
import { insertIfAbsent, requireExisting, transact, type TransactWrite } from '../../shared/store/transact';
import { moveUniqueItem, putIfVersion, writeVersion } from '../../shared/store/versioned';

export const TRANSFER_SEQUENCE = 'TRANSFER';

const labelTaken = (label: string) => () => new ConflictError(`A transfer rule labelled "${label.trim()}" already exists`);

/** The linked scenario must exist in this organization; checked inside the write's transaction. */
function scenarioCheck(organizationId: string, scenarioId: number | null): TransactWrite[] {
  if (scenarioId === null) return [];
  const missing = () => new ValidationError([{ path: 'scenarioId', message: `scenarioId ${scenarioId} does not match any scenario of the organization` }]);
  return [requireExisting(serviceKeys.scenario(organizationId, scenarioId), missing)];
}

/** The transfer, its label item and the check of its scenario, in one transaction: a taken label → 409. */
export async function insertTransfer(organizationId: string, transfer: Transfer): Promise<void> {
  await transact([
    insertIfAbsent(toTransferItem(organizationId, { value: transfer, version: 1 })),
    insertIfAbsent(toTransferLabelItem(organizationId, transfer), labelTaken(transfer.label)),
    ...scenarioCheck(organizationId, transfer.scenarioId),
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
    ...(next.value.scenarioId !== current.value.scenarioId ? scenarioCheck(organizationId, next.value.scenarioId) : []),
  ]);
}
