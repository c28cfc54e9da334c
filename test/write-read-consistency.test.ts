import { describe, expect, it } from 'vitest';
import { createMember } from '../functions/organization/member-rules';
import { applyReceipt } from '../functions/sms/receipts';
import { withSilentProvider } from './support/silent-sms';
import { useTestApi, type Client } from './support/api';
import { created, createService, cut, fixedProduct } from './support/fixtures';

/**
 * What a write answers, what reads answer right after, and what integrators are told about the change (events, the
 * `updatedSince` change log, the audit log) must agree.
 */
const api = useTestApi({ events: true });

type Event = { id: string; type: string; occurredAt: string; data: Record<string, any>; previousAttributes?: Record<string, any> };

/** Every event of the organization, newest first, once the stream consumer has caught up. */
async function eventsOf(client: Client): Promise<Event[]> {
  await api.eventsCaughtUp();
  const res = await client.get('/v1/events?limit=100');
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.events;
}


async function read(client: Client, path: string, key: string) {
  const res = await client.get(path);
  expect(res.status, `GET ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body[key];
}

async function listed(client: Client, path: string, key: string, id: unknown) {
  const res = await client.get(`${path}?limit=100`);
  expect(res.status, `GET ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return (res.body[key] as any[]).find((item) => item.id === id);
}

async function changedSince(client: Client, path: string, key: string, since: string): Promise<string[]> {
  const res = await client.get(`${path}?updatedSince=${encodeURIComponent(since)}&limit=100`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body[key] as { id: string }[]).map((item) => item.id);
}

async function leadWithSender() {
  const organization = await api.organization();
  const member = await createMember(organization.organizationId, { role: 'MEMBER', firstName: 'Priya', lastName: 'Sharma', email: 'priya@example.com' });
  const lead = await created(organization.client, '/v1/leads', 'lead', { name: 'Olivia Nguyen', email: 'olivia@example.com', phone: '+61412345001' });
  return { ...organization, userId: member.user.id as string, lead };
}

describe('POST /v1/sms answers the message as it was stored', () => {
  it('answers the updatedAt that GET /v1/sms/{smsId} and the sms.sent event carry', async () => {
    // README "Events and webhooks": data is the resource as the API returns it; api-conventions "Sync": updatedAt is
    // the time of the last write. The send's answer must be that record, not a time taken after the write.
    await withSilentProvider(async () => {
      const { client, userId, lead } = await leadWithSender();
      const res = await client.post('/v1/sms', { userId, leadId: lead.id, message: 'On our way' });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      const answered = res.body.sms;
      const stored = await read(client, `/v1/sms/${answered.id}`, 'sms');
      expect(stored.status).toBe('SENT');
      const sent = (await eventsOf(client)).find((event) => event.type === 'sms.sent');
      expect(sent?.data).toEqual(stored);
      expect(answered).toEqual(stored);
    });
  });
});

describe('an SMS inquiry, whose thread shows its messages, comes again to a poller', () => {
  it('when an outbound message joins its thread (POST /v1/sms with messageThreadId)', async () => {
    // docs/decisions/api-conventions.md "Sync": updatedAt is moved by every write of what the API shows; an SMS
    // inquiry shows its thread's messages (GET /v1/inquiries/{id}: data.messages), as test/sync.test.ts holds for replies.
    await withSilentProvider(async () => {
      const { client, userId, lead } = await leadWithSender();
      const first = (await client.post('/v1/sms', { userId, leadId: lead.id, message: 'Can we come at 10?' })).body.sms;
      const since = await cut();
      const second = await client.post('/v1/sms', { userId, leadId: lead.id, message: 'Running 10 minutes late', messageThreadId: first.messageThreadId });
      expect(second.status, JSON.stringify(second.body)).toBe(201);

      const shown = await client.get(`/v1/inquiries/${first.inquiryId}`);
      expect(shown.body.data.messages.map((message: { body: string }) => message.body)).toContain('Running 10 minutes late');
      expect(shown.body.updatedAt >= since, `updatedAt ${shown.body.updatedAt} moved by the message sent at or after ${since}`).toBe(true);
      expect(await changedSince(client, '/v1/inquiries', 'inquiries', since)).toEqual([first.inquiryId]);
    });
  });

  it("when a delivery receipt moves a message's status, which its thread shows", async () => {
    await withSilentProvider(async () => {
      const { client, organizationId, userId, lead } = await leadWithSender();
      const sms = (await client.post('/v1/sms', { userId, leadId: lead.id, message: 'Can we come at 10?' })).body.sms;
      const since = await cut();
      expect(await applyReceipt({ eventType: 'TEXT_DELIVERED', messageId: `receipt-${sms.id}`, context: { organizationId, inquiryId: sms.inquiryId, messageId: sms.id } })).toBe(true);

      const shown = (await client.get(`/v1/inquiries/${sms.inquiryId}`)).body;
      expect(shown.data.messages).toEqual([expect.objectContaining({ id: sms.id, status: 'DELIVERED' })]);
      expect(shown.updatedAt >= since, `updatedAt ${shown.updatedAt} moved by the receipt at or after ${since}`).toBe(true);
      expect(await changedSince(client, '/v1/inquiries', 'inquiries', since)).toEqual([sms.inquiryId]);
    });
  });
});

describe('POST /v1/inbound-endpoints/{id}/rotate', () => {
  it('moves the endpoint’s updatedAt, as the update the audit log records for it and as a webhook’s rotation does', async () => {
    // api-conventions "Sync": every record's updatedAt is the time of the last write of it.
    const { client } = await api.organization();
    const endpoint = (await client.post('/v1/inbound-endpoints', { name: 'Website form', source: 'WEBFORM' })).body.inboundEndpoint;
    const since = await cut();
    const rotated = await client.post(`/v1/inbound-endpoints/${endpoint.id}/rotate`, {});
    expect(rotated.status).toBe(200);

    await api.eventsCaughtUp();
    const entries = (await client.get(`/v1/audit-log?resourceType=inbound_endpoint&resourceId=${endpoint.id}`)).body.entries;
    expect(entries.map((entry: { action: string; path: string }) => `${entry.action} ${entry.path}`)).toEqual([`updated /v1/inbound-endpoints/${endpoint.id}/rotate`, 'created /v1/inbound-endpoints']);

    const shown = await read(client, `/v1/inbound-endpoints/${endpoint.id}`, 'inboundEndpoint');
    expect(rotated.body.inboundEndpoint.updatedAt).toBe(shown.updatedAt);
    expect(shown.updatedAt >= since, `updatedAt ${shown.updatedAt} moved by the rotation at or after ${since}`).toBe(true);
    expect(await changedSince(client, '/v1/inbound-endpoints', 'inboundEndpoints', since)).toEqual([endpoint.id]);
  });
});

describe('what a write answers is what reads and events show', () => {
  it('for each record kind: the create and the change each answer the record GET, the list and the event carry', async () => {
    const { client } = await api.organization();
    const member = await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
    const service = await createService(client, { name: 'Gutter clean', duration: 2, durationUnit: 'HOURS', tradeCategoryId: 5 });
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Ada Lovelace', email: 'ada@example.com' });
    const company = await created(client, '/v1/companies', 'company', { name: 'Harbourside Strata' });
    type Kind = { path: string; list: string; key: string; type: string; create: () => Promise<any>; change: (id: unknown) => Promise<any> };
    const kinds: Kind[] = [
      { path: '/v1/leads', list: 'leads', key: 'lead', type: 'lead', create: async () => lead, change: (id) => client.patch(`/v1/leads/${id}`, { status: 'CONTACTED', suburb: 'Newtown' }) },
      { path: '/v1/companies', list: 'companies', key: 'company', type: 'company', create: async () => company, change: (id) => client.put(`/v1/companies/${id}`, { address: '1 Military Rd' }) },
      { path: `/v1/companies/${company.id}/notes`, list: 'notes', key: 'note', type: 'company_note', create: () => created(client, `/v1/companies/${company.id}/notes`, 'note', { value: 'Gate 4412' }), change: (id) => client.put(`/v1/companies/${company.id}/notes/${id}`, { value: 'Gate 4413' }) },
      { path: '/v1/organization/members', list: 'members', key: 'member', type: 'member', create: async () => member, change: (id) => client.patch(`/v1/organization/members/${id}`, { position: 'Plumber' }) },
      { path: '/v1/services', list: 'services', key: 'service', type: 'service', create: async () => service, change: (id) => client.patch(`/v1/services/${id}`, { duration: 3 }) },
      { path: '/v1/scenarios', list: 'scenarios', key: 'scenario', type: 'scenario', create: () => read(client, `/v1/scenarios/${service.scenario.id}`, 'scenario'), change: (id) => client.patch(`/v1/scenarios/${id}`, { response: 'We can help.' }) },
      { path: '/v1/products', list: 'products', key: 'product', type: 'product', create: () => created(client, '/v1/products', 'product', fixedProduct('Tap washer')), change: (id) => client.put(`/v1/products/${id}`, { price: 200 }) },
      {
        path: '/v1/transfers', list: 'transfers', key: 'transfer', type: 'transfer',
        create: () => created(client, '/v1/transfers', 'transfer', { label: 'After hours', method: 'WARM', destinationType: 'PHONE_NUMBER', destination: '+61298765432', conditions: 'An emergency after hours.' }),
        change: (id) => client.put(`/v1/transfers/${id}`, { isEnabled: false }),
      },
      { path: '/v1/policies', list: 'policies', key: 'policy', type: 'policy', create: () => created(client, '/v1/policies', 'policy', { title: 'Call-out fee', content: '$99.' }), change: (id) => client.put(`/v1/policies/${id}`, { isActive: false }) },
      { path: '/v1/faqs', list: 'faqs', key: 'faq', type: 'faq', create: () => created(client, '/v1/faqs', 'faq', { question: 'Licensed?', answer: 'Yes.' }), change: (id) => client.put(`/v1/faqs/${id}`, { answer: 'Yes, NSW 12345.' }) },
      {
        path: '/v1/appointments', list: 'appointments', key: 'appointment', type: 'appointment',
        create: () => created(client, '/v1/appointments', 'appointment', { leadId: lead.id, title: 'Inspection', startsAt: '2027-02-01T09:00:00Z', endsAt: '2027-02-01T10:00:00Z', attendees: [{ userId: member.user.id }] }),
        change: (id) => client.patch(`/v1/appointments/${id}`, { startsAt: '2027-02-01T11:00:00Z', endsAt: '2027-02-01T12:00:00Z' }),
      },
    ];
    const made: Record<string, any> = {};
    for (const kind of kinds) {
      const record = await kind.create();
      made[kind.type] = record;
      expect(await read(client, `${kind.path}/${record.id}`, kind.key), `${kind.type}: create vs GET`).toEqual(record);
      const res = await kind.change(record.id);
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const changed = res.body[kind.key];
      expect(await read(client, `${kind.path}/${record.id}`, kind.key), `${kind.type}: change vs GET`).toEqual(changed);
      expect(await listed(client, kind.path, kind.list, record.id), `${kind.type}: change vs list`).toEqual(changed);
    }
    // Each record's events, against the record as GET answers it now (a scenario PATCH moved its service since).
    const events = await eventsOf(client);
    for (const kind of kinds) {
      const record = made[kind.type];
      const now = await read(client, `${kind.path}/${record.id}`, kind.key);
      const of = (suffix: string) => events.filter((event) => event.type === `${kind.type}.${suffix}` && event.data.id === record.id);
      expect(of('created').map((event) => event.data), `${kind.type}.created`).toEqual([record]);
      const [latest] = of('updated');
      expect(latest?.data, `${kind.type}.updated`).toEqual(now);
      const fields = Object.keys(latest!.previousAttributes!);
      expect(fields.length, `${kind.type}.updated lists what changed`).toBeGreaterThan(0);
      expect(fields.filter((field) => field === 'updatedAt' || JSON.stringify(record[field] ?? null) === JSON.stringify(now[field] ?? null)), `${kind.type}.updated lists only changed fields`).toEqual([]);
    }
  });
});
