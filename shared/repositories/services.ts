import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { TRADE_CATEGORIES } from '../catalog/trade-categories';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { keys } from '../entities/keys';
import { fromScenarioItem, scenarioSummary, toScenarioItem } from '../entities/scenario';
import { fromServiceItem, toCategoryService, toServiceItem, toServiceNameItem } from '../entities/service';
import { ConflictError, NotFoundError } from '../errors';
import type { Scenario } from '../schemas/scenarios';
import type { CreateServiceBody, OrganizationServices, Service } from '../schemas/services';
import { queryAll } from './query-page';
import { reserveIds } from './sequences';
import { transact } from './transact';

export const SERVICE_SEQUENCE = 'SERVICE';
export const SCENARIO_SEQUENCE = 'SCENARIO';

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

export function serviceFromRequest(body: CreateServiceBody, id: number, scenario: Scenario, at: string): Service {
  return {
    id,
    name: body.name,
    description: body.description,
    duration: body.duration,
    durationUnit: body.durationUnit,
    followUpQuestions: body.followUpQuestions,
    tradeCategoryId: body.tradeCategoryId,
    pricingMode: body.pricingMode,
    fixedPrice: body.fixedPrice ?? null,
    hourlyRate: body.hourlyRate ?? null,
    callOutFee: body.callOutFee ?? null,
    minPrice: body.minPrice ?? null,
    maxPrice: body.maxPrice ?? null,
    plusGST: body.plusGST ?? false,
    plusMaterials: body.plusMaterials ?? false,
    isCustomPriceResponseActive: body.isCustomPriceResponseActive ?? false,
    customPriceResponse: body.customPriceResponse ?? null,
    isDisclosePrice: body.isDisclosePrice ?? false,
    isActive: body.isActive ?? true,
    teamAssignmentMethod: body.teamAssignmentMethod,
    scenario: scenarioSummary(scenario),
    createdAt: at,
    updatedAt: at,
  };
}

/**
 * The name claim, the service (with its scenario summary) and the scenario, in one transaction.
 * A taken name fails the first condition and nothing is written; the reserved ids stay unused.
 */
export async function createServiceWithScenario(organizationId: string, body: CreateServiceBody, at = new Date().toISOString()): Promise<Service> {
  const [serviceId, scenarioId] = await Promise.all([reserveIds(organizationId, SERVICE_SEQUENCE), reserveIds(organizationId, SCENARIO_SEQUENCE)]);
  const scenario = defaultScenario(body, scenarioId, serviceId, at);
  const service = serviceFromRequest(body, serviceId, scenario, at);
  const put = (Item: Record<string, unknown>) => ({ Put: { TableName: config.tableName, Item, ConditionExpression: 'attribute_not_exists(pk)' } });
  await transact(
    [put(toServiceNameItem(organizationId, service)), put(toServiceItem(organizationId, service)), put(toScenarioItem(organizationId, scenario))],
    (index) => (index === 0 ? new ConflictError(`A service named "${service.name}" already exists`) : new Error(`Service id ${serviceId} collided`)),
  );
  return service;
}

export async function getService(organizationId: string, serviceId: number): Promise<Service> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.service(organizationId, serviceId), ConsistentRead: true }));
  if (!Item) throw new NotFoundError('Service not found');
  return fromServiceItem(Item);
}

export async function getScenario(organizationId: string, scenarioId: number): Promise<Scenario> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.scenario(organizationId, scenarioId), ConsistentRead: true }));
  if (!Item) throw new NotFoundError('Scenario not found');
  return fromScenarioItem(Item);
}

/**
 * Every service of the organization (a small catalog, one Query), grouped under the trade
 * categories that have at least one, in catalog order; newest service first within a category.
 */
export async function listServicesByCategory(organizationId: string): Promise<OrganizationServices> {
  const services = (await queryAll(keys.services(organizationId))).map(fromServiceItem).reverse();
  const categories = TRADE_CATEGORIES.map((category) => ({
    id: category.id,
    name: category.name,
    type: category.type,
    services: services.filter((service) => service.tradeCategoryId === category.id).map(toCategoryService),
  })).filter((category) => category.services.length > 0);
  return { categories, totalCategories: categories.length, totalServices: services.length };
}
