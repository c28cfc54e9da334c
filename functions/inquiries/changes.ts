import { lifecycleEvents, type ResourceChanges } from '#shared/resource';
import { fromInquiryItem, inquiryAudit } from './entity';

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [
    lifecycleEvents({
      entity: 'INQUIRY',
      data: 'InquiryListItem',
      // The external id is the integrator's own key, for retries; events carry the inquiry as lists show it.
      toData: (item) => {
        const { externalInquiryId: _external, ...summary } = fromInquiryItem(item);
        return summary;
      },
      created: 'inquiry.created',
      // Marked read or unread, retagged, or its SMS thread moved: what a poller of the list would see change.
      updated: 'inquiry.updated',
    }),
  ],
  audited: [inquiryAudit],
};
