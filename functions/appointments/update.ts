import { updateAppointment } from './rules';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';

export const handler = apiHandler(routes.updateAppointment, async ({ path, body, organizationId }) => ({
  appointment: await updateAppointment(organizationId, path.appointmentId, body),
}));
