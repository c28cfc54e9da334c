import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listEventsPage } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.listEvents, async ({ query, organizationId }) => pageEnvelope('events', await listEventsPage(organizationId, query)));
