import * as v from 'valibot';
import { Scenario, ScenarioSummary } from './scenario-schema';
import { serviceKeys } from './entity';

export function toScenarioItem(organizationId: string, scenario: Scenario) {
  return { ...serviceKeys.scenario(organizationId, scenario.id), entity: 'SCENARIO', ...scenario };
}

export const fromScenarioItem = (item: Record<string, unknown>): Scenario => v.parse(Scenario, item);

/** The form of a scenario nested in its service. */
export const scenarioSummary = (scenario: Scenario): ScenarioSummary => v.parse(ScenarioSummary, scenario);
