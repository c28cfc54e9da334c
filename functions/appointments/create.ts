import { createAppointment } from '../../shared/domain/appointments';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/appointments';

export const handler = apiHandler(routes.createAppointment, async ({ body, organizationId }) => ({
  appointment: await createAppointment(organizationId, body),
}));
