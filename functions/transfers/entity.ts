import * as v from 'valibot';
import { Transfer } from './schema';
import { keys } from '../../shared/store/keys';
import { toVersionedItem, type Versioned } from '../../shared/store/versioned-record';

export type VersionedTransfer = Versioned<Transfer>;

export const toTransferItem = (organizationId: string, transfer: VersionedTransfer) =>
  toVersionedItem(keys.transfer(organizationId, transfer.value.id), 'TRANSFER', organizationId, transfer);

export const fromTransferItem = (item: Record<string, unknown>): VersionedTransfer => ({ value: v.parse(Transfer, item), version: Number(item.version) });

/** Holds a transfer's label (trimmed, case-insensitive) so that no other transfer of the organization can take it. */
export function toTransferLabelItem(organizationId: string, transfer: Pick<Transfer, 'id' | 'label'>) {
  return { ...keys.transferLabel(organizationId, transfer.label), entity: 'TRANSFER_LABEL', transferId: transfer.id, label: transfer.label };
}
