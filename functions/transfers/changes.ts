import { lifecycleEvents, type ResourceChanges } from '../../shared/resource';
import { fromTransferItem, transferAudit } from './entity';

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [lifecycleEvents({ entity: 'TRANSFER', data: 'Transfer', toData: (item) => fromTransferItem(item).value, created: 'transfer.created', updated: 'transfer.updated', deleted: 'transfer.deleted' })],
  audited: [transferAudit],
};
