import { apiHandler } from '#shared/http/api-handler';
import { pageEnvelope } from '#shared/pagination';
import * as routes from './routes';
import { getEvent, listEventsPage } from './store';
import { eventSamples } from './samples-of';

/** The handlers of the events routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const listEventsHandler = apiHandler(routes.listEvents, async ({ query, organizationId }) => pageEnvelope('events', await listEventsPage(organizationId, query)));

export const getEventHandler = apiHandler(routes.getEvent, async ({ path, organizationId }) => ({ event: await getEvent(organizationId, path.eventId) }));

export const listEventSamplesHandler = apiHandler(routes.listEventSamples, async ({ query, organizationId }) => ({ data: await eventSamples(organizationId, query.type) }));
