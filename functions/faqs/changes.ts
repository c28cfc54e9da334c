import { lifecycleEvents, type ResourceChanges } from '../../shared/resource';
import { faqs as collection } from './collection';

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [lifecycleEvents({ entity: 'FAQ', data: 'Faq', toData: collection.fromItem, created: 'faq.created', updated: 'faq.updated', deleted: 'faq.deleted' })],
  audited: [collection.audited],
};
