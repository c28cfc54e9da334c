import { apiHandler } from '../../shared/http/api-handler';
import { getScenario } from '../../shared/repositories/services';
import * as routes from '../../shared/routes/services';

export const handler = apiHandler(routes.getScenario, async ({ path, organizationId }) => ({
  scenario: await getScenario(organizationId, path.scenarioId),
}));
