import { describe, expect, it } from 'vitest';
import { buildDocument } from '../functions/meta/document';
import { routes } from '../functions/resources';
import type { RouteDefinition } from '../shared/routes/route';
import { useTestApi, type Client } from './support/api';

const api = useTestApi();
const document = buildDocument() as { paths: Record<string, Record<string, { requestBody?: { content: Record<string, { example?: unknown }> } }>> };

const exampleOf = (route: RouteDefinition) => document.paths[route.path]![route.method.toLowerCase()]!.requestBody?.content['application/json']?.example;

/** Keyed routes that take a JSON body: each must show one, and the API must take it. */
const withBody = routes.filter((route) => route.request.body && route.auth !== 'none');

/** The demo organization's records, by the name of the parameter or field that carries their id. */
async function demoIds(client: Client, demo: Record<string, unknown>): Promise<Record<string, string | number>> {
  const first = (name: string) => (demo[name] as (string | number)[])[0]!;
  const company = first('companyIds');
  return {
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
  };
}

/** The example with the ids it names replaced by the organization's own, at any depth. */
function withOwnIds(value: unknown, ids: Record<string, string | number>, key = ''): unknown {
  if (Array.isArray(value)) return value.map((item) => withOwnIds(item, ids, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, withOwnIds(item, ids, name)]));
  return key in ids && key.endsWith('Id') ? ids[key] : value;
}

describe('the request example of every operation that takes a body', () => {
  it('is in the document', () => {
    expect(withBody.filter((route) => exampleOf(route) === undefined).map((route) => route.operationId)).toEqual([]);
  });

  it('is taken by the API: a 2xx, or a refusal the operation documents other than 400', async () => {
    const { client, demo } = await api.organization({ demo: true });
    const ids = await demoIds(client, demo!);
    const refused: string[] = [];
    for (const route of withBody) {
      const path = route.path.replace(/\{(\w+)\}/g, (_, name: string) => String(ids[name]));
      const res = await client.request(route.method, path, { body: withOwnIds(exampleOf(route), ids) });
      const accepted = res.status < 300 || (res.status !== 400 && route.errors.includes(res.status));
      if (!accepted) refused.push(`${route.method} ${route.path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    expect(refused).toEqual([]);
  }, 120_000);
});
