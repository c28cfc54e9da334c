import { readAppointment } from '../../shared/domain/appointments';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/appointments';

export const handler = apiHandler(routes.getAppointment, async ({ path, organizationId }) => ({
  appointment: await readAppointment(organizationId, path.appointmentId),
}));
