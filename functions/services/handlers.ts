import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';
import { createService } from './rules';
import { getService, getScenario } from './store';

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
