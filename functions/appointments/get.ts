import { readAppointment } from './rules';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';

export const handler = apiHandler(routes.getAppointment, async ({ path, organizationId }) => ({
  appointment: await readAppointment(organizationId, path.appointmentId),
}));
