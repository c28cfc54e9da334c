import * as v from 'valibot';
import { defined } from '../../shared/store/changes';
import { NotFoundError, ValidationError } from '../../shared/errors';
import { now } from '../../shared/ids';
import { reserveIds } from '../../shared/store/sequences';
import { deleteTransferVersion, getTransfer, insertTransfer, TRANSFER_SEQUENCE, writeTransferVersion } from './store';
import { retryOnStaleWrite, updateVersioned } from '../../shared/store/versioned';
import { E164 } from '../../shared/schema';
import { Transfer, type CreateTransferBody, type TransferChanges } from './schema';

export const TRANSFER_NOT_FOUND = 'Transfer rule not found';

/**
 * Rules across fields, checked on the merged transfer so a partial update cannot break them; the
 * schema puts the fields in documented order.
 */
function checked(fields: Partial<Transfer>): Transfer {
  const transfer = v.parse(Transfer, fields);
  if (transfer.destinationType === 'PHONE_NUMBER' && !E164.test(transfer.destination)) {
    const message = 'destination must be a phone number in E.164 format, e.g. +61298765432, when destinationType is PHONE_NUMBER';
    throw new ValidationError([{ path: 'destination', message }]);
  }
  return transfer;
}

/** A transfer's name is its label unless given. */
export async function createTransfer(organizationId: string, body: CreateTransferBody, at = now()): Promise<Transfer> {
  // Checked before an id is reserved, so a refused request reserves none.
  const { id: _, ...fields } = checked({ ...body, id: 0, name: body.name ?? body.label, createdAt: at, updatedAt: at });
  const transfer: Transfer = { id: await reserveIds(organizationId, TRANSFER_SEQUENCE), ...fields };
  await insertTransfer(organizationId, transfer);
  return transfer;
}

/** Read, merge, check, then one conditional write on the version read. */
export async function updateTransfer(organizationId: string, transferId: number, changes: TransferChanges): Promise<Transfer> {
  const updated = await updateVersioned({
    read: () => getTransfer(organizationId, transferId),
    merge: (current) => checked({ ...current, ...defined(changes), updatedAt: now() }),
    notFound: () => new NotFoundError(TRANSFER_NOT_FOUND),
    write: (current, next) => writeTransferVersion(organizationId, current, next),
  });
  return updated.value;
}

export async function readTransfer(organizationId: string, transferId: number): Promise<Transfer> {
  const current = await getTransfer(organizationId, transferId);
  if (!current) throw new NotFoundError(TRANSFER_NOT_FOUND);
  return current.value;
}

/** Read, then one transaction on condition of the version read (a lost race is read again). */
export async function deleteTransfer(organizationId: string, transferId: number): Promise<number> {
  await retryOnStaleWrite(async () => {
    const current = await getTransfer(organizationId, transferId);
    if (!current) throw new NotFoundError(TRANSFER_NOT_FOUND);
    await deleteTransferVersion(organizationId, current);
  });
  return transferId;
}
