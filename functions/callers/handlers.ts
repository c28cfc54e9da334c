import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';
import { lookupCaller } from './rules';

/** The handlers of the callers routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const lookupCallerHandler = apiHandler(routes.lookupCaller, async ({ path, organizationId }) => lookupCaller(organizationId, path.phone));
