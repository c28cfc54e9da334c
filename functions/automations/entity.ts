import type { AuditedRecord } from '#shared/resource';
import { organizationPartition, pad, SAMPLE_ORGANIZATION_ID, type Collection, type Key, type KeySamples } from '#shared/store/keys';
import { automationEntity } from './attributes';
import type { AutomationDefinition, TriggerName } from './catalog';
import type { Automation } from './schema';
import { isSealed } from '#shared/envelope-encryption';
import type { StoredSigningSecret } from './signing-secret';

const org = organizationPartition;

export const automationKeys = {
  automation: automationEntity.key,
  /** The organization's automations (`AUTOMATION#`, which `AUTOTRIGGER#` does not begin with), newest first. */
  automations: (o: string): Collection => ({ pk: org(o), skPrefix: 'AUTOMATION#' }),
  /** One version of an automation as runs follow it, never changed once written; zero-padded so they sort. */
  automationVersion: (o: string, automationId: string, version: number): Key => ({ pk: `${org(o)}#AUTOMATION#${automationId}`, sk: `VERSION#${pad(version)}` }),
  /** An enabled automation under its trigger, so the stream finds those an event starts in one Query. */
  triggerEntry: (o: string, trigger: TriggerName, automationId: string): Key => ({ pk: org(o), sk: `AUTOTRIGGER#${trigger}#${automationId}` }),
  triggerEntries: (o: string, trigger: TriggerName): Collection => ({ pk: org(o), skPrefix: `AUTOTRIGGER#${trigger}#` }),
  /** A bulk enrolment of a status's leads, kept 30 days to be read back (./enrolments). */
  automationEnrolment: (o: string, enrolmentId: string): Key => ({ pk: org(o), sk: `ENROLMENT#${enrolmentId}` }),
} as const;

/** The names of the automations' counter items (`COUNT#<name>`). */
export const automationCounterNames = { automations: 'AUTOMATIONS' } as const;

/** The automations' change log (updatedSince). */
export const AUTOMATION_CHANGES = automationEntity.changes;

const O = SAMPLE_ORGANIZATION_ID;
const ID = 'automation_01JA0000000000000000000000';

export const automationKeySamples: KeySamples<typeof automationKeys> = {
  automation: () => automationKeys.automation(O, ID),
  automations: () => automationKeys.automations(O),
  automationVersion: () => automationKeys.automationVersion(O, ID, 1),
  triggerEntry: () => automationKeys.triggerEntry(O, 'call.missed', ID),
  triggerEntries: () => automationKeys.triggerEntries(O, 'call.missed'),
  automationEnrolment: () => automationKeys.automationEnrolment(O, 'enrolment_01JA0000000000000000000000'),
};

/** An automation as stored: the record, and the secret its webhook steps sign with, made at the first write that has one. */
export interface StoredAutomation {
  automation: Automation;
  signingSecret?: StoredSigningSecret;
}

export const toAutomationItem = (organizationId: string, { automation, signingSecret }: StoredAutomation) => ({
  ...automationEntity.toItem(organizationId, automation),
  organizationId,
  ...(signingSecret ? { signingSecret } : {}),
});

export const fromAutomationItem = (item: Record<string, unknown>): StoredAutomation => ({
  automation: automationEntity.fromItem(item),
  ...(typeof item.signingSecret === 'string' || isSealed(item.signingSecret) ? { signingSecret: item.signingSecret } : {}),
});

/** What a run follows of one version (the definition), with the webhook steps' secret when it has one. */
export type VersionDefinition = AutomationDefinition & { signingSecret?: StoredSigningSecret };

export function definitionOf({ automation, signingSecret }: StoredAutomation): VersionDefinition {
  const { id, version, name, trigger, steps, stopWhen, quietHours } = automation;
  // The filter's fields left out are absent, not undefined: the schema omits them.
  return { automationId: id, version, name, trigger: trigger as AutomationDefinition['trigger'], steps, stopWhen, quietHours, ...(signingSecret ? { signingSecret } : {}) };
}

export const toVersionItem = (organizationId: string, stored: StoredAutomation) => ({
  ...automationKeys.automationVersion(organizationId, stored.automation.id, stored.automation.version),
  entity: 'AUTOMATION_VERSION',
  ...definitionOf(stored),
});

export const fromVersionItem = (item: Record<string, unknown>): VersionDefinition => {
  const { automationId, version, name, trigger, steps, stopWhen, quietHours, signingSecret } = item as unknown as VersionDefinition;
  return { automationId, version, name, trigger, steps, stopWhen, quietHours, ...(signingSecret ? { signingSecret } : {}) };
};

/** The trigger entry of an enabled automation: what the stream needs to match an event and start the version a run follows. */
export const toTriggerEntryItem = (organizationId: string, { id, trigger, version }: Automation) => ({
  ...automationKeys.triggerEntry(organizationId, trigger.event, id),
  entity: 'AUTOMATION_TRIGGER',
  automationId: id,
  version,
  filter: trigger.filter,
});

/** An automation, as the audit log names it (GET /v1/audit-log). */
export const automationAudit: AuditedRecord = { entity: 'AUTOMATION', resourceType: 'automation' };
