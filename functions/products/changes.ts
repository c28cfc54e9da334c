import { lifecycleEvents, type ResourceChanges } from '#shared/resource';
import { fromProductItem, productAudit } from './entity';

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [lifecycleEvents({ entity: 'PRODUCT', data: 'Product', toData: (item) => fromProductItem(item).value, created: 'product.created', updated: 'product.updated', deleted: 'product.deleted' })],
  audited: [productAudit],
};
