import { lifecycleEvents, type ResourceChanges } from '../../shared/resource';
import { companyAudit, companyNoteAudit, fromCompanyItem } from './entity';

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [lifecycleEvents({ entity: 'COMPANY', toData: fromCompanyItem, created: 'company.created', updated: 'company.updated', deleted: 'company.deleted' })],
  audited: [companyAudit, companyNoteAudit],
};
