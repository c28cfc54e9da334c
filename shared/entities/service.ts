import type { CategoryService, Service } from '../schemas/services';
import { keys } from './keys';
import { scenarioSummary } from './scenario';

/**
 * The service item carries its scenario's summary (written in the same transaction as the
 * scenario), so GET /v1/services/{id} is one GetItem.
 */
export type ServiceItem = Service & { pk: string; sk: string; entity: 'SERVICE' };

export function toServiceItem(organizationId: string, service: Service): ServiceItem {
  return { ...keys.service(organizationId, service.id), entity: 'SERVICE', ...service };
}

export function fromServiceItem(item: Record<string, unknown>): Service {
  const i = item as ServiceItem;
  return {
    id: i.id,
    name: i.name,
    description: i.description ?? '',
    duration: i.duration,
    durationUnit: i.durationUnit,
    followUpQuestions: i.followUpQuestions ?? [],
    tradeCategoryId: i.tradeCategoryId,
    pricingMode: i.pricingMode,
    fixedPrice: i.fixedPrice ?? null,
    hourlyRate: i.hourlyRate ?? null,
    callOutFee: i.callOutFee ?? null,
    minPrice: i.minPrice ?? null,
    maxPrice: i.maxPrice ?? null,
    plusGST: i.plusGST ?? false,
    plusMaterials: i.plusMaterials ?? false,
    isCustomPriceResponseActive: i.isCustomPriceResponseActive ?? false,
    customPriceResponse: i.customPriceResponse ?? null,
    isDisclosePrice: i.isDisclosePrice ?? false,
    isActive: i.isActive ?? true,
    teamAssignmentMethod: i.teamAssignmentMethod,
    scenario: scenarioSummary(i.scenario),
    createdAt: i.createdAt,
    updatedAt: i.updatedAt,
  };
}

export function toCategoryService(service: Service): CategoryService {
  const { id, name, description, duration, followUpQuestions, tradeCategoryId, createdAt, isActive } = service;
  return { id, name, description, duration, followUpQuestions, tradeCategoryId, createdAt, isActive };
}

/** Holds the normalised name so two services cannot share it (trimmed, case-insensitive). */
export function toServiceNameItem(organizationId: string, service: Pick<Service, 'id' | 'name'>) {
  return { ...keys.serviceName(organizationId, service.name), entity: 'SERVICE_NAME', serviceId: service.id, name: service.name };
}
