import * as v from 'valibot';
import { apiHandler } from '#shared/http/api-handler';
import { pageEnvelope } from '#shared/pagination';
import { RECIPES } from './recipes';
import * as routes from './routes';
import { createAutomation, readAutomation, removeAutomation, updateAutomation } from './rules';
import { AutomationTemplateList } from './schema';
import { listAutomationsPage } from './store';

let templates: v.InferOutput<typeof AutomationTemplateList> | undefined;
/**
 * The recipes as the list answers them, read once per container at its first listing: not at import, which each of
 * this module's functions would pay at its cold start (about 1 ms) for the one route that answers them.
 */
const templatesAnswered = () => (templates ??= v.parse(AutomationTemplateList, { templates: RECIPES }));

/** The handlers of the automations routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const createAutomationHandler = apiHandler(routes.createAutomation, async ({ body, organizationId }) => createAutomation(organizationId, body));

export const listAutomationsHandler = apiHandler(routes.listAutomations, async ({ query, organizationId }) => pageEnvelope('automations', await listAutomationsPage(organizationId, query)));

export const getAutomationHandler = apiHandler(routes.getAutomation, async ({ path, organizationId }) => ({ automation: await readAutomation(organizationId, path.automationId) }));

export const updateAutomationHandler = apiHandler(routes.updateAutomation, async ({ path, body, organizationId }) => updateAutomation(organizationId, path.automationId, body));

export const deleteAutomationHandler = apiHandler(routes.deleteAutomation, async ({ path, organizationId }) => {
  await removeAutomation(organizationId, path.automationId);
  return { success: true as const, id: path.automationId };
});

export const listAutomationTemplatesHandler = apiHandler(routes.listAutomationTemplates, async () => templatesAnswered());

export * from './runs/handlers';
export * from './enrolments/handlers';
