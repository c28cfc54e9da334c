import { lifecycleEvents, type ResourceChanges } from '#shared/resource';
import { companyAudit, fromCompanyItem } from './entity';
import { companyNotes } from './notes';

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [
    lifecycleEvents({ entity: 'COMPANY', data: 'Company', toData: fromCompanyItem, created: 'company.created', updated: 'company.updated', deleted: 'company.deleted' }),
    // A note's delete is an event of its own, so a poller of a company's notes (updatedSince) sees it go.
    companyNotes.events,
  ],
  audited: [companyAudit, companyNotes.audited],
};
