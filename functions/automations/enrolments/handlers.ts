import { apiHandler } from '#shared/http/api-handler';
import * as routes from './routes';

// Each loaded by the one route that needs it: the automations' other routes bundle neither.
const starting = () => import('./start');
const jobs = () => import('./jobs');

/** The handlers of the bulk enrolments' routes, one per route, named by its operationId. */
export const startAutomationEnrolmentHandler = apiHandler(routes.startAutomationEnrolment, async ({ path, body, organizationId }) => ({
  enrolment: await (await starting()).startEnrolment(organizationId, path.automationId, body),
}));

export const getAutomationEnrolmentHandler = apiHandler(routes.getAutomationEnrolment, async ({ path, organizationId }) => ({
  enrolment: await (await jobs()).getEnrolment(organizationId, path.automationId, path.enrolmentId),
}));
