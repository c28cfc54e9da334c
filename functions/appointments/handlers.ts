import { apiHandler } from '../../shared/http/api-handler';
import { pageEnvelope } from '../../shared/pagination';
import * as routes from './routes';
import { createAppointment, readAppointment, updateAppointment } from './rules';
import { listAppointmentsPage } from './store';

/** The handlers of the appointments routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const createAppointmentHandler = apiHandler(routes.createAppointment, async ({ body, organizationId }) => ({
  appointment: await createAppointment(organizationId, body),
}));

export const listAppointmentsHandler = apiHandler(routes.listAppointments, async ({ query, organizationId }) =>
  pageEnvelope('appointments', await listAppointmentsPage(organizationId, query)),
);

export const getAppointmentHandler = apiHandler(routes.getAppointment, async ({ path, organizationId }) => ({
  appointment: await readAppointment(organizationId, path.appointmentId),
}));

export const updateAppointmentHandler = apiHandler(routes.updateAppointment, async ({ path, body, organizationId }) => ({
  appointment: await updateAppointment(organizationId, path.appointmentId, body),
}));
