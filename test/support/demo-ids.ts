import { resources } from '../../functions/resources';
import type { Client } from './api';

/**
 * The demo organization's records, by the name of the parameter or field that carries their id: those named here,
 * and those a resource derives (a CRUD collection's, shared/crud/tests.ts: the demo's first, or one made now).
 */
export async function demoIds(client: Client, demo: Record<string, unknown>): Promise<Record<string, string | number>> {
  const first = (name: string) => (demo[name] as (string | number)[])[0]!;
  const company = first('companyIds');
  const derived: Record<string, string | number> = {};
  for (const { tests } of resources) Object.assign(derived, await tests?.isolationIds?.({ demo, client }));
  return {
    ...derived,
    leadId: first('leadIds'),
    companyId: company,
    noteId: (await client.get(`/v1/companies/${company}/notes`)).body.notes[0].id,
    memberId: first('memberIds'),
    userId: first('userIds'),
    invitationId: (await client.get('/v1/organization/invitations')).body.invitations[0].id,
    serviceId: first('serviceIds'),
    scenarioId: first('scenarioIds'),
    productId: first('productIds'),
    transferId: first('transferIds'),
    policyId: first('policyIds'),
    faqId: first('faqIds'),
    inquiryId: first('inquiryIds'),
    appointmentId: first('appointmentIds'),
    messageThreadId: demo.smsThreadId as string,
    webhookId: (await client.post('/v1/webhooks', { url: 'https://hooks.example.com/examples', events: ['*'] })).body.webhook.id,
    inboundEndpointId: (await client.post('/v1/inbound-endpoints', { name: 'Examples form', source: 'WEBFORM' })).body.inboundEndpoint.id,
    // Disabled: nothing the requests do starts a run of it.
    automationId: (await client.post('/v1/automations', { fromTemplate: 'quote_follow_up', isEnabled: false })).body.automation.id,
    runId: await enrolledRun(client, first('leadIds') as string),
  };
}

/** A run of the lead, enrolled by hand in an automation of its own, disabled after so nothing else starts one. */
async function enrolledRun(client: Client, leadId: string): Promise<string> {
  const automationId = (await client.post('/v1/automations', { fromTemplate: 'quote_follow_up' })).body.automation.id;
  const run = (await client.post(`/v1/automations/${automationId}/runs`, { leadId })).body.run;
  await client.patch(`/v1/automations/${automationId}`, { isEnabled: false });
  return run.id;
}

/** `value` with every id it names (a field called like one of `ids`) replaced by the organization's own, at any depth. */
export function withOwnIds(value: unknown, ids: Record<string, string | number>, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => withOwnIds(item, ids, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withOwnIds(item, ids, name)]));
  return key in ids && key.endsWith('Id') ? ids[key] : value;
}
