import { defineResource, lifecycleEvents } from '../../shared/resource';
import { fromServiceItem, serviceAudit, serviceKeys, serviceKeySamples } from './entity';
import { categoryService, scenario, scenarioOutcome, scenarioQuestion, service, serviceCategory } from './examples';
import { serviceRoutes } from './routes';
import { fromScenarioItem, scenarioAudit } from './scenario-entity';
import * as scenarios from './scenario-schema';
import * as schemas from './schema';

export const services = defineResource({
  name: 'services',
  tags: {
    Services: 'Trade services the business offers, each with the AI-receptionist scenario it starts with.',
    Scenarios: 'What the AI receptionist says and asks when a caller wants a service.',
  },
  routes: serviceRoutes,
  components: {
    Service: { schema: schemas.Service, example: service },
    ServiceCategory: { schema: schemas.ServiceCategory, example: serviceCategory },
    CategoryService: { schema: schemas.CategoryService, example: categoryService },
    Scenario: { schema: scenarios.Scenario, example: scenario },
    ScenarioSummary: { schema: scenarios.ScenarioSummary, example: undefined },
    ScenarioQuestion: { schema: scenarios.ScenarioQuestion, example: scenarioQuestion },
    ScenarioOutcome: { schema: scenarios.ScenarioOutcome, example: scenarioOutcome },
  },
  events: [
    lifecycleEvents({ entity: 'SERVICE', toData: fromServiceItem, created: 'service.created', updated: 'service.updated', deleted: 'service.deleted' }),
    lifecycleEvents({ entity: 'SCENARIO', toData: fromScenarioItem, created: 'scenario.created', updated: 'scenario.updated', deleted: 'scenario.deleted' }),
  ],
  audited: [serviceAudit, scenarioAudit],
  keys: [{ builders: serviceKeys, samples: serviceKeySamples }],
});
