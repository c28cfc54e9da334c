import { ScenarioIdPath, ScenarioResponse } from './scenario-schema';
import { CreateServiceBody, ServiceIdPath, ServiceResponse } from './schema';
import { defineRoute } from '../../shared/routes/route';

export const createService = defineRoute({
  operationId: 'createService',
  method: 'POST',
  path: '/v1/services',
  summary: 'Create a service and its scenario',
  description: 'A trade service and the AI-receptionist scenario it starts with, written together. `pricingMode` decides which price fields are required. A name already used in the organization, ignoring case and spacing, answers 409 and writes nothing.',
  tag: 'Services',
  dynamodb: ['UpdateItem', 'PutItem'],
  status: 201,
  request: { body: CreateServiceBody },
  response: ServiceResponse,
  errors: [400, 409],
});

export const getService = defineRoute({
  operationId: 'getService',
  method: 'GET',
  path: '/v1/services/{serviceId}',
  summary: 'Read a service with its scenario summary',
  description: 'One service with the summary of its scenario. Another organization\'s service answers 404.',
  tag: 'Services',
  dynamodb: ['GetItem'],
  status: 200,
  request: { path: ServiceIdPath },
  response: ServiceResponse,
  errors: [400, 404],
});

export const getScenario = defineRoute({
  operationId: 'getScenario',
  method: 'GET',
  path: '/v1/scenarios/{scenarioId}',
  summary: 'Read a scenario in full',
  description: 'One AI-receptionist scenario with its prompt, questions and outcome. Another organization\'s scenario answers 404.',
  tag: 'Scenarios',
  dynamodb: ['GetItem'],
  status: 200,
  request: { path: ScenarioIdPath },
  response: ScenarioResponse,
  errors: [400, 404],
});

export const serviceRoutes = [createService, getService, getScenario];
