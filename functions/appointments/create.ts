import { createAppointment } from './rules';
import { apiHandler } from '../../shared/http/api-handler';
import * as routes from './routes';

export const handler = apiHandler(routes.createAppointment, async ({ body, organizationId }) => ({
  appointment: await createAppointment(organizationId, body),
}));
