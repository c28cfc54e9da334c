import * as v from 'valibot';
import { Scenario, ScenarioSummary } from './scenario-schema';
import { SCENARIO_CHANGES, serviceKeys } from './entity';
import { changeLogKey } from '#shared/store/keys';
import type { Versioned } from '#shared/store/versioned-record';
import type { AuditedRecord } from '#shared/resource';

/**
 * The scenario's item. `version` moves with each PATCH; `links` (absent: 0) counts the records that name the
 * scenario (scenario-links.ts), moved by their writes.
 */
export function toScenarioItem(organizationId: string, scenario: Scenario, version = 1) {
  return { ...serviceKeys.scenario(organizationId, scenario.id), ...changeLogKey(organizationId, SCENARIO_CHANGES), entity: 'SCENARIO', version, ...scenario };
}

export const fromScenarioItem = (item: Record<string, unknown>): Scenario => v.parse(Scenario, item);

/** The scenario and the version its item is at (0: written before items carried one). */
export const fromVersionedScenarioItem = (item: Record<string, unknown>): Versioned<Scenario> => ({ value: fromScenarioItem(item), version: Number(item.version ?? 0) });

/** The form of a scenario nested in its service. */
export const scenarioSummary = (scenario: Scenario): ScenarioSummary => v.parse(ScenarioSummary, scenario);

/** A scenario, as the audit log names it (GET /v1/audit-log). */
export const scenarioAudit: AuditedRecord = { entity: 'SCENARIO', resourceType: 'scenario' };
