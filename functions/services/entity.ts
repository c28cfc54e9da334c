import * as v from 'valibot';
import { CategoryService, Service } from './schema';
import { keys } from '../../shared/store/keys';

/**
 * The service item carries its scenario's summary (written in the same transaction as the
 * scenario), so GET /v1/services/{serviceId} is one GetItem.
 */
export function toServiceItem(organizationId: string, service: Service) {
  return { ...keys.service(organizationId, service.id), entity: 'SERVICE', ...service };
}

export const fromServiceItem = (item: Record<string, unknown>): Service => v.parse(Service, item);

/** A service as the organization services listing shows it. */
export const toCategoryService = (service: Service): CategoryService => v.parse(CategoryService, service);

/** Holds the normalised name so two services cannot share it (trimmed, case-insensitive). */
export function toServiceNameItem(organizationId: string, service: Pick<Service, 'id' | 'name'>) {
  return { ...keys.serviceName(organizationId, service.name), entity: 'SERVICE_NAME', serviceId: service.id, name: service.name };
}
