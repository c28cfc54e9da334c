import { NotFoundError } from '#shared/errors';
import { apiHandler } from '#shared/http/api-handler';
import { pageEnvelope } from '#shared/pagination';
import * as routes from './routes';
import { addLeadActivity, createLead, listLeads, updateLead, upsertLead } from './rules';
import { withPhoneRead } from './phones';
import { getLead, deleteLeadWithActivities, listActivitiesPage } from './store';
import { Answer } from '#shared/http/answer';

/** The handlers of the leads routes, one per route, named by its operationId: the stack bundles this module into each route's function. */
export const listLeadsHandler = apiHandler(routes.listLeads, async ({ query, organizationId }) => pageEnvelope('leads', await listLeads(organizationId, query)));

export const createLeadHandler = apiHandler(routes.createLead, async ({ body, organizationId }) => ({
  lead: await createLead(organizationId, body),
}));

export const upsertLeadHandler = apiHandler(routes.upsertLead, async ({ body, organizationId }) => {
  const { lead, created } = await upsertLead(organizationId, body);
  return created ? { lead, created } : new Answer(200, { lead, created });
});

export const getLeadHandler = apiHandler(routes.getLead, async ({ path, organizationId }) => {
  const lead = await getLead(organizationId, path.leadId);
  if (!lead) throw new NotFoundError('Lead not found');
  return { lead };
});

export const updateLeadHandler = apiHandler(routes.updateLead, async ({ path, body, organizationId }) => ({
  lead: await updateLead(organizationId, path.leadId, await withPhoneRead(organizationId, body)),
}));

export const deleteLeadHandler = apiHandler(routes.deleteLead, async ({ path, organizationId }) => {
  await deleteLeadWithActivities(organizationId, path.leadId);
  return { success: true as const, id: path.leadId };
});

export const listLeadActivitiesHandler = apiHandler(routes.listLeadActivities, async ({ path, query, organizationId }) =>
  pageEnvelope('activities', await listActivitiesPage(organizationId, path.leadId, query)),
);

export const createLeadActivityHandler = apiHandler(routes.createLeadActivity, async ({ path, body, organizationId }) => ({
  activity: await addLeadActivity(organizationId, path.leadId, body),
}));
