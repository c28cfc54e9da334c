import * as v from 'valibot';
import { Transfer } from './schema';
import { normalizeName, organizationPartition, pad, SAMPLE_ORGANIZATION_ID, type Collection, type Key, type KeySamples } from '../../shared/store/keys';
import { toVersionedItem, type Versioned } from '../../shared/store/versioned-record';
import { changeLogKey } from '../../shared/store/keys';
import type { AuditedRecord } from '../../shared/resource';

export type VersionedTransfer = Versioned<Transfer>;

const org = organizationPartition;

export const transferKeys = {
  transfer: (o: string, id: number): Key => ({ pk: org(o), sk: `TRANSFER#${pad(id)}` }),
  transfers: (o: string): Collection => ({ pk: org(o), skPrefix: 'TRANSFER#' }),
  transferLabel: (o: string, label: string): Key => ({ pk: org(o), sk: `TRANSFERLABEL#${normalizeName(label)}` }),
} as const;

const O = SAMPLE_ORGANIZATION_ID;

export const transferKeySamples: KeySamples<typeof transferKeys> = {
  transfer: () => transferKeys.transfer(O, 1),
  transfers: () => transferKeys.transfers(O),
  transferLabel: () => transferKeys.transferLabel(O, 'Urgent'),
};

export const toTransferItem = (organizationId: string, transfer: VersionedTransfer) => ({
  ...toVersionedItem(transferKeys.transfer(organizationId, transfer.value.id), 'TRANSFER', organizationId, transfer),
  ...changeLogKey(organizationId, TRANSFER_CHANGES),
});

/** The transfers' change log (updatedSince). */
export const TRANSFER_CHANGES = 'TRANSFERS';

export const fromTransferItem = (item: Record<string, unknown>): VersionedTransfer => ({ value: v.parse(Transfer, item), version: Number(item.version) });

/** Holds a transfer's label (trimmed, case-insensitive) so that no other transfer of the organization can take it. */
export function toTransferLabelItem(organizationId: string, transfer: Pick<Transfer, 'id' | 'label'>) {
  return { ...transferKeys.transferLabel(organizationId, transfer.label), entity: 'TRANSFER_LABEL', transferId: transfer.id, label: transfer.label };
}

/** A transfer rule, as the audit log names it (GET /v1/audit-log). */
export const transferAudit: AuditedRecord = { entity: 'TRANSFER', resourceType: 'transfer' };
