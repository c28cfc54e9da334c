import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import { listAppointmentsPage } from '../../shared/repositories/appointments';
import * as routes from '../../shared/routes/appointments';

export const handler = apiHandler(routes.listAppointments, async ({ query, organizationId }) =>
  pageEnvelope('appointments', await listAppointmentsPage(organizationId, query)),
);
