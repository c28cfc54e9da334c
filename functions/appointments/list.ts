import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listAppointmentsPage } from './store';
import * as routes from './routes';

export const handler = apiHandler(routes.listAppointments, async ({ query, organizationId }) =>
  pageEnvelope('appointments', await listAppointmentsPage(organizationId, query)),
);
