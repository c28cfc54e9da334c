import { defineResource, namedComponents } from '#shared/resource';
import { TradeCategory } from './trade-categories';
import { serviceKeys, serviceKeySamples } from './entity';
import * as examples from './examples';
import { serviceRoutes } from './routes';
import { Scenario, ScenarioOutcome, ScenarioQuestion, ScenarioSummary } from './scenario-schema';
import { CategoryService, Service, ServiceCategory } from './schema';
import { changes } from './changes';

export const services = defineResource({
  name: 'services',
  tags: {
    Services: 'Trade services the business offers, each with the AI-receptionist scenario it starts with.',
    Scenarios: 'What the AI receptionist says and asks when a caller wants a service.',
  },
  routes: serviceRoutes,
  // A member's session reads them; changing them is the pipeline's settings (shared/member-roles.ts).
  sessionRoles: { write: 'MANAGER' },
  components: namedComponents({ Service, ServiceCategory, CategoryService, TradeCategory, Scenario, ScenarioSummary, ScenarioQuestion, ScenarioOutcome }, examples),
  ...changes,
  keys: [{ builders: serviceKeys, samples: serviceKeySamples }],
});
