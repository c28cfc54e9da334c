import type { Scenario, ScenarioSummary } from '../schemas/scenarios';
import { keys } from './keys';

export type ScenarioItem = Scenario & { pk: string; sk: string; entity: 'SCENARIO' };

export function toScenarioItem(organizationId: string, scenario: Scenario): ScenarioItem {
  return { ...keys.scenario(organizationId, scenario.id), entity: 'SCENARIO', ...scenario };
}

export function fromScenarioItem(item: Record<string, unknown>): Scenario {
  const i = item as ScenarioItem;
  return {
    id: i.id,
    name: i.name,
    prompt: i.prompt,
    response: i.response,
    isActive: i.isActive,
    questions: i.questions ?? [],
    outcome: i.outcome,
    tradeServiceId: i.tradeServiceId ?? null,
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
}

export function scenarioSummary(scenario: Pick<Scenario, 'id' | 'response' | 'questions' | 'outcome'>): ScenarioSummary {
  return { id: scenario.id, response: scenario.response, questions: scenario.questions, outcome: scenario.outcome };
}
