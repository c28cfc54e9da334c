import * as v from 'valibot';
import { TRADE_CATEGORIES } from './trade-categories';
import { scenarioSummary } from './scenario-entity';
import { toCategoryService } from './entity';
import { now } from '#shared/ids';
import { reserveIds } from '#shared/store/sequences';
import { defined } from '#shared/store/changes';
import { NotFoundError, ValidationError } from '#shared/errors';
import { retryOnStaleWrite, updateVersioned } from '#shared/store/versioned';
import {
  deleteServiceWithScenario,
  getVersionedScenario,
  getVersionedService,
  insertServiceWithScenario,
  listAllServices,
  SCENARIO_NOT_FOUND,
  SCENARIO_SEQUENCE,
  SERVICE_NOT_FOUND,
  SERVICE_SEQUENCE,
  writeScenarioVersion,
  writeServiceVersion,
} from './store';
import { Scenario, type ScenarioChanges } from './scenario-schema';
import { Service, SERVICE_RULES, type CreateServiceBody, type OrganizationServices, type ServiceChanges } from './schema';
import { serviceEntity } from './attributes';
import { batchGetItems } from '#shared/store/batch-get';
import { memberKey } from '#shared/store/keys';

/** The scenario a new service starts with: ask its follow-up questions, then carry on with the call. */
export function defaultScenario(body: CreateServiceBody, id: number, serviceId: number, at: string): Scenario {
  const about = body.description ? `${body.name} (${body.description})` : body.name;
  return {
    id,
    name: body.name,
    prompt: `Use this scenario when the caller asks about ${about}. Ask each question in turn, then continue the call.`,
    response: body.followUpQuestions.length
      ? `We can help with ${body.name}. I have a few quick questions so the team can get back to you with the details.`
      : `We can help with ${body.name}. I'll pass your details to the team so they can get back to you.`,
    isActive: true,
    questions: body.followUpQuestions.map((question) => ({ question, answerOptions: [] })),
    outcome: { type: 'continueCall', property1: null, property2: null },
    tradeServiceId: serviceId,
    createdAt: at,
    updatedAt: at,
  };
}

/** Each of memberIds must be a member of the organization: one that is not → 400 naming its place (`memberIds.2`). */
async function checkMemberIds(organizationId: string, ids: readonly number[]): Promise<void> {
  if (!ids.length) return;
  const found = new Set((await batchGetItems(ids.map((id) => memberKey(organizationId, id)), { consistentRead: true, attributes: ['id'] })).map((item) => item.id));
  const unknown = ids.flatMap((id, i) => (found.has(id) ? [] : [{ path: `memberIds.${i}`, message: `memberIds.${i}: ${id} is not a member of the organization` }]));
  if (unknown.length) throw new ValidationError(unknown);
}

/** What a service holds for the optional request fields that were left out: empty, and active. */
const UNSET = serviceEntity.defaults;

/** A service and the AI-receptionist scenario it starts with, written together; the schema puts the fields in documented order. */
export async function createService(organizationId: string, body: CreateServiceBody, at = now()): Promise<Service> {
  await checkMemberIds(organizationId, body.memberIds);
  const [serviceId, scenarioId] = await Promise.all([reserveIds(organizationId, SERVICE_SEQUENCE), reserveIds(organizationId, SCENARIO_SEQUENCE)]);
  const scenario = defaultScenario(body, scenarioId, serviceId, at);
  const service = v.parse(Service, { ...UNSET, ...body, id: serviceId, scenario: scenarioSummary(scenario), createdAt: at, updatedAt: at });
  await insertServiceWithScenario(organizationId, service, scenario);
  return service;
}

/** The organization's services under the trade categories that have at least one, in catalog order; newest first within a category. */
export async function listServicesByCategory(organizationId: string): Promise<OrganizationServices> {
  const services = (await listAllServices(organizationId)).reverse();
  const categories = TRADE_CATEGORIES.map((category) => ({
    id: category.id,
    name: category.name,
    type: category.type,
    services: services.filter((service) => service.tradeCategoryId === category.id).map(toCategoryService),
  })).filter((category) => category.services.length > 0);
  return { categories, totalCategories: categories.length, totalServices: services.length };
}

/** The merged service, checked by the rules the create checks (each broken one names its field), in documented order. */
function checked(fields: Service): Service {
  const broken = SERVICE_RULES.filter((rule) => !rule.holds(fields)).map((rule) => ({ path: rule.field, message: rule.message(fields) }));
  if (broken.length) throw new ValidationError(broken);
  return v.parse(Service, fields);
}

/** Read, merge, check, then one write on condition of the version read (a lost race is merged again). */
export async function updateService(organizationId: string, serviceId: number, changes: ServiceChanges): Promise<Service> {
  if (changes.memberIds) await checkMemberIds(organizationId, changes.memberIds);
  const updated = await updateVersioned({
    read: () => getVersionedService(organizationId, serviceId),
    merge: (current) => checked({ ...current, ...defined(changes), updatedAt: now() }),
    notFound: () => new NotFoundError(SERVICE_NOT_FOUND),
    write: (current, next) => writeServiceVersion(organizationId, current, next),
  });
  return updated.value;
}

/** The service, its scenario and every link to the scenario, in one transaction; read again after a lost race. */
export async function deleteService(organizationId: string, serviceId: number): Promise<number> {
  await retryOnStaleWrite(async () => {
    const current = await getVersionedService(organizationId, serviceId);
    if (!current) throw new NotFoundError(SERVICE_NOT_FOUND);
    await deleteServiceWithScenario(organizationId, current, now());
  });
  return serviceId;
}

/** Read, merge, then the scenario and its service's summary in one transaction on condition of the version read. */
export async function updateScenario(organizationId: string, scenarioId: number, changes: ScenarioChanges): Promise<Scenario> {
  const updated = await updateVersioned({
    read: () => getVersionedScenario(organizationId, scenarioId),
    merge: (current) => v.parse(Scenario, { ...current, ...defined(changes), updatedAt: now() }),
    notFound: () => new NotFoundError(SCENARIO_NOT_FOUND),
    write: (current, next) => writeScenarioVersion(organizationId, current, next, defined(changes)),
  });
  return updated.value;
}
