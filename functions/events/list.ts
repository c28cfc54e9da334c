import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listEventsPage } from '../../shared/repositories/events';
import * as routes from '../../shared/routes/events';

export const handler = apiHandler(routes.listEvents, async ({ query, organizationId }) => pageEnvelope('events', await listEventsPage(organizationId, query)));
