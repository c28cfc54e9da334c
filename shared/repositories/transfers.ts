import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { keys, normalizeName } from '../entities/keys';
import { fromTransferItem, toTransferItem, toTransferLabelItem, type VersionedTransfer } from '../entities/transfer';
import { ConflictError, NotFoundError, ValidationError } from '../errors';
import { now } from '../ids';
import type { CreateTransferBody, Transfer, TransferChanges } from '../schemas/transfers';
import { reserveIds } from './sequences';
import { transact, type TransactItem } from './transact';
import { defined, moveUniqueItem, putIfVersion, sendPutIfVersion, transactWithVersionedPut, updateVersioned } from './versioned';

export const TRANSFER_SEQUENCE = 'TRANSFER';
export const TRANSFER_NOT_FOUND = 'Transfer rule not found';

const E164 = /^\+[1-9]\d{6,14}$/;
const labelTaken = (label: string) => `A transfer rule labelled "${label.trim()}" already exists`;
const scenarioMissing = (scenarioId: number | null) =>
  new ValidationError([{ path: 'scenarioId', message: `scenarioId ${scenarioId} does not match any scenario of the organization` }]);

/** Rules across fields, checked on the merged transfer so a partial update cannot break them. */
function checked(transfer: Transfer): Transfer {
  if (transfer.destinationType === 'PHONE_NUMBER' && !E164.test(transfer.destination)) {
    const message = 'destination must be a phone number in E.164 format, e.g. +61298765432, when destinationType is PHONE_NUMBER';
    throw new ValidationError([{ path: 'destination', message }]);
  }
  return transfer;
}

/** The linked scenario must exist in this organization; checked inside the write's transaction. */
function scenarioCheck(organizationId: string, scenarioId: number | null): TransactItem[] {
  if (scenarioId === null) return [];
  return [{ ConditionCheck: { TableName: config.tableName, Key: keys.scenario(organizationId, scenarioId), ConditionExpression: 'attribute_exists(pk)' } }];
}

export function transferFromRequest(body: CreateTransferBody, createdAt: string): Omit<Transfer, 'id'> {
  const { id: _, ...transfer } = checked({
    id: 0,
    label: body.label,
    name: body.name ?? body.label,
    method: body.method,
    destinationType: body.destinationType,
    destination: body.destination,
    conditions: body.conditions,
    summaryFormat: body.summaryFormat,
    settings: body.settings,
    isEnabled: body.isEnabled,
    scenarioId: body.scenarioId,
    createdAt,
    updatedAt: createdAt,
  });
  return transfer;
}

/** The transfer and its label item in one transaction: a taken label → 409. */
export async function createTransfer(organizationId: string, body: CreateTransferBody, at = now()): Promise<Transfer> {
  const draft = transferFromRequest(body, at);
  const transfer: Transfer = { id: await reserveIds(organizationId, TRANSFER_SEQUENCE), ...draft };
  await transact(
    [
      { Put: { TableName: config.tableName, Item: toTransferItem(organizationId, { value: transfer, version: 1 }), ConditionExpression: 'attribute_not_exists(pk)' } },
      { Put: { TableName: config.tableName, Item: toTransferLabelItem(organizationId, transfer), ConditionExpression: 'attribute_not_exists(pk)' } },
      ...scenarioCheck(organizationId, transfer.scenarioId),
    ],
    (index) => [new Error(`Transfer id ${transfer.id} collided`), new ConflictError(labelTaken(transfer.label)), scenarioMissing(transfer.scenarioId)][index]!,
  );
  return transfer;
}

export async function getTransfer(organizationId: string, transferId: number): Promise<VersionedTransfer | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.transfer(organizationId, transferId), ConsistentRead: true }));
  return Item && fromTransferItem(Item);
}

/**
 * Read, merge, check, then one conditional write on the version read. A new label moves the label
 * item, and a new scenarioId is checked, in the same transaction; otherwise it is a single Put.
 */
export async function updateTransfer(organizationId: string, transferId: number, changes: TransferChanges): Promise<Transfer> {
  const updated = await updateVersioned({
    read: () => getTransfer(organizationId, transferId),
    merge: (current) => checked({ ...current, ...defined(changes), updatedAt: now() }),
    notFound: () => new NotFoundError(TRANSFER_NOT_FOUND),
    write: (current, next) => {
      const put = putIfVersion(toTransferItem(organizationId, next), current.version);
      const relabelled = normalizeName(current.value.label) !== normalizeName(next.value.label);
      const others = [
        ...(relabelled ? moveUniqueItem(keys.transferLabel(organizationId, current.value.label), toTransferLabelItem(organizationId, next.value)) : []),
        ...(next.value.scenarioId !== current.value.scenarioId ? scenarioCheck(organizationId, next.value.scenarioId) : []),
      ];
      if (!others.length) return sendPutIfVersion(put);
      // Transaction indexes: 0 the transfer, then 1 and 2 the label move when relabelled, then the scenario check.
      const labelIndex = relabelled ? 2 : -1;
      return transactWithVersionedPut(put, others, (index) =>
        index === labelIndex ? new ConflictError(labelTaken(next.value.label)) : scenarioMissing(next.value.scenarioId),
      );
    },
  });
  return updated.value;
}
