import { defineResource } from '#shared/resource';
import { TRADE_CATEGORIES, TradeCategory } from './trade-categories';
import { serviceKeys, serviceKeySamples } from './entity';
import { categoryService, scenario, scenarioOutcome, scenarioQuestion, service, serviceCategory } from './examples';
import { serviceRoutes } from './routes';
import * as scenarios from './scenario-schema';
import * as schemas from './schema';
import { changes } from './changes';

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
    TradeCategory: { schema: TradeCategory, example: TRADE_CATEGORIES[0] },
    Scenario: { schema: scenarios.Scenario, example: scenario },
    ScenarioSummary: { schema: scenarios.ScenarioSummary, example: undefined },
    ScenarioQuestion: { schema: scenarios.ScenarioQuestion, example: scenarioQuestion },
    ScenarioOutcome: { schema: scenarios.ScenarioOutcome, example: scenarioOutcome },
  },
  ...changes,
  keys: [{ builders: serviceKeys, samples: serviceKeySamples }],
});
