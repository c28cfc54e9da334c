import { MAX_SCENARIO_LINKS, } from './scenario-schema';
import { readRow } from '#shared/routes/rows';
import * as schema from './schema';
import * as scenarioSchema from './scenario-schema';
import { recordRows } from '#shared/routes/record-rows';
import { TradeCategoryList } from './trade-categories';
import { prose } from '#shared/prose';

const service = recordRows(schema, { tag: 'Services', names: { one: 'Service', many: 'Services' }, path: '/v1/services', changeLog: true, catalog: true });
const scenario = recordRows(scenarioSchema, { tag: 'Scenarios', names: { one: 'Scenario', many: 'Scenarios' }, path: '/v1/scenarios', changeLog: true, catalog: true });

export const createService = service.create({
  summary: 'Create a service and its scenario',
  description: prose`
    A trade service and the AI-receptionist scenario it starts with, written together. \`pricingType\` decides which
    price fields are required: FIXED \`price\`, HOURLY \`hourlyRate\`, CALL_OUT \`callOutFee\`, RANGE \`minPrice\` and
    \`maxPrice\` (the names products use), and \`minPrice\` ≤ \`maxPrice\`. The older names \`pricingMode\` and
    \`fixedPrice\` are still taken, but never beside \`pricingType\` and \`price\` (400 naming the older). A name
    already used in the organization, ignoring case and spacing, answers 409 and writes nothing. \`memberIds\` are
    the members who take the service, whom GET /v1/availability offers and holds take (none, the default: every
    member); each must be a member of the organization, or 400 naming its place (\`memberIds.0\`).
  `,
  // BatchGetItem: the members memberIds names; ConditionCheckItem: each still a member when the service is written.
  dynamodb: ['UpdateItem', 'PutItem', 'BatchGetItem', 'ConditionCheckItem'],
  errors: [409],
});

export const getService = service.get({ summary: 'Read a service with its scenario summary', description: 'One service with the summary of its scenario. Another organization\'s service answers 404.' });

export const getScenario = scenario.get({ summary: 'Read a scenario in full', description: 'One AI-receptionist scenario with its prompt, questions and outcome. Another organization\'s scenario answers 404.' });

export const listServices = service.list({
  summary: 'List services, newest first',
  description: prose`
    The organization’s services with their scenario summaries, filtered by \`tradeCategoryId\` (a catalog id, as GET
    /v1/trade-categories lists them) and \`isActive\`. \`totalCount\` counts every service that passes the filters.
  `,
});

export const updateService = service.update({
  summary: 'Change any subset of a service’s fields, pricing included',
  description: prose`
    Fields left out keep their values; a price or \`customPriceResponse\` sent as null is cleared. The merged service
    is checked as a create is (\`pricingType\` requires its price, \`minPrice\` ≤ \`maxPrice\`, an active custom price
    response needs its text). A name already used in the organization, ignoring case and spacing, answers 409. The
    service’s scenario is not changed: change it with PATCH /v1/scenarios/{scenarioId}. \`memberIds\` replaces the
    service’s members as a whole, each a member of the organization (400 naming its place otherwise); \`[]\` offers
    every member again.
  `,
  // BatchGetItem: the members memberIds names; ConditionCheckItem: each one named anew still a member when the service is written.
  dynamodb: ['GetItem', 'PutItem', 'DeleteItem', 'BatchGetItem', 'ConditionCheckItem'],
  errors: [409],
});

export const deleteService = service.delete({
  summary: 'Delete a service and its scenario',
  description: `Removes the service, its scenario and its name in one transaction; every transfer rule that named the scenario gets \`scenarioId: null\` in the same transaction. A scenario named by more than ${MAX_SCENARIO_LINKS} transfer rules answers 409 and nothing is deleted.`,
  dynamodb: ['GetItem', 'Query', 'DeleteItem', 'UpdateItem', 'PutItem'],
  errors: [409],
});

export const listScenarios = scenario.list({
  summary: 'List scenarios, newest first',
  description: prose`
    The organization’s AI-receptionist scenarios in full, filtered by \`isActive\` and by \`tradeServiceId\` (the
    service a scenario belongs to; an id that is not one lists none). \`totalCount\` counts every scenario that passes
    the filters.
  `,
});

export const updateScenario = scenario.update({
  summary: 'Change a scenario’s name, prompt, response, questions or outcome',
  description: 'Fields left out keep their values; `questions` (with their answer options and follow-ups) and `outcome` are replaced whole. The service’s nested scenario summary changes in the same transaction. Concurrent updates are applied one after another, never lost.',
  dynamodb: ['GetItem', 'UpdateItem'],
  errors: [409],
});

export const listTradeCategories = readRow({
  operationId: 'listTradeCategories',
  path: '/v1/trade-categories',
  summary: 'List the trade categories a service or product can name',
  description: prose`
    The built-in catalog \`tradeCategoryId\` names, the same for every organization, in its order (the order GET
    /v1/organization/services groups by). It changes only with a release: ids are never reused or renumbered, and a
    new category takes the next id. Read from the deployed code, with no DynamoDB call.
  `,
  tag: 'Services',
  dynamodb: [],
  request: {},
  response: TradeCategoryList,
});

export const serviceRoutes = [createService, listServices, getService, updateService, deleteService, listScenarios, getScenario, updateScenario, listTradeCategories];
