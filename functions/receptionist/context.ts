import { createHash } from 'node:crypto';
import { faqKeys, faqs } from '../faqs/collection';
import { getOrganizationHours } from '../organization/store';
import { policies, policyKeys } from '../policies/collection';
import { fromProductItem, productKeys } from '../products/entity';
import { fromScenarioItem } from '../services/scenario-entity';
import { fromServiceItem, serviceKeys } from '../services/entity';
import { fromTransferItem, transferKeys } from '../transfers/entity';
import type { Product } from '../products/schema';
import type { Service } from '../services/schema';
import { queryAll } from '#shared/store/query-page';
import { CONTEXT_LIMIT, type ReceptionistContext } from './context-schema';

const SERVICE_PRICES = ['price', 'hourlyRate', 'callOutFee', 'minPrice', 'maxPrice'] as const;

/** A service as the receptionist may quote it: its price fields null unless the business discloses them. */
const disclosedService = (service: Service): Service => (service.isDisclosePrice ? service : { ...service, ...Object.fromEntries(SERVICE_PRICES.map((field) => [field, null])) });
const disclosedProduct = (product: Product): Product => (product.isDisclosePrice ? product : { ...product, price: null, minPrice: null, maxPrice: null });

/**
 * Everything an AI receptionist may say, in one answer: the organization with its hours, and its active services,
 * products, FAQs, policies and scenarios and its enabled transfer rules, read by one parallel batch of calls (the
 * organization and one Query per collection). Each kind is capped at CONTEXT_LIMIT.
 */
export async function receptionistContext(organizationId: string): Promise<ReceptionistContext> {
  const [organization, services, products, faqItems, policyItems, scenarios, transfers] = await Promise.all([
    getOrganizationHours(organizationId),
    queryAll(serviceKeys.services(organizationId)),
    queryAll(productKeys.products(organizationId)),
    queryAll(faqKeys.faqs(organizationId)),
    queryAll(policyKeys.policies(organizationId)),
    queryAll(serviceKeys.scenarios(organizationId)),
    queryAll(transferKeys.transfers(organizationId)),
  ]);
  const active = <T extends { isActive: boolean }>(records: T[]) => records.filter((record) => record.isActive).slice(0, CONTEXT_LIMIT);
  const { name, timezone, businessHours, closedDates, isOpenNow, closesAt, nextOpenAt } = organization;
  const activeServices = active(services.map(fromServiceItem));
  const offered = new Set(activeServices.map((service) => service.id));
  const allScenarios = scenarios.map(fromScenarioItem);
  const scripted = new Set(allScenarios.filter((scenario) => scenario.isActive).map((scenario) => scenario.id));
  return {
    organization: { name, timezone, businessHours, closedDates, isOpenNow, closesAt, nextOpenAt },
    // A service is still offered when its scenario is not active, but the receptionist must not follow that script.
    services: activeServices.map((service) => ({ ...disclosedService(service), scenario: scripted.has(service.scenario.id) ? service.scenario : null })),
    products: active(products.map((item) => fromProductItem(item).value)).map(disclosedProduct),
    faqs: active(faqItems.map(faqs.fromItem)),
    policies: active(policyItems.map(policies.fromItem)),
    // A retired service's scenario goes with it.
    scenarios: active(allScenarios.filter((scenario) => scenario.tradeServiceId !== null && offered.has(scenario.tradeServiceId))),
    transfers: transfers.map((item) => fromTransferItem(item).value).filter((transfer) => transfer.isEnabled).slice(0, CONTEXT_LIMIT),
  };
}

/** A strong validator of the answer's content: the same context, the same tag. */
export const etagOf = (body: string) => `"${createHash('sha256').update(body).digest('base64url').slice(0, 32)}"`;

/**
 * Whether an If-None-Match header names this ETag, compared weakly as HTTP says (RFC 9110, 13.1.2): a cache or a proxy
 * that compressed the answer sends it back as `W/"…"`; `*` names any current representation.
 */
export function namesEtag(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  const opaque = (tag: string) => tag.trim().replace(/^W\//, '');
  return header.split(',').some((tag) => tag.trim() === '*' || opaque(tag) === opaque(etag));
}
