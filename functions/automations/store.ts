import type { AutomationDefinition, TriggerName } from './catalog';

// Contract stub: the definitions' store (automations, their immutable versions and the enabled triggers' entries)
// replaces this file.

/** The organization's enabled automations on a trigger, with the version a run would follow and its filter. */
export interface TriggerEntry {
  automationId: string;
  version: number;
  filter: Readonly<Record<string, string | readonly string[]>>;
}

export async function enabledAutomationsFor(organizationId: string, trigger: TriggerName): Promise<TriggerEntry[]> {
  void organizationId;
  void trigger;
  return [];
}

/** One version of an automation as a run follows it (the current one when `version` is absent); undefined when absent. */
export async function readAutomationDefinition(organizationId: string, automationId: string, version?: number): Promise<AutomationDefinition | undefined> {
  void organizationId;
  void automationId;
  void version;
  return undefined;
}
