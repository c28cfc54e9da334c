import { apiHandler } from '#shared/http/api-handler';
import { NotFoundError } from '#shared/errors';
import { pageEnvelope } from '#shared/pagination';
import * as routes from './routes';
import { fromRunItem, toRunItem, type RunState } from './entity';
import { listLeadRunsPage, listRunsPage, listStoppedRunsPage, readRunState } from './store';
import { readAutomationDefinition } from '../store';

/**
 * What enrolling, previewing and cancelling read and write (the run's start and stops, the lead, appointment and
 * organization they read, the caps), loaded by those routes' functions at their first request: the module's other
 * functions (the automations' own routes, the runs' reads) never parse it.
 */
const runStart = () => import('./start');
const runStops = () => import('./stops');
const preview = () => import('./preview');

const runNotFound = () => new NotFoundError('Run not found');
const automationNotFound = () => new NotFoundError('Automation not found');
const shown = (state: RunState | undefined) => {
  if (!state) throw runNotFound();
  return fromRunItem(toRunItem(state));
};

/** The handlers of the runs' routes, one per route, named by its operationId. */
// The automation is read beside its runs' page, not before it: a page of an automation not there answers 404.
export const listAutomationRunsHandler = apiHandler(routes.listAutomationRuns, async ({ path, query, organizationId }) => {
  const [automation, page] = await Promise.all([readAutomationDefinition(organizationId, path.automationId), listRunsPage(organizationId, path.automationId, query)]);
  if (!automation) throw automationNotFound();
  return pageEnvelope('runs', page);
});

export const enrolAutomationLeadHandler = apiHandler(routes.enrolAutomationLead, async ({ path, body, organizationId }) => ({ run: await (await runStart()).enrolLead(organizationId, path.automationId, body) }));

export const previewAutomationHandler = apiHandler(routes.previewAutomation, async ({ path, body, organizationId }) => ({ preview: await (await preview()).previewAutomation(organizationId, path.automationId, body) }));

export const getAutomationRunHandler = apiHandler(routes.getAutomationRun, async ({ path, organizationId }) => ({ run: shown(await readRunState(organizationId, path.runId)) }));

export const cancelAutomationRunHandler = apiHandler(routes.cancelAutomationRun, async ({ path, organizationId }) => ({ run: shown(await (await runStops()).stopRun(organizationId, path.runId, 'cancelled')) }));

export const listStoppedAutomationRunsHandler = apiHandler(routes.listStoppedAutomationRuns, async ({ query, organizationId }) => pageEnvelope('runs', await listStoppedRunsPage(organizationId, query)));

export const listLeadAutomationRunsHandler = apiHandler(routes.listLeadAutomationRuns, async ({ path, query, organizationId }) => pageEnvelope('runs', await listLeadRunsPage(organizationId, path.leadId, query)));
