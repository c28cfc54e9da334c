import { lifecycleEvents, type ResourceChanges } from '#shared/resource';
import { automationAudit, fromAutomationItem } from './entity';
import { runChanges } from './runs/changes';

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [
    lifecycleEvents({ entity: 'AUTOMATION', data: 'Automation', toData: (item) => fromAutomationItem(item).automation, created: 'automation.created', updated: 'automation.updated', deleted: 'automation.deleted' }),
    ...(runChanges.events ?? []),
  ],
  audited: [automationAudit, ...(runChanges.audited ?? [])],
};
