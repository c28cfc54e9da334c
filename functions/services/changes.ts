import { lifecycleEvents, type ResourceChanges } from '#shared/resource';
import { fromServiceItem, serviceAudit } from './entity';
import { fromScenarioItem, scenarioAudit } from './scenario-entity';

/** What the stream consumer reads of this resource, apart from its routes (functions/resource-changes.ts): its events and the records the audit log attributes. */
export const changes: ResourceChanges = {
  events: [
    lifecycleEvents({ entity: 'SERVICE', data: 'Service', toData: fromServiceItem, created: 'service.created', updated: 'service.updated', deleted: 'service.deleted' }),
    lifecycleEvents({ entity: 'SCENARIO', data: 'Scenario', toData: fromScenarioItem, created: 'scenario.created', updated: 'scenario.updated', deleted: 'scenario.deleted' }),
  ],
  audited: [serviceAudit, scenarioAudit],
};
