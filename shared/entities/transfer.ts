import type { Versioned } from '../repositories/versioned';
import type { Transfer } from '../schemas/transfers';
import { keys } from './keys';

export type VersionedTransfer = Versioned<Transfer>;

export type TransferItem = Transfer & { pk: string; sk: string; entity: 'TRANSFER'; organizationId: string; version: number };

export function toTransferItem(organizationId: string, { value: transfer, version }: VersionedTransfer): TransferItem {
  return { ...keys.transfer(organizationId, transfer.id), entity: 'TRANSFER', organizationId, version, ...transfer };
}

export function fromTransferItem(item: Record<string, unknown>): VersionedTransfer {
  const i = item as TransferItem;
  return {
    version: i.version,
    value: {
      id: i.id,
      label: i.label,
      name: i.name,
      method: i.method,
      destinationType: i.destinationType,
      destination: i.destination,
      conditions: i.conditions,
      summaryFormat: i.summaryFormat,
      settings: { ignore_business_hours: i.settings?.ignore_business_hours ?? false },
      isEnabled: i.isEnabled ?? true,
      scenarioId: i.scenarioId ?? null,
      createdAt: i.createdAt,
      updatedAt: i.updatedAt,
    },
  };
}

/** Holds a transfer's label (trimmed, case-insensitive) so that no other transfer of the organization can take it. */
export function toTransferLabelItem(organizationId: string, transfer: Pick<Transfer, 'id' | 'label'>) {
  return { ...keys.transferLabel(organizationId, transfer.label), entity: 'TRANSFER_LABEL', transferId: transfer.id, label: transfer.label };
}
