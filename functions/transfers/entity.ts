import type { Versioned } from '#shared/store/versioned-record';
import { transfers } from './collection';
import type { Transfer } from './schema';

export { TRANSFER_CHANGES, transferKeys, transferKeySamples } from './collection';

export type VersionedTransfer = Versioned<Transfer>;

/** A stored transfer rule with the version its writes are conditioned on (the receptionist's context reads these). */
export const fromTransferItem = (item: Record<string, unknown>): VersionedTransfer => ({ value: transfers.fromItem(item), version: Number(item.version) });

/** A transfer rule, as the audit log names it (GET /v1/audit-log). */
export const transferAudit = transfers.audited;
