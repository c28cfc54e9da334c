import { apiHandler } from '../../shared/http/api-handler';
import { getScenario } from '../services/store';
import * as routes from '../services/routes';

export const handler = apiHandler(routes.getScenario, async ({ path, organizationId }) => ({
  scenario: await getScenario(organizationId, path.scenarioId),
}));
