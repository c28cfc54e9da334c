import { apiHandler } from '#shared/http/api-handler';
import * as routes from './routes';
import { pageEnvelope } from '#shared/pagination';
import { createService, deleteService, updateScenario, updateService } from './rules';
import { getService, getScenario, listScenariosPage, listServicesPage } from './store';
import { TRADE_CATEGORIES } from './trade-categories';

/** The handlers of the services routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const createServiceHandler = apiHandler(routes.createService, async ({ body, organizationId }) => ({
  service: await createService(organizationId, body),
}));

export const getServiceHandler = apiHandler(routes.getService, async ({ path, organizationId }) => ({
  service: await getService(organizationId, path.serviceId),
}));

export const getScenarioHandler = apiHandler(routes.getScenario, async ({ path, organizationId }) => ({
  scenario: await getScenario(organizationId, path.scenarioId),
}));

export const listServicesHandler = apiHandler(routes.listServices, async ({ query, organizationId }) => pageEnvelope('services', await listServicesPage(organizationId, query)));

export const updateServiceHandler = apiHandler(routes.updateService, async ({ path, body, organizationId }) => ({
  service: await updateService(organizationId, path.serviceId, body),
}));

export const deleteServiceHandler = apiHandler(routes.deleteService, async ({ path, organizationId }) => ({
  success: true as const,
  id: await deleteService(organizationId, path.serviceId),
}));

export const listScenariosHandler = apiHandler(routes.listScenarios, async ({ query, organizationId }) => pageEnvelope('scenarios', await listScenariosPage(organizationId, query)));

export const updateScenarioHandler = apiHandler(routes.updateScenario, async ({ path, body, organizationId }) => ({
  scenario: await updateScenario(organizationId, path.scenarioId, body),
}));

export const listTradeCategoriesHandler = apiHandler(routes.listTradeCategories, async () => ({ tradeCategories: [...TRADE_CATEGORIES], totalCount: TRADE_CATEGORIES.length }));
