import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../functions/resources';
import type { RouteDefinition } from '../shared/routes/route';
import { itemsOf } from './support/fixtures';
import { useTestApi, type Client } from './support/api';

const api = useTestApi();

/** Organization A's ids, by the parameter or field name that carries them. */
type Ids = Record<string, string | number>;

interface Case {
  /** Path (with A's ids filled in) and, for writes, a body that is valid except that it names A's records. */
  path: (ids: Ids) => string;
  body?: (ids: Ids) => unknown;
  /** What B may be answered: not found, a refused reference, or a list without A's records. */
  expect: 'not-found' | 'refused' | 'empty-list' | 'batch-not-found';
}

/**
 * Every route where an id enters, with organization A's ids. A route that takes no id of another record is
 * listed in NO_ID_ENTERS with the reason; the last test fails for a route in neither, so a new route is
 * classified before it ships.
 */
const CASES: Record<string, Case[]> = {
  listLeads: [{ path: (ids) => `/v1/leads?companyId=${ids.companyId}`, expect: 'empty-list' }, { path: (ids) => `/v1/leads?companyId=${ids.companyId}&status=NEW`, expect: 'empty-list' }],
  createLead: [{ path: () => '/v1/leads', body: (ids) => ({ name: 'B lead', email: 'b@example.com', companyId: ids.companyId }), expect: 'refused' }],
  getLead: [{ path: (ids) => `/v1/leads/${ids.leadId}`, expect: 'not-found' }],
  updateLead: [{ path: (ids) => `/v1/leads/${ids.leadId}`, body: () => ({ status: 'LOST' }), expect: 'not-found' }],
  deleteLead: [{ path: (ids) => `/v1/leads/${ids.leadId}`, expect: 'not-found' }],
  listLeadActivities: [{ path: (ids) => `/v1/leads/${ids.leadId}/activities`, expect: 'not-found' }],
  createAppointment: [
    { path: () => '/v1/appointments', body: (ids) => ({ leadId: ids.leadId, title: 'x', startsAt: '2027-01-01T09:00:00Z', endsAt: '2027-01-01T10:00:00Z' }), expect: 'not-found' },
  ],
  listAppointments: [{ path: (ids) => `/v1/appointments?leadId=${ids.leadId}`, expect: 'empty-list' }, { path: () => '/v1/appointments?from=2000-01-01T00:00:00Z', expect: 'empty-list' }],
  getAppointment: [{ path: (ids) => `/v1/appointments/${ids.appointmentId}`, expect: 'not-found' }],
  updateAppointment: [{ path: (ids) => `/v1/appointments/${ids.appointmentId}`, body: () => ({ status: 'CANCELLED' }), expect: 'not-found' }],
  getCompany: [{ path: (ids) => `/v1/companies/${ids.companyId}`, expect: 'not-found' }],
  updateCompany: [{ path: (ids) => `/v1/companies/${ids.companyId}`, body: () => ({ name: 'Taken' }), expect: 'not-found' }],
  listCompanyNotes: [{ path: (ids) => `/v1/companies/${ids.companyId}/notes`, expect: 'not-found' }],
  createCompanyNote: [{ path: (ids) => `/v1/companies/${ids.companyId}/notes`, body: () => ({ value: 'x' }), expect: 'not-found' }],
  updateCompanyNote: [{ path: (ids) => `/v1/companies/${ids.companyId}/notes/${ids.noteId}`, body: () => ({ value: 'x' }), expect: 'not-found' }],
  deleteCompanyNote: [{ path: (ids) => `/v1/companies/${ids.companyId}/notes/${ids.noteId}`, expect: 'not-found' }],
  updateOrganizationMember: [{ path: (ids) => `/v1/organization/members/${ids.memberId}`, body: () => ({ isDisabled: true }), expect: 'not-found' }],
  acceptOrganizationInvitation: [{ path: (ids) => `/v1/organization/invitations/${ids.invitationId}/accept`, body: () => ({ firstName: 'B', lastName: 'B' }), expect: 'not-found' }],
  getService: [{ path: (ids) => `/v1/services/${ids.serviceId}`, expect: 'not-found' }],
  getScenario: [{ path: (ids) => `/v1/scenarios/${ids.scenarioId}`, expect: 'not-found' }],
  updateProduct: [{ path: (ids) => `/v1/products/${ids.productId}`, body: () => ({ isActive: false }), expect: 'not-found' }],
  batchUpdateProducts: [{ path: () => '/v1/products/batch', body: (ids) => ({ updates: [{ id: ids.productId, name: 'Taken' }] }), expect: 'batch-not-found' }],
  createTransfer: [
    {
      path: () => '/v1/transfers',
      body: (ids) => ({ label: 'B', method: 'COLD', destinationType: 'DEPARTMENT', destination: 'Office', conditions: 'Always', scenarioId: ids.scenarioId }),
      expect: 'refused',
    },
  ],
  updateTransfer: [{ path: (ids) => `/v1/transfers/${ids.transferId}`, body: () => ({ isEnabled: false }), expect: 'not-found' }],
  updatePolicy: [{ path: (ids) => `/v1/policies/${ids.policyId}`, body: () => ({ isActive: false }), expect: 'not-found' }],
  deletePolicy: [{ path: (ids) => `/v1/policies/${ids.policyId}`, expect: 'not-found' }],
  updateFaq: [{ path: (ids) => `/v1/faqs/${ids.faqId}`, body: () => ({ isActive: false }), expect: 'not-found' }],
  deleteFaq: [{ path: (ids) => `/v1/faqs/${ids.faqId}`, expect: 'not-found' }],
  listInquiries: [
    { path: (ids) => `/v1/inquiries?leadId=${ids.leadId}`, expect: 'empty-list' },
    { path: (ids) => `/v1/inquiries?leadId=${ids.leadId}&source=CALL`, expect: 'empty-list' },
    { path: (ids) => `/v1/inquiries?leadId=${ids.leadId}&expand=both`, expect: 'empty-list' },
  ],
  getInquiry: [{ path: (ids) => `/v1/inquiries/${ids.inquiryId}`, expect: 'not-found' }],
  updateInquiry: [{ path: (ids) => `/v1/inquiries/${ids.inquiryId}`, body: () => ({ isRead: true }), expect: 'not-found' }],
  sendSms: [
    { path: () => '/v1/sms', body: (ids) => ({ userId: ids.userId, leadId: ids.leadId, message: 'Hi' }), expect: 'not-found' },
    { path: () => '/v1/sms', body: (ids) => ({ userId: ids.userId, leadId: ids.leadId, message: 'Hi', messageThreadId: ids.threadId }), expect: 'not-found' },
  ],
};

/** Routes where no id of another record enters: they read or create only the caller's own. */
CASES.deleteInboundEndpoint = [{ path: (ids) => `/v1/inbound-endpoints/${ids.inboundEndpointId}`, expect: 'not-found' }];
CASES.rotateInboundEndpoint = [{ path: (ids) => `/v1/inbound-endpoints/${ids.inboundEndpointId}/rotate`, expect: 'not-found' }];
CASES.getWebhook = [{ path: (ids) => `/v1/webhooks/${ids.webhookId}`, expect: 'not-found' }];
CASES.updateWebhook = [{ path: (ids) => `/v1/webhooks/${ids.webhookId}`, body: () => ({ isEnabled: false }), expect: 'not-found' }];
CASES.deleteWebhook = [{ path: (ids) => `/v1/webhooks/${ids.webhookId}`, expect: 'not-found' }];
CASES.rotateWebhookSecret = [{ path: (ids) => `/v1/webhooks/${ids.webhookId}/rotate-secret`, expect: 'not-found' }];
CASES.listWebhookDeliveries = [{ path: (ids) => `/v1/webhooks/${ids.webhookId}/deliveries`, expect: 'not-found' }];

// A PATCH alias answers as its PUT does: the same cases, sent as PATCH.
for (const route of routes) if (route.aliasOf && CASES[route.aliasOf]) CASES[route.operationId] = CASES[route.aliasOf]!;

const NO_ID_ENTERS: Record<string, string> = {
  listCompanies: 'lists the caller’s companies; no filter takes an id',
  createCompany: 'creates; references nothing',
  getOrganization: 'the key’s own organization',
  updateOrganization: 'the key’s own organization',
  listOrganizationMembers: 'lists the caller’s members',
  createOrganizationMember: 'creates; references nothing',
  listOrganizationInvitations: 'lists the caller’s invitations',
  createOrganizationInvitation: 'creates; references nothing',
  listOrganizationServices: 'lists the caller’s services',
  createService: 'creates; references nothing',
  createProduct: 'creates; references nothing',
  listPolicies: 'lists the caller’s policies',
  createPolicy: 'creates; references nothing',
  listFaqs: 'lists the caller’s FAQs',
  createFaq: 'creates; references nothing',
  listEvents: 'lists the caller’s events; the type filter is a name, not an id',
  listWebhooks: 'lists the caller’s webhooks',
  ingestInquiry: 'creates; the lead is found by email or phone among the caller’s own leads',
  createWebhook: 'creates; references nothing',
  createInboundEndpoint: 'creates; references nothing',
  listInboundEndpoints: 'lists the caller’s inbound endpoints',
};

describe("another organization's ids, on every route where an id enters", () => {
  let a: { organizationId: string; client: Client; demo?: Record<string, unknown> };
  let b: Client;
  let ids: Ids;
  let before: string[];

  beforeAll(async () => {
    a = await api.organization({ demo: true });
    b = (await api.organization()).client;
    const demo = a.demo as Record<string, (string | number)[]> & { smsThreadId: string };
    const note = (await a.client.get(`/v1/companies/${demo.companyIds![0]}/notes`)).body.notes[0];
    const invitation = (await a.client.get('/v1/organization/invitations')).body.invitations[0];
    ids = {
      leadId: demo.leadIds![0]!,
      companyId: demo.companyIds![0]!,
      noteId: note.id,
      appointmentId: demo.appointmentIds![0]!,
      memberId: demo.memberIds![0]!,
      userId: demo.userIds![0]!,
      invitationId: invitation.id,
      serviceId: demo.serviceIds![0]!,
      scenarioId: demo.scenarioIds![0]!,
      productId: demo.productIds![0]!,
      transferId: demo.transferIds![0]!,
      policyId: demo.policyIds![0]!,
      faqId: demo.faqIds![0]!,
      inquiryId: demo.inquiryIds![0]!,
      threadId: demo.smsThreadId,
      webhookId: (await a.client.post('/v1/webhooks', { url: 'https://hooks.example.com/a', events: ['*'] })).body.webhook.id,
      inboundEndpointId: (await a.client.post('/v1/inbound-endpoints', { name: 'Form', source: 'WEBFORM' })).body.inboundEndpoint.id,
    };
    before = await itemsOf(a.organizationId);
  }, 120_000);

  const cases = Object.entries(CASES).flatMap(([operationId, list]) => list.map((c, i) => [`${operationId} #${i + 1}`, operationId, c] as const));

  it.each(cases)('%s: organization B is answered as if the record did not exist', async (_, operationId, c) => {
    const route = routes.find((candidate) => candidate.operationId === operationId)!;
    const res = await b.request(route.method, c.path(ids), c.body ? { body: c.body(ids) } : {});
    const leaked = Object.values(ids).filter((id) => typeof id === 'string' && JSON.stringify(res.body).includes(id) && !c.path(ids).includes(id) && !JSON.stringify(c.body?.(ids) ?? '').includes(id));
    expect(leaked, 'A’s ids in B’s answer, beyond those B sent').toEqual([]);
    if (c.expect === 'not-found') expect(res.status).toBe(404);
    if (c.expect === 'refused') expect([400, 404]).toContain(res.status);
    if (c.expect === 'empty-list') expect(res.body.totalCount).toBe(0);
    if (c.expect === 'batch-not-found') expect(res.body.results).toEqual([{ id: ids.productId, status: 'error', code: 'NOT_FOUND', message: 'Trade product not found' }]);
  });

  it("leaves every one of A's items exactly as it was", async () => {
    expect(await itemsOf(a.organizationId)).toEqual(before);
  });

  it('classifies every route that takes an API key', () => {
    const unclassified = routes
      .filter((route: RouteDefinition) => route.auth !== 'none')
      .map((route) => route.operationId)
      .filter((operationId) => !(operationId in CASES) && !(operationId in NO_ID_ENTERS));
    expect(unclassified, 'add the route to CASES (an id enters) or NO_ID_ENTERS (why none does)').toEqual([]);
  });
});
