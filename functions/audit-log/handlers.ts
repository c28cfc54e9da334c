import { apiHandler } from '#shared/http/api-handler';
import { pageEnvelope } from '#shared/pagination';
import * as routes from './routes';
import { listAuditEntriesPage } from './store';

/** The handlers of the audit log's routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const listAuditLogHandler = apiHandler(routes.listAuditLog, async ({ query, organizationId }) => pageEnvelope('entries', await listAuditEntriesPage(organizationId, query)));
