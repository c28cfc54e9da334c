import * as v from 'valibot';
import { CategoryService, type Service } from './schema';
import { serviceEntity } from './attributes';
import type { Versioned } from '#shared/store/versioned-record';
import { organizationPartition, pad, SAMPLE_ORGANIZATION_ID, type Collection, type Key, keySamplesOf, numberedKey, recordsOfKind, textClaimKey } from '#shared/store/keys';
import type { AuditedRecord } from '#shared/resource';

const org = organizationPartition;

export const serviceKeys = {
  service: serviceEntity.key,
  services: recordsOfKind('SERVICE'),
  serviceName: textClaimKey('SERVICENAME'),
  scenario: numberedKey('SCENARIO'),
  scenarios: recordsOfKind('SCENARIO'),
  /** A record that names the scenario (a transfer rule): found and cleared when the scenario goes. */
  scenarioLink: (o: string, id: number, referrer: Key): Key => ({ pk: org(o), sk: `SCENARIOLINK#${pad(id)}#${referrer.sk}` }),
  scenarioLinks: (o: string, id: number): Collection => ({ pk: org(o), skPrefix: `SCENARIOLINK#${pad(id)}#` }),
} as const;

/** The names of the services' counter items (`COUNT#<name>`). */
export const serviceCounterNames = {
  services: 'SERVICES',
} as const;

/** The change logs (updatedSince) of the services and of the scenarios. */
export const SERVICE_CHANGES = serviceEntity.changes;
export const SCENARIO_CHANGES = 'SCENARIOS';

const O = SAMPLE_ORGANIZATION_ID;

export const serviceKeySamples = keySamplesOf(serviceKeys, {
  service: [1],
  services: [],
  serviceName: ['Drains'],
  scenario: [1],
  scenarios: [],
  scenarioLink: [1, { pk: `ORG#${O}`, sk: 'TRANSFER#0000000001' }],
  scenarioLinks: [1],
});

/**
 * The service item carries its scenario's summary (written in the same transaction as the
 * scenario), so GET /v1/services/{serviceId} is one GetItem. `version` moves with every write of the item (a PATCH
 * of the service or of its scenario), so a write conditioned on the version read loses no other.
 */
export function toServiceItem(organizationId: string, service: Service, version = 1) {
  return { ...serviceEntity.toItem(organizationId, service), version };
}

export const fromServiceItem = (item: Record<string, unknown>): Service => serviceEntity.fromItem(underCurrentNames(item));

/** An item written before services shared products' price names holds `pricingMode` and `fixedPrice`. */
function underCurrentNames({ pricingMode, fixedPrice, ...item }: Record<string, unknown>): Record<string, unknown> {
  return 'pricingType' in item ? item : { ...item, pricingType: pricingMode, price: fixedPrice ?? null };
}

/** The service and the version its item is at (0: written before items carried one). */
export const fromVersionedServiceItem = (item: Record<string, unknown>): Versioned<Service> => ({ value: fromServiceItem(item), version: Number(item.version ?? 0) });

/** A service as the organization services listing shows it. */
export const toCategoryService = (service: Service): CategoryService => v.parse(CategoryService, service);

/** Holds the normalised name so two services cannot share it (trimmed, case-insensitive). */
export function toServiceNameItem(organizationId: string, service: Pick<Service, 'id' | 'name'>) {
  return { ...serviceKeys.serviceName(organizationId, service.name), entity: 'SERVICE_NAME', serviceId: service.id, name: service.name };
}

/** A service, as the audit log names it (GET /v1/audit-log). */
export const serviceAudit: AuditedRecord = { entity: 'SERVICE', resourceType: 'service' };
