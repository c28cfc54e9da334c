import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKey, revokeApiKey } from '#shared/auth/api-keys';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { keys } from '#shared/store/keys';
import { organizationKeys } from '../functions/organization/entity';
import { receiveSms } from '../functions/sms/replies';
import { useTestApi, type Client } from './support/api';
import { itemsOf } from './support/fixtures';
import { webhookKeys } from '../functions/webhooks/entity';
import type { Key } from '#shared/store/keys';
import { deliver } from '../functions/webhooks/delivery';
import { DATA_KEY_CACHE, keyringsFromEnvironment, open, seal, sealingWith } from '#shared/envelope-encryption';
import { newId } from '#shared/ids';
import { inboundEndpointKeys } from '../functions/inbound-endpoints/entity';
import { endpoint, platformPosts, RETELL_CALL_ANALYZED, retellEndpoint, retellSignature, RETELL_API_KEY, type Endpoint } from './support/call-platforms';
import { startReceiver, type Received, type Receiver } from './support/receiver';
import { asRead, partsIn, tableAsRead } from './support/secrets-in-items';

/**
 * Tenant isolation and key scopes where the path-id matrix (test/isolation.test.ts) does not look: ids of another
 * organization in bodies beside the caller's own records, lookups by contact, idempotency, MCP, and weakened keys.
 */
const api = useTestApi();

const UNAUTHORIZED = { success: false, message: 'Invalid or expired token', error: { status: 401, message: 'Invalid or expired token' } };

/** The demo lead of organization A, as test/isolation.test.ts names it. */
const A_EMAIL = 'olivia.nguyen@example.com.au';
const A_PHONE = '+61412345001';

/** A's ids that must never show in B's answers. */
const leaks = (body: unknown, ids: (string | number)[]) => ids.filter((id) => typeof id === 'string' && JSON.stringify(body).includes(id));

describe("organization B sending organization A's ids beside its own records", () => {
  let a: { organizationId: string; client: Client; demo: Record<string, any> };
  let b: { organizationId: string; client: Client };
  let bLead: { id: string };
  let bUser: string;
  let bCompany: { id: string };
  let aIds: string[];
  let aKeyId: string;
  let before: string[];

  beforeAll(async () => {
    const created = await api.organization({ demo: true });
    a = { organizationId: created.organizationId, client: created.client, demo: created.demo as Record<string, any> };
    const other = await api.organization();
    b = { organizationId: other.organizationId, client: other.client };
    bLead = (await b.client.post('/v1/leads', { name: 'Bea Own', email: 'bea@example.com', phone: '+61412999001' })).body.lead;
    bUser = (await b.client.post('/v1/organization/members', { email: 'boss@b.example.com', firstName: 'Bo', lastName: 'Boss', role: 'MEMBER' })).body.member.user.id;
    bCompany = (await b.client.post('/v1/companies', { name: 'B Builders' })).body.company;
    aIds = Object.values(a.demo).flat().filter((id): id is string => typeof id === 'string');
    aKeyId = (await createApiKey(a.organizationId, null, 'A only')).key.keyId;
    before = await itemsOf(a.organizationId);
  });

  it("PATCH /v1/leads/{B's lead} with A's companyId answers 400 naming companyId", async () => {
    const res = await b.client.patch(`/v1/leads/${bLead.id}`, { companyId: a.demo.companyIds[0] });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain('companyId');
    expect((await b.client.get(`/v1/leads/${bLead.id}`)).body.lead.companyId).toBeNull();
  });

  it("POST /v1/sms with B's own lead and A's userId answers 404 User not found and sends nothing", async () => {
    const res = await b.client.post('/v1/sms', { userId: a.demo.userIds[0], leadId: bLead.id, message: 'Hi' });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('User not found');
    expect((await b.client.get(`/v1/sms?leadId=${bLead.id}`)).body.totalCount).toBe(0);
  });

  it("POST /v1/sms with B's own lead and user and A's messageThreadId answers 404 and does not write into A's thread", async () => {
    const res = await b.client.post('/v1/sms', { userId: bUser, leadId: bLead.id, message: 'Hi', messageThreadId: a.demo.smsThreadId });
    expect(res.status).toBe(404);
    expect(leaks(res.body, aIds)).toEqual([]);
  });

  it("POST /v1/appointments with B's lead and A's member as attendee answers 400 naming attendees", async () => {
    const res = await b.client.post('/v1/appointments', { leadId: bLead.id, title: 'Visit', startsAt: '2027-02-01T09:00:00Z', endsAt: '2027-02-01T10:00:00Z', attendees: [{ userId: a.demo.userIds[0] }] });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain('attendees');
    expect((await b.client.get('/v1/appointments')).body.totalCount).toBe(0);
  });

  it("PATCH /v1/appointments/{B's} adding A's member as attendee answers 400 and leaves the appointment", async () => {
    const created = await b.client.post('/v1/appointments', { leadId: bLead.id, title: 'Visit', startsAt: '2027-03-01T09:00:00Z', endsAt: '2027-03-01T10:00:00Z', attendees: [{ userId: bUser }] });
    expect(created.status).toBe(201);
    const res = await b.client.patch(`/v1/appointments/${created.body.appointment.id}`, { attendees: [{ userId: a.demo.userIds[0] }] });
    expect(res.status).toBe(400);
    expect((await b.client.get(`/v1/appointments/${created.body.appointment.id}`)).body.appointment.attendees).toEqual(created.body.appointment.attendees);
  });

  it("POST /v1/appointments booking A's holdId with B's lead answers 404 Hold not found", async () => {
    // A holds a slot with A's own service (its demo business hours and members).
    const slots = (await a.client.get(`/v1/availability?serviceId=${a.demo.serviceIds[0]}`)).body.slots;
    expect(slots.length).toBeGreaterThan(0);
    const hold = await a.client.post('/v1/availability/holds', { serviceId: a.demo.serviceIds[0], startsAt: slots[0].startsAt });
    expect(hold.status).toBe(201);
    const res = await b.client.post('/v1/appointments', { leadId: bLead.id, holdId: hold.body.hold.id });
    expect(res.status).toBe(404);
    expect(leaks(res.body, aIds)).toEqual([]);
    // A's hold is still A's to book.
    const booked = await a.client.post('/v1/appointments', { leadId: a.demo.leadIds[0], holdId: hold.body.hold.id });
    expect(booked.status).toBe(201);
    before = await itemsOf(a.organizationId);
  });

  it("POST /v1/availability/holds with B's service and A's leadId answers 404", async () => {
    const service = (await b.client.post('/v1/services', { name: 'B check', description: 'x', followUpQuestions: [], duration: 60, durationUnit: 'MINUTES', tradeCategoryId: 1, pricingType: 'NONE' })).body.service;
    const res = await b.client.post('/v1/availability/holds', { serviceId: service.id, startsAt: '2027-01-04T09:00:00Z', leadId: a.demo.leadIds[0] });
    expect([400, 404, 409]).toContain(res.status);
    expect(leaks(res.body, aIds)).toEqual([]);
  });

  it("POST /v1/companies/{B's}/notes with A's userId answers 400 naming userId", async () => {
    const res = await b.client.post(`/v1/companies/${bCompany.id}/notes`, { value: 'Called', userId: a.demo.userIds[0] });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain('userId');
    expect((await b.client.get(`/v1/companies/${bCompany.id}/notes`)).body.totalCount).toBe(0);
  });

  it("PUT /v1/transfers/{B's} with a scenarioId only A has answers 400 naming scenarioId", async () => {
    const transfer = (await b.client.post('/v1/transfers', { label: 'B rule', method: 'COLD', destinationType: 'DEPARTMENT', destination: 'Office', conditions: 'Always' })).body.transfer;
    // B has no services, so no scenario: every scenario id A has is one B does not.
    const res = await b.client.put(`/v1/transfers/${transfer.id}`, { scenarioId: a.demo.scenarioIds[0] });
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((d: { path: string }) => d.path)).toContain('scenarioId');
  });

  it("POST /v1/leads with A's lead's email and phone creates B's own lead (201): no DUPLICATE_CONTACT naming A's lead", async () => {
    const res = await b.client.post('/v1/leads', { name: 'Olivia Elsewhere', email: A_EMAIL, phone: A_PHONE });
    expect(res.status).toBe(201);
    expect(leaks(res.body, aIds)).toEqual([]);
  });

  it("POST /v1/leads/upsert matching by A's lead's phone creates B's own lead and changes nothing of A's", async () => {
    const res = await b.client.post('/v1/leads/upsert', { match: 'phone', phone: '+61412345002', name: 'Phone Twin', suburb: 'Taken' });
    expect([200, 201]).toContain(res.status);
    expect(leaks(res.body, aIds)).toEqual([]);
  });

  it("POST /v1/inquiries for a sender with A's lead's email records B's own lead, never A's", async () => {
    const res = await b.client.post('/v1/inquiries', {
      source: 'EMAIL',
      externalInquiryId: 'shared-msg-1',
      lead: { email: A_EMAIL.toUpperCase(), name: 'Olivia Nguyen' },
      data: { subject: 'Quote', from: A_EMAIL, to: 'office@b.example.com', body: 'Please quote', receivedAt: '2026-11-20T10:00:00.000Z' },
    });
    expect(res.status).toBe(201);
    expect(a.demo.leadIds).not.toContain(res.body.inquiry.leadId);
    expect(leaks(res.body, aIds)).toEqual([]);
  });

  it("GET /v1/audit-log?keyId=<A's key> lists nothing for B", async () => {
    const res = await b.client.get(`/v1/audit-log?keyId=${aKeyId}`);
    expect(res.status).toBe(200);
    expect(res.body.totalCount).toBe(0);
  });

  it("answers 400 INVALID_CURSOR to B passing A's nextCursor of the same list", async () => {
    const page = (await a.client.get('/v1/leads?limit=1')).body;
    expect(page.nextCursor).toEqual(expect.any(String));
    const res = await b.client.get(`/v1/leads?limit=1&cursor=${encodeURIComponent(page.nextCursor)}`);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_CURSOR');
  });

  it("leaves every one of A's items exactly as it was", async () => {
    expect(await itemsOf(a.organizationId)).toEqual(before);
  });
});

describe('Idempotency-Key values shared by two organizations', () => {
  it("never replays A's answer to B's identical request with the same key value, nor refuses it as reused", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const headers = { headers: { 'idempotency-key': 'order-1' } };
    const body = { name: 'Same Body', email: 'same@example.com' };
    const first = await a.client.post('/v1/leads', body, headers);
    expect(first.status).toBe(201);
    const second = await b.client.post('/v1/leads', body, headers);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.lead.id).not.toBe(first.body.lead.id);
    // And a different request of B's with the same value is B's own first use, not A's reuse.
    const third = await b.client.post('/v1/faqs', { question: 'Q?', answer: 'A.' }, { headers: { 'idempotency-key': 'order-2' } });
    await a.client.post('/v1/faqs', { question: 'Other?', answer: 'B.' }, { headers: { 'idempotency-key': 'order-2' } });
    expect(third.status).toBe(201);
  });
});

describe('weakened keys', () => {
  it('answers 401 for the token of a deleted key', async () => {
    const { organizationId } = await api.organization();
    const { key, token } = await createApiKey(organizationId);
    expect((await api.as(token).get('/v1/leads')).status).toBe(200);
    await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: keys.apiKey(organizationId, key.keyId) }));
    const res = await api.as(token).get('/v1/leads');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it.each([
    ['a character appended', (t: string) => `${t}A`],
    ['the last character dropped', (t: string) => t.slice(0, -1)],
    ['the prefix upper-cased', (t: string) => t.replace('sp_live_', 'SP_LIVE_')],
    ['the secret without its prefix', (t: string) => t.replace('sp_live_', '')],
  ])('answers 401 for a token with %s', async (_, weaken) => {
    const { apiKey } = await api.organization();
    const res = await api.as(weaken(apiKey)).get('/v1/leads');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it('answers 401 for a key whose organization no longer exists, and writes nothing under it', async () => {
    const { organizationId, apiKey } = await api.organization();
    expect((await api.as(apiKey).get('/v1/leads')).status).toBe(200);
    await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: organizationKeys.organization(organizationId) }));
    const read = await api.as(apiKey).get('/v1/leads');
    const write = await api.as(apiKey).post('/v1/leads', { name: 'Orphan', email: 'orphan@example.com' });
    expect([read.status, write.status]).toEqual([401, 401]);
  });
});

describe('a revoked key behind the authorizer cache (API Gateway caches the answer per token; 300 s deployed)', () => {
  const cached = useTestApi({ authorizerCacheTtlMs: 400 });

  it('keeps answering from the cache only until its TTL, then 401', async () => {
    const { organizationId } = await cached.organization();
    const { key, token } = await createApiKey(organizationId);
    expect((await cached.as(token).get('/v1/leads')).status).toBe(200);
    await revokeApiKey(organizationId, key.keyId);
    await new Promise((resolve) => setTimeout(resolve, 600));
    const res = await cached.as(token).get('/v1/leads');
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });
});

describe('MCP and key scopes', () => {
  const rpc = (client: Client, method: string, params: Record<string, unknown> = {}) =>
    client.post('/mcp', { jsonrpc: '2.0', id: 1, method, params }, { headers: { accept: 'application/json, text/event-stream' } });

  it('offers a read key no tool that POSTs, PUTs, PATCHes or DELETEs (resolve_transfer included) and refuses it the call', async () => {
    const { organizationId, client } = await api.organization();
    const transfer = (await client.post('/v1/transfers', { label: 'Rule', method: 'COLD', destinationType: 'DEPARTMENT', destination: 'Office', conditions: 'Always' })).body.transfer;
    const read = api.as((await createApiKey(organizationId, null, 'reader', 'read')).token);
    const listed = await read.post('/mcp?tools=all', { jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(listed.status).toBe(200);
    const names: string[] = listed.body.result.tools.map((tool: { name: string }) => tool.name);
    expect(names).toContain('get_lead');
    for (const write of ['resolve_transfer', 'create_lead', 'upsert_lead', 'send_sms', 'log_call', 'delete_lead', 'update_lead']) expect(names).not.toContain(write);
    for (const name of ['resolve_transfer']) {
      const called = await rpc(read, 'tools/call', { name, arguments: { transferId: transfer.id, name: 'Sam', topic: 'Leak', summary: 'Water' } });
      expect(called.body.result.isError).toBe(true);
      expect(JSON.parse(called.body.result.content[0].text).error.code).toBe('INSUFFICIENT_SCOPE');
    }
    // The REST route itself refuses the read key at the gateway, though it changes nothing.
    expect((await read.post(`/v1/transfers/${transfer.id}/resolve`, { name: 'Sam', topic: 'Leak', summary: 'Water' })).status).toBe(403);
  });

  it("answers another organization's record through an MCP tool as not found, with no leak", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const lead = (await a.client.post('/v1/leads', { name: 'Secret Lead', email: 'secret@example.com' })).body.lead;
    const res = await rpc(b.client, 'tools/call', { name: 'get_lead', arguments: { leadId: lead.id } });
    expect(res.body.result.isError).toBe(true);
    expect(JSON.parse(res.body.result.content[0].text).error.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain('secret@example.com');
  });
});

describe("inbound URLs: one endpoint's credentials never open another's", () => {
  const post = (url: string, init: RequestInit) => fetch(url, { method: 'POST', ...init });
  const form = (fields: Record<string, string>) => ({ headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(fields).toString() });

  it("answers 401 to a post to A's endpoint with B's token, B's signing secret or B's Vapi secret, and records nothing at A", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const aForm = (await a.client.post('/v1/inbound-endpoints', { name: 'A form', source: 'WEBFORM' })).body.inboundEndpoint;
    const bForm = (await b.client.post('/v1/inbound-endpoints', { name: 'B form', source: 'WEBFORM' })).body.inboundEndpoint;
    const aVapi = (await a.client.post('/v1/inbound-endpoints', { name: 'A vapi', source: 'CALL', format: 'vapi' })).body.inboundEndpoint;
    const bToken = new URL(bForm.url).searchParams.get('token')!;
    const aBase = aForm.url.replace(/\?token=.*$/, '');
    expect((await post(`${aBase}?token=${bToken}`, form({ email: 'x@example.com' }))).status).toBe(401);
    // Standard Webhooks headers signed with B's secret.
    const { Webhook } = await import('standardwebhooks');
    const body = JSON.stringify({ email: 'y@example.com' });
    const at = new Date();
    const signature = new Webhook(bForm.secret).sign('msg_cross', at, body);
    const signed = { 'content-type': 'application/json', 'webhook-id': 'msg_cross', 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': signature };
    expect((await post(aBase, { headers: signed, body })).status).toBe(401);
    // B's endpoint secret as A's Vapi credential.
    const vapiUrl = aVapi.url.replace(/\?token=.*$/, '');
    expect((await post(vapiUrl, { headers: { 'content-type': 'application/json', authorization: `Bearer ${bForm.secret}` }, body: '{"message":{"type":"status-update"}}' })).status).toBe(401);
    expect((await post(vapiUrl, { headers: { 'content-type': 'application/json', 'x-vapi-secret': bForm.secret }, body: '{"message":{"type":"status-update"}}' })).status).toBe(401);
    expect((await a.client.get('/v1/inquiries')).body.totalCount).toBe(0);
    expect((await a.client.get('/v1/leads')).body.totalCount).toBe(0);
  });
});

describe('inbound SMS replies', () => {
  it("are recorded for the organization whose number they were sent to, never for another organization's lead with the same phone", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const number = '+61299977123';
    expect((await a.client.patch('/v1/organization', { smsSenderId: number })).status).toBe(200);
    // B cannot take A's number.
    const taken = await b.client.patch('/v1/organization', { smsSenderId: number });
    expect(taken.status).toBe(409);
    const phone = '+61412777001';
    await a.client.post('/v1/leads', { name: 'Both Orgs', phone });
    await b.client.post('/v1/leads', { name: 'Both Orgs', phone });
    const onlyB = '+61412777002';
    const bOnly = (await b.client.post('/v1/leads', { name: 'Only B', phone: onlyB })).body.lead;
    expect(await receiveSms({ from: phone, to: number, body: 'Yes please', providerMessageId: 'prov-1' })).toBe('recorded');
    expect((await a.client.get('/v1/inquiries?source=SMS')).body.totalCount).toBe(1);
    // A phone only B's lead has is a new customer to A: a lead of A's own, B's lead untouched.
    expect(await receiveSms({ from: onlyB, to: number, body: 'Hello?', providerMessageId: 'prov-2' })).toBe('recorded');
    const aNew = (await a.client.get(`/v1/leads?phone=${encodeURIComponent(onlyB)}`)).body.leads;
    expect(aNew).toEqual([expect.objectContaining({ phone: onlyB, firstName: null, unreadSMS: 1 })]);
    expect(aNew[0].id).not.toBe(bOnly.id);
    expect((await a.client.get('/v1/inquiries?source=SMS')).body.totalCount).toBe(2);
    expect((await b.client.get('/v1/inquiries?source=SMS')).body.totalCount).toBe(0);
    expect((await b.client.get(`/v1/leads/${bOnly.id}`)).body.lead).toMatchObject({ unreadSMS: 0, lastInquiryId: null });
    // A STOP to A's number opts the phone out at A only.
    expect(await receiveSms({ from: phone, to: number, body: 'STOP', providerMessageId: 'prov-3' })).toBe('recorded');
    const bLead = (await b.client.get(`/v1/leads?phone=${encodeURIComponent(phone)}`)).body.leads[0];
    expect(bLead.smsOptedOut ?? false).toBe(false);
  });
});

describe("tenants' secrets in the table", () => {
  const receivers: Receiver[] = [];
  const receiver = async () => {
    const started = await startReceiver();
    receivers.push(started);
    return started;
  };
  afterAll(async () => Promise.all(receivers.map((started) => started.close())));

  /** What the standardwebhooks package (not this project's code) says about a delivery: its event, or a throw. */
  const verified = (secret: string, { body, headers }: Received) => new StandardWebhook(secret).verify(body, headers as Record<string, string>) as { type: string };
  const { post, postRetell } = platformPosts(api);
  /** A post to a native endpoint signed with Standard Webhooks headers, as a sender holding its secret signs it. */
  const postSigned = (created: Endpoint, secret: string) => {
    const body = JSON.stringify({ email: 'signed@example.com', name: 'Signed Sender', message: 'Signed with the endpoint secret' });
    const id = `msg_${Date.now()}`;
    const at = new Date();
    return post(`/v1/inbound/${created.id}`, body, { 'webhook-id': id, 'webhook-timestamp': String(Math.floor(at.getTime() / 1000)), 'webhook-signature': new StandardWebhook(secret).sign(id, at, body) });
  };
  const rawItem = async (key: Key) => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: true }))).Item!;
  const subscribe = async (client: Client, url: string) => {
    const res = await client.post('/v1/webhooks', { url, events: ['lead.created'] });
    expect(res.status).toBe(201);
    return res.body.webhook as { id: string; secret: string };
  };

  it('are sealed: the raw items hold no webhook secret, endpoint secret or Retell key, nor any part of one, and deliveries and posts still verify', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url);
    const retell = await retellEndpoint(client);
    const form = await endpoint(client, { name: 'Signed form', source: 'WEBFORM' });

    const items = [await rawItem(webhookKeys.webhook(organizationId, webhook.id)), await rawItem(inboundEndpointKeys.inboundEndpoint(organizationId, retell.id)), await rawItem(inboundEndpointKeys.inboundEndpoint(organizationId, form.id))];
    // The whole table, not only the items that hold them: no copy of a secret anywhere (a version, a log, an index).
    const text = await tableAsRead();
    expect(text).toContain(webhook.id);
    expect(partsIn(text, webhook.secret)).toEqual([]);
    expect(partsIn(text, retell.secret)).toEqual([]);
    expect(partsIn(text, form.secret)).toEqual([]);
    expect(partsIn(text, RETELL_API_KEY)).toEqual([]);
    expect([items[0]!.secrets, items[1]!.secret, items[1]!.platformSecret, items[2]!.secret].map((value) => value instanceof Uint8Array)).toEqual([true, true, true, true]);

    // A delivery, as the queue's worker makes it, verifies with the secret the create answered.
    const at = new Date().toISOString();
    const event = { id: newId('evt'), type: 'lead.created', occurredAt: at, organizationId, data: { name: 'Sealed Lead' } };
    await deliver({ organizationId, webhookId: webhook.id, event, attempt: 1, firstQueuedAt: at, notBefore: at });
    const [delivery] = await hook.waitFor(1);
    expect(verified(webhook.secret, delivery!)).toMatchObject({ type: 'lead.created' });
    // So does the test event, signed by the route.
    expect((await client.post(`/v1/webhooks/${webhook.id}/test`)).body.attempt.status).toBe('SUCCEEDED');
    expect(verified(webhook.secret, (await hook.waitFor(2))[1]!)).toMatchObject({ type: 'webhook.test' });
    // Retell's signature checks with its key, and a form's Standard Webhooks signature with the endpoint's secret.
    expect((await postRetell(retell, RETELL_CALL_ANALYZED)).status).toBe(201);
    expect((await postSigned(form, form.secret)).status).toBe(201);
    expect((await postSigned(form, retell.secret)).status).toBe(401);
  });

  it("do not open in another organization's item: a copied webhook secret signs nothing, a copied endpoint secret or key checks no post", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const aHook = await receiver();
    const bHook = await receiver();
    const aWebhook = await subscribe(a.client, aHook.url);
    const bWebhook = await subscribe(b.client, bHook.url);
    const aRetell = await retellEndpoint(a.client);
    const bRetell = await endpoint(b.client, { format: 'retell', platformSecret: 'key_b_organizations_own_retell_key' });
    const aForm = await endpoint(a.client, { name: 'A form', source: 'WEBFORM' });
    const bForm = await endpoint(b.client, { name: 'B form', source: 'WEBFORM' });
    const copy = async (from: Key, to: Key, attribute: string) => {
      const value = (await rawItem(from))[attribute];
      await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: to, UpdateExpression: 'SET #a = :v', ExpressionAttributeNames: { '#a': attribute }, ExpressionAttributeValues: { ':v': value } }));
    };
    await copy(webhookKeys.webhook(a.organizationId, aWebhook.id), webhookKeys.webhook(b.organizationId, bWebhook.id), 'secrets');
    await copy(inboundEndpointKeys.inboundEndpoint(a.organizationId, aRetell.id), inboundEndpointKeys.inboundEndpoint(b.organizationId, bRetell.id), 'platformSecret');
    await copy(inboundEndpointKeys.inboundEndpoint(a.organizationId, aForm.id), inboundEndpointKeys.inboundEndpoint(b.organizationId, bForm.id), 'secret');

    // B's test event is not sent signed with A's secret (nor at all): a failed attempt, as a receiver refusing it would record.
    const test = await b.client.post(`/v1/webhooks/${bWebhook.id}/test`);
    expect(test.status).toBe(200);
    expect(test.body.attempt).toMatchObject({ status: 'FAILED', statusCode: null, error: expect.stringContaining('signing secret could not be read') });
    expect(bHook.received).toEqual([]);
    // Posts signed with A's key or A's secret, the copied values' own, are refused at B's endpoints as a wrong secret is.
    const retellBody = RETELL_CALL_ANALYZED;
    expect((await postRetell(bRetell, retellBody, retellSignature(retellBody, { key: RETELL_API_KEY }))).status).toBe(401);
    expect((await postSigned(bForm, aForm.secret)).status).toBe(401);
    // A's own are untouched.
    expect((await a.client.post(`/v1/webhooks/${aWebhook.id}/test`)).body.attempt.status).toBe('SUCCEEDED');
    expect(verified(aWebhook.secret, (await aHook.waitFor(1))[0]!)).toMatchObject({ type: 'webhook.test' });
    expect((await postSigned(aForm, aForm.secret)).status).toBe(201);
  });

  it("do not open in another organization's item of the same id: the organization is part of what a secret is sealed for", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const aHook = await receiver();
    const aWebhook = await subscribe(a.client, aHook.url);
    // A's webhook item whole, moved into B's partition under the same id: only the organization differs.
    const item = await rawItem(webhookKeys.webhook(a.organizationId, aWebhook.id));
    const moved = Object.fromEntries(Object.entries(item).map(([name, value]) => [name, typeof value === 'string' ? value.replaceAll(a.organizationId, b.organizationId) : value]));
    expect(moved).toMatchObject({ ...webhookKeys.webhook(b.organizationId, aWebhook.id), secrets: item.secrets });
    await dynamo.send(new PutCommand({ TableName: config.tableName, Item: moved }));

    const test = await b.client.post(`/v1/webhooks/${aWebhook.id}/test`);
    expect(test.status).toBe(200);
    expect(test.body.attempt).toMatchObject({ status: 'FAILED', statusCode: null, error: expect.stringContaining('signing secret could not be read') });
    expect(aHook.received).toEqual([]);
    // A's own still signs.
    expect((await a.client.post(`/v1/webhooks/${aWebhook.id}/test`)).body.attempt.status).toBe('SUCCEEDED');
    expect(verified(aWebhook.secret, (await aHook.waitFor(1))[0]!)).toMatchObject({ type: 'webhook.test' });
  });

  it('written before sealing are read as they are, and sealed by their next write', async () => {
    const { client, organizationId } = await api.organization();
    const hook = await receiver();
    const webhook = await subscribe(client, hook.url);
    const retell = await endpoint(client, { format: 'retell', platformSecret: 'key_first_retell_key_of_this_endpoint' });
    const plainSecret = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
    const webhookKey = webhookKeys.webhook(organizationId, webhook.id);
    const endpointKey = inboundEndpointKeys.inboundEndpoint(organizationId, retell.id);
    // As items were written before secrets were sealed: plain attributes.
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: webhookKey, UpdateExpression: 'SET secrets = :s', ExpressionAttributeValues: { ':s': [{ secret: plainSecret, expiresAt: null }] } }));
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: endpointKey, UpdateExpression: 'SET platformSecret = :k', ExpressionAttributeValues: { ':k': RETELL_API_KEY } }));

    expect((await client.post(`/v1/webhooks/${webhook.id}/test`)).body.attempt.status).toBe('SUCCEEDED');
    expect(verified(plainSecret, (await hook.waitFor(1))[0]!)).toMatchObject({ type: 'webhook.test' });
    expect((await postRetell(retell, RETELL_CALL_ANALYZED)).status).toBe(201);

    // The rotation seals the new secret and the plain one it keeps for its overlap; a new key is sealed too.
    const rotated = (await client.post(`/v1/webhooks/${webhook.id}/rotate-secret`)).body.webhook.secret as string;
    expect((await client.patch(`/v1/inbound-endpoints/${retell.id}`, { platformSecret: 'key_second_retell_key_of_this_endpoint' })).status).toBe(200);
    const [webhookItem, endpointItem] = [await rawItem(webhookKey), await rawItem(endpointKey)];
    expect([webhookItem.secrets instanceof Uint8Array, endpointItem.platformSecret instanceof Uint8Array]).toEqual([true, true]);
    expect(partsIn(asRead(webhookItem), plainSecret)).toEqual([]);
    expect((await client.post(`/v1/webhooks/${webhook.id}/test`)).body.attempt.status).toBe('SUCCEEDED');
    const [, afterRotation] = await hook.waitFor(2);
    expect(verified(rotated, afterRotation!)).toMatchObject({ type: 'webhook.test' });
    expect(verified(plainSecret, afterRotation!)).toMatchObject({ type: 'webhook.test' });
  });

  it('are sealed by the one key the environment names: a KMS alias deployed, the local key elsewhere, and any other setting stops the function loudly', async () => {
    const sdk = await import('@aws-crypto/client-node');
    const alias = 'arn:aws:kms:ap-southeast-2:123456789012:alias/pipeline-secrets';
    const local = Buffer.alloc(32, 1).toString('base64');
    const deployed = keyringsFromEnvironment(sdk, { SECRETS_KEY_ALIAS_ARN: alias }, true);
    expect([deployed.sealing, deployed.opening].map((keyring) => keyring.constructor.name)).toEqual(['KmsKeyringNode', 'MultiKeyringNode']);
    expect(keyringsFromEnvironment(sdk, { SECRETS_LOCAL_KEY: local }, false).sealing.constructor.name).toBe('RawAesKeyringNode');
    expect(() => keyringsFromEnvironment(sdk, { SECRETS_LOCAL_KEY: local }, true)).toThrow('SECRETS_LOCAL_KEY is refused in Lambda');
    expect(() => keyringsFromEnvironment(sdk, { SECRETS_KEY_ALIAS_ARN: alias, SECRETS_LOCAL_KEY: local }, false)).toThrow('are both set');
    expect(() => keyringsFromEnvironment(sdk, {}, false)).toThrow('Missing required environment variable SECRETS_KEY_ALIAS_ARN (or SECRETS_LOCAL_KEY');
    expect(() => keyringsFromEnvironment(sdk, { SECRETS_LOCAL_KEY: Buffer.alloc(16).toString('base64') }, false)).toThrow('must be base64 of 32 bytes');
    expect(() => keyringsFromEnvironment(sdk, { SECRETS_KEY_ALIAS_ARN: 'arn:aws:kms:ap-southeast-2:123456789012:key/1234' }, true)).toThrow('must be a KMS alias ARN');
    // An alias ARN without its account, or without its partition, is no key's: each part is needed to open by.
    for (const arn of ['arn:aws:kms:ap-southeast-2::alias/pipeline-secrets', 'arn::kms:ap-southeast-2:123456789012:alias/pipeline-secrets', 'arn:aws:kms:ap-southeast-2:123456789012:alias/']) {
      expect(() => keyringsFromEnvironment(sdk, { SECRETS_KEY_ALIAS_ARN: arn }, true), arn).toThrow('must be a KMS alias ARN');
    }
    // Opening takes only what a key of the alias's own account and partition sealed.
    // One discovery keyring, in the function's own region (a multi-region key's replica there opens what its primary sealed).
    const { children } = deployed.opening as unknown as { children: object[] };
    expect(children).toHaveLength(1);
    await expect((children[0] as { clientRegion: Promise<string> }).clientRegion).resolves.toBe('ap-southeast-2');
    expect(children[0]).toMatchObject({ discoveryFilter: { accountIDs: ['123456789012'], partition: 'aws' } });
    expect(deployed.sealing).toMatchObject({ generatorKeyId: alias });
  });

  it('reuse a data key in a container: a secret opened again and again unwraps its data key once, and one item’s secrets sealed again ask for a new key only after 100', async () => {
    const sdk = await import('@aws-crypto/client-node');
    const raw = keyringsFromEnvironment(sdk, { SECRETS_LOCAL_KEY: Buffer.alloc(32, 3).toString('base64') }, false).sealing;
    const calls = { wrapped: 0, unwrapped: 0 };
    /** The keyring, counting what reaches it: what the materials cache did not answer. */
    class Counting extends sdk.KeyringNode {
      async _onEncrypt(material: Parameters<typeof raw.onEncrypt>[0]) {
        calls.wrapped++;
        return raw.onEncrypt(material);
      }
      async _onDecrypt(material: Parameters<typeof raw.onDecrypt>[0], keys: Parameters<typeof raw.onDecrypt>[1]) {
        calls.unwrapped++;
        return raw.onDecrypt(material, keys);
      }
    }
    const counting = new Counting();
    const using = sealingWith(sdk, { sealing: counting, opening: counting });
    const sealedFor = { organizationId: 'org_cache', itemId: 'webhook_cache', attribute: 'secrets' };
    const sealed = await seal('whsec_cached', sealedFor, using);
    for (let read = 0; read < 5; read++) expect(await open(sealed, sealedFor, using)).toBe('whsec_cached');
    expect(calls.unwrapped).toBe(1);
    for (let again = 1; again <= DATA_KEY_CACHE.maxMessagesEncrypted; again++) await seal('whsec_cached', sealedFor, using);
    expect(calls.wrapped).toBe(2);
  });
});
