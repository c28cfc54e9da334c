import { apiHandler } from '#shared/http/api-handler';
import { pageEnvelope } from '#shared/pagination';
import * as routes from './routes';
import { createAppointment, readAppointment, updateAppointment } from './rules';
import { listAppointmentsPage } from './store';
import { listLiveHoldsPage } from './hold-store';
import { createHold, findAvailability } from './availability-rules';

/** The handlers of the appointments and availability routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
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

export const findAvailabilityHandler = apiHandler(routes.findAvailability, async ({ query, organizationId }) => findAvailability(organizationId, query));

export const createHoldHandler = apiHandler(routes.createHold, async ({ body, organizationId }) => ({ hold: await createHold(organizationId, body) }));

export const listHoldsHandler = apiHandler(routes.listHolds, async ({ query, organizationId }) => pageEnvelope('holds', await listLiveHoldsPage(organizationId, query)));
