import { updateAppointment } from '../../shared/domain/appointments';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from '../../shared/routes/appointments';

export const handler = apiHandler(routes.updateAppointment, async ({ path, body, organizationId }) => ({
  appointment: await updateAppointment(organizationId, path.appointmentId, body),
}));
