import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { resources, routes } from '../resources';
import { auditKeys } from '#shared/audit/entry';
import { AUDIT_RESOURCE_TYPES, AuditEntry } from './schema';
import { EVENT_TYPES, type EventType } from '../events/types';
import { createApiKey } from '#shared/auth/api-keys';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { TTL_ATTRIBUTE } from '#shared/table';
import { useTestApi, type Client } from '../../test/support/api';
import { admin } from '../../test/support/admin-cli';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { tourRoutes } from '../../test/support/route-tour';
import { startReceiver } from '../../test/support/receiver';

const api = useTestApi({ events: true });

type Entry = Record<string, any>;

/** Every entry the organization's key can list, newest first, following nextCursor (after the stream has caught up). */
async function allEntries(client: Client, query = ''): Promise<Entry[]> {
  await api.eventsCaughtUp();
  const entries: Entry[] = [];
  let cursor: string | null = null;
  do {
    const res: { status: number; body: any } = await client.get(`/v1/audit-log?limit=100${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    entries.push(...res.body.entries);
    cursor = res.body.nextCursor;
  } while (cursor);
  return entries;
}

const summary = (entries: Entry[]) => entries.map((entry) => `${entry.action} ${entry.resourceType}`);

/** A new organization and a named full key of its own, as an integration would hold it. */
async function organizationWithNamedKey(name = 'Zapier') {
  const organization = await api.organization();
  const { key, token } = await createApiKey(organization.organizationId, null, name);
  return { ...organization, key, named: api.as(token) };
}

/** The kinds of record the route tour does not create or update, and why: every other kind the resources audit, it does. */
const NOT_TOURED: Record<'created' | 'updated', Partial<Record<(typeof AUDIT_RESOURCE_TYPES)[number], string>>> = {
  created: {
    organization: 'made by code before the tour, with its key: no route makes one',
    oauth_grant: 'made by a person’s consent in a browser, a form the tour cannot post (functions/oauth/oauth.test.ts)',
  },
  updated: {
    activity: 'recorded once and never changed',
    invitation: 'never changed: accepting one deletes it and makes the member',
    oauth_grant: 'never changed by a writer: only the authorizer’s lastUsedAt moves',
  },
};

/** The event types the route tour does not make happen, and why: every other type the resources emit, it does. */
const NOT_EMITTED: Partial<Record<EventType, string>> = {
  'sms.failed': 'the tour’s SMS is delivered',
  'oauth_grant.created': 'a grant is made by a person’s consent in a browser, a form the tour cannot post (functions/oauth/oauth.test.ts)',
  'oauth_grant.revoked': 'the tour makes no grant to revoke (functions/oauth/oauth.test.ts revokes one)',
  'sms.received': 'no lead texts the organization during the tour (the provider’s inbound topic is no route)',
  'appointment.completed': 'the tour’s appointment is not marked done',
  'appointment.no_show': 'the tour’s appointment is not marked done',
  'automation_run.completed': 'the tour’s run waits, and is stopped',
  'automation_run.failed': 'the tour’s run waits, and is stopped',
  'policy.updated': 'a plain collection’s tour changes a field to the value it has (its example’s), and a write that changes nothing emits no event',
  'faq.updated': 'a plain collection’s tour changes a field to the value it has (its example’s), and a write that changes nothing emits no event',
  'webhook.disabled': 'no receiver answers 410 Gone, fails for 24 hours or outlives its expiresAt during the tour',
  'inbound_endpoint.source_limited': 'the tour posts to an inbound URL once, far below one source’s share of the day (functions/inbound-endpoints/inbound-floods.test.ts)',
};

describe('GET /v1/audit-log', () => {
  it('attributes a create, an update and a delete to the key and the request that made each, newest first', async () => {
    const { named, key } = await organizationWithNamedKey('Zapier');
    const created = await named.post('/v1/leads', { name: 'Jane Citizen', email: 'jane@example.com' });
    const lead = created.body.lead;
    const changed = await named.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED' });
    const deleted = await named.delete(`/v1/leads/${lead.id}`);
    expect([created.status, changed.status, deleted.status]).toEqual([201, 200, 200]);

    const entries = await allEntries(named, `&resourceType=lead&resourceId=${lead.id}`);
    const writer = { keyId: key.keyId, keyName: 'Zapier', via: 'api', clientId: null, memberId: null, resourceType: 'lead', resourceId: lead.id };
    expect(entries).toEqual([
      { ...writer, id: expect.stringMatching(/^audit_/), at: expect.any(String), action: 'deleted', method: 'DELETE', path: `/v1/leads/${lead.id}`, requestId: deleted.headers.get('x-request-id') },
      { ...writer, id: expect.stringMatching(/^audit_/), at: expect.any(String), action: 'updated', method: 'PATCH', path: `/v1/leads/${lead.id}`, requestId: changed.headers.get('x-request-id') },
      { ...writer, id: expect.stringMatching(/^audit_/), at: expect.any(String), action: 'created', method: 'POST', path: '/v1/leads', requestId: created.headers.get('x-request-id') },
    ]);
    // Newest first, each within its request: the create before the answer to the create, and so on.
    const times = entries.map((entry) => Date.parse(entry.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(times[2]).toBeLessThanOrEqual(Date.parse(changed.body.lead.updatedAt));
  });

  it('records the writes of records only: a lead create is its lead and its first activity, not its counters, names or claims', async () => {
    const { named } = await organizationWithNamedKey();
    const lead = (await named.post('/v1/leads', { name: 'Sam Lee', email: 'sam@example.com', phone: '+61412345678' })).body.lead;
    const entries = await allEntries(named);
    expect(summary(entries).sort()).toEqual(['created activity', 'created lead']);
    expect(entries.find((entry) => entry.resourceType === 'lead')!.resourceId).toBe(lead.id);
  });

  it('lists an entry per record written: every delete of the API, and the creates and updates of every kind of record; and every event type is emitted', async () => {
    const { client } = await api.organization();
    await tourRoutes({ ...client, queuesIdle: api.queuesIdle });
    const entries = await allEntries(client);
    const key = (await allEntries(client, '&resourceType=lead'))[0]!.keyId;
    // The tour's one public post is the inbound URL's, and the SMS it sent is reported delivered by the provider,
    // which moves the message and the inquiry its thread is; every other write is its key's, by the API, or its
    // automation run's.
    const byProvider: string[] = [];
    for (const entry of entries) {
      if (entry.via === 'inbound' && entry.method === null) byProvider.push(`${entry.keyId} ${entry.action} ${entry.resourceType}`);
      else if (entry.via === 'inbound') expect([entry.keyId, entry.method, entry.path]).toEqual([null, 'POST', expect.stringMatching(/^\/v1\/inbound\/inbound_/)]);
      // The tour enrols a lead in an automation: its run's own writes are the run's, under no key.
      else if (entry.via === 'automation') expect([entry.keyId, entry.method, entry.requestId], JSON.stringify(entry)).toEqual([null, null, expect.stringMatching(/^run_/)]);
      // The tour's ADMIN signs in to the console and makes and revokes an API key: the member's, under no key.
      else if (entry.via === 'session') expect([entry.keyId, entry.memberId, entry.resourceType], JSON.stringify(entry)).toEqual([null, expect.any(Number), 'api_key']);
      // The organization's owner, made with it by the operator's CLI, before the tour's first request.
      else if (entry.via === 'admin') expect([entry.keyId, entry.action, entry.resourceType], JSON.stringify(entry)).toEqual([null, 'created', 'member']);
      else expect([entry.keyId, entry.via, entry.memberId], JSON.stringify(entry)).toEqual([key, 'api', null]);
    }
    expect(byProvider.sort()).toEqual(['null updated inquiry', 'null updated sms']);
    const pathPattern = (path: string) => new RegExp(`^${path.replace(/\{\w+\}/g, '[^/]+')}$`);
    // An OAuth grant is made by a person's consent in a browser: functions/oauth/oauth.test.ts holds its delete's entry.
    // Signing out ends sessions, which are no record; revoking a key is an update of it (its revokedAt), written down as one.
    // A passkey is made by an authenticator in a browser, and is no record the audit log lists: the tour removes none
    // (functions/sign-in/passkeys.test.ts removes them). A push subscription is a browser's, made by its push service,
    // and no record either (functions/notifications/notifications.test.ts removes them).
    const deletesNoRecord = ['/v1/oauth/grants/{grantId}', '/v1/me/session', '/v1/me/sessions', '/v1/api-keys/{keyId}', '/v1/me/passkeys/{passkeyId}', '/v1/organization/members/{memberId}/passkeys/{passkeyId}', '/v1/me/push-subscriptions/{subscriptionId}'];
    for (const route of routes.filter((candidate) => candidate.method === 'DELETE' && !deletesNoRecord.includes(candidate.path))) {
      expect(entries.some((entry) => entry.action === 'deleted' && entry.method === 'DELETE' && pathPattern(route.path).test(entry.path)), `${route.path} wrote its entry`).toBe(true);
    }
    // Every kind of record the resources audit (a new resource's too), created and updated by the tour, but for those
    // that say why not.
    const written = new Set(entries.map((entry) => `${entry.action} ${entry.resourceType}`));
    const expected = (action: 'created' | 'updated') => AUDIT_RESOURCE_TYPES.filter((type) => !(type in NOT_TOURED[action])).map((type) => `${action} ${type}`);
    expect([...expected('created'), ...expected('updated')].filter((kind) => !written.has(kind))).toEqual([]);
    // An exception that no longer holds goes.
    expect(Object.entries(NOT_TOURED).flatMap(([action, types]) => Object.keys(types).map((type) => `${action} ${type}`)).filter((kind) => written.has(kind))).toEqual([]);
    // Accepting an invitation deletes it and makes the member, in one transaction: both are written down.
    expect(written.has('deleted invitation')).toBe(true);
    expect(entries.some((entry) => entry.action === 'updated' && entry.resourceType === 'api_key' && entry.method === 'DELETE' && /^\/v1\/api-keys\/key_/.test(entry.path ?? ''))).toBe(true);

    // And every event type the resources emit (a new resource's too) is among the tour's events, but for those that say why not.
    const emitted = new Set<string>();
    for (let cursor: string | null = null, first = true; first || cursor; first = false) {
      const res: { status: number; body: any } = await client.get(`/v1/events?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      expect(res.status).toBe(200);
      for (const event of res.body.events) emitted.add(event.type);
      cursor = res.body.nextCursor;
    }
    expect(EVENT_TYPES.filter((type) => !(type in NOT_EMITTED) && !emitted.has(type))).toEqual([]);
    expect(Object.keys(NOT_EMITTED).filter((type) => emitted.has(type))).toEqual([]);
  });

  it('lists a delete at once: its entry is put in the delete’s own transaction, with no call added', async () => {
    const { named } = await organizationWithNamedKey();
    // A policy's delete is one transaction (an FAQ's reads its question first, to free it).
    const policy = (await named.post('/v1/policies', { title: 'Cancellations', content: 'Free up to 24 hours before.' })).body.policy;
    expect(await countDynamoCalls(() => named.delete(`/v1/policies/${policy.id}`))).toEqual(['TransactWriteItemsCommand']);
    // Read before the stream is waited for: the delete's entry is already there.
    const res = await named.get(`/v1/audit-log?resourceType=policy&resourceId=${policy.id}`);
    expect(res.body.entries[0]).toMatchObject({ action: 'deleted', resourceType: 'policy', resourceId: String(policy.id), method: 'DELETE' });
  });

  it('adds no DynamoDB call to a create, an update or a delete', async () => {
    const { named } = await organizationWithNamedKey();
    let company = '';
    expect(
      await countDynamoCalls(async () => {
        company = (await named.post('/v1/companies', { name: 'Harbourside Strata' })).body.company.id;
      }),
    ).toEqual(['TransactWriteItemsCommand']);
    expect(await countDynamoCalls(() => named.put(`/v1/companies/${company}`, { phone: '+61299551299' }))).toEqual(['UpdateItemCommand']);
    expect(await countDynamoCalls(() => named.delete(`/v1/companies/${company}`))).toEqual(['TransactWriteItemsCommand', 'QueryCommand']);
    expect(summary(await allEntries(named, `&resourceType=company&resourceId=${company}`))).toEqual(['deleted company', 'updated company', 'created company']);
  });

  it('stores each entry with a TTL 90 days after it was written', async () => {
    const { named, organizationId } = await organizationWithNamedKey();
    await named.post('/v1/faqs', { question: 'Do you work weekends?', answer: 'Saturdays.' });
    const [entry] = await allEntries(named);
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: auditKeys.entry(organizationId, entry!.id) }));
    expect(Item![TTL_ATTRIBUTE]).toBe(Math.floor(Date.parse(entry!.at) / 1000) + 90 * 86_400);
  });
});

describe('via', () => {
  it('is mcp for a request the MCP server labels, still attributed to the client’s key; the label claims nothing else', async () => {
    const { named, key } = await organizationWithNamedKey('Claude');
    const mcp = await named.post('/v1/faqs', { question: 'Via MCP?', answer: 'Yes.' }, { headers: { 'x-sales-pipeline-via': 'mcp' } });
    const claimed = await named.post('/v1/faqs', { question: 'Via admin?', answer: 'No.' }, { headers: { 'x-sales-pipeline-via': 'admin' } });
    const entries = await allEntries(named, '&resourceType=faq');
    expect(entries.find((entry) => entry.resourceId === String(mcp.body.faq.id))).toMatchObject({ via: 'mcp', keyId: key.keyId, keyName: 'Claude' });
    expect(entries.find((entry) => entry.resourceId === String(claimed.body.faq.id))).toMatchObject({ via: 'api', keyId: key.keyId });
  });

  it('is inbound, with no key, for a post to an inbound URL; the path carries no token', async () => {
    const { client } = await api.organization();
    const endpoint = (await client.post('/v1/inbound-endpoints', { name: 'Website form', source: 'WEBFORM' })).body.inboundEndpoint;
    const url = new URL(endpoint.url);
    const posted = await api.anonymous.post(`${url.pathname}${url.search}`, { email: 'mia@example.com', name: 'Mia Wong', message: 'Leaking tap' });
    expect(posted.status).toBe(201);
    const entries = await allEntries(client);
    // The endpoint was made with the key; everything the post wrote (the lead, its inquiry and activities) is inbound.
    expect(summary(entries.filter((entry) => entry.via === 'api'))).toEqual(['created inbound_endpoint']);
    const inbound = entries.filter((entry) => entry.via === 'inbound');
    expect(summary(inbound)).toEqual(expect.arrayContaining(['created inquiry', 'created lead', 'created activity']));
    for (const entry of inbound) expect(entry).toMatchObject({ keyId: null, keyName: null, method: 'POST', path: `/v1/inbound/${endpoint.id}`, requestId: posted.headers.get('x-request-id') });
    expect(inbound.length + 1).toBe(entries.length);
  });

  it('is inbound for an SMS delivery report, which moves the message the key sent', async () => {
    const { client } = await api.organization({ demo: true });
    const lead = (await client.get('/v1/leads?limit=1')).body.leads[0];
    const userId = (await client.get('/v1/organization/members')).body.members[0].user.id;
    const sent = (await client.post('/v1/sms', { userId, leadId: lead.id, message: 'On our way' })).body.sms;
    // The local provider reports every SMS delivered a moment after it is sent.
    let entries: Entry[] = [];
    for (let tries = 0; tries < 100 && !entries.some((entry) => entry.via === 'inbound'); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      entries = await allEntries(client, `&resourceType=sms&resourceId=${sent.id}`);
    }
    expect(entries.map((entry) => `${entry.action} ${entry.via}`)).toEqual(['updated inbound', 'updated api', 'created api']);
    expect(entries[0]).toMatchObject({ keyId: null, method: null, path: null });
    // A demo organization, a send and up to a hundred reads of the log: more than the default 30 s on a busy machine.
  });

  it('is admin for the admin CLI, and a key’s use (its lastUsedAt, written by no one) adds no entry', async () => {
    const { client, organizationId } = await api.organization();
    expect((await admin('org', 'plan', '--org', organizationId, '--plan', 'starter')).code).toBe(0);
    const issued = JSON.parse((await admin('key', 'create', '--org', organizationId, '--name', 'Reports', '--scopes', 'read')).stdout);
    expect((await api.as(issued.apiKey).get('/v1/leads')).status).toBe(200);
    const entries = await allEntries(client);
    expect(summary(entries)).toEqual(['created api_key', 'updated organization']);
    expect(entries[0]).toMatchObject({ resourceId: issued.keyId, keyId: null, keyName: null, method: null, path: null, via: 'admin', requestId: expect.stringMatching(/^admin_/) });
    expect(entries[1]).toMatchObject({ resourceId: organizationId, via: 'admin' });
    expect(entries[0]!.requestId).not.toBe(entries[1]!.requestId);
  });
});

describe('writes the service makes itself', () => {
  it('never attributes to a key the disabling of a subscription whose receiver answered a redelivery 410 Gone', async () => {
    // docs/decisions/security.md: the writer is whoever made the request, and work done by no writer leaves no entry.
    // The key asked for a redelivery (202); it was the receiver's 410, answered later to the delivery worker, that
    // disabled the subscription, as a 410 to a first delivery does, which leaves no entry.
    const { named, key } = await organizationWithNamedKey('Zapier');
    const receiver = await startReceiver();
    receiver.answerWith(200, 410);
    const webhook = (await named.post('/v1/webhooks', { url: receiver.url, events: ['lead.created'] })).body.webhook;
    await named.post('/v1/leads', { name: 'Gone Later', email: 'gone.later@example.com' });
    await receiver.waitFor(1);
    await api.eventsCaughtUp();
    const [event] = (await named.get('/v1/events?type=lead.created')).body.events;
    expect((await named.post(`/v1/events/${event.id}/redeliver`, { webhookId: webhook.id })).status).toBe(202);
    await receiver.waitFor(2);
    for (let tries = 0; tries < 100 && (await named.get(`/v1/webhooks/${webhook.id}`)).body.webhook.isEnabled; tries++) await new Promise((resolve) => setTimeout(resolve, 50));
    await receiver.close();
    expect((await named.get(`/v1/webhooks/${webhook.id}`)).body.webhook.disabledReason).toBe('GONE');

    const entries = await allEntries(named, `&resourceType=webhook&resourceId=${webhook.id}`);
    expect(entries.filter((entry) => entry.keyId === key.keyId).map((entry) => `${entry.action} ${entry.method} ${entry.path}`)).toEqual(['created POST /v1/webhooks']);
  });
});

describe('filters', () => {
  it('by key, by kind of record and by record, newest first with the project’s pages', async () => {
    const { organizationId, named, key } = await organizationWithNamedKey('First');
    const other = await createApiKey(organizationId, null, 'Second');
    const mine = (await named.post('/v1/faqs', { question: 'Mine?', answer: 'Yes.' })).body.faq;
    const theirs = (await api.as(other.token).post('/v1/faqs', { question: 'Theirs?', answer: 'Yes.' })).body.faq;
    await api.as(other.token).post('/v1/policies', { title: 'Call-out fee', content: '$90.' });
    await named.patch(`/v1/faqs/${mine.id}`, { answer: 'Still yes.' });

    expect(summary(await allEntries(named, `&keyId=${key.keyId}`))).toEqual(['updated faq', 'created faq']);
    expect((await allEntries(named, `&keyId=${other.key.keyId}`)).map((entry) => entry.keyName)).toEqual(['Second', 'Second']);
    expect(summary(await allEntries(named, '&resourceType=faq'))).toEqual(['updated faq', 'created faq', 'created faq']);
    expect((await allEntries(named, `&resourceType=faq&resourceId=${theirs.id}`)).map((entry) => entry.keyId)).toEqual([other.key.keyId]);
    expect(await allEntries(named, '&resourceType=lead')).toEqual([]);

    const first = await named.get('/v1/audit-log?limit=2');
    expect(first.body).toMatchObject({ totalCount: 4, totalPages: 2, currentPage: 1, nextCursor: expect.any(String) });
    const second = await named.get(`/v1/audit-log?limit=2&cursor=${encodeURIComponent(first.body.nextCursor)}`);
    expect([...first.body.entries, ...second.body.entries]).toEqual(await allEntries(named));
    expect(second.body.nextCursor).toBeNull();
  });

  it('by time: from inclusive, to exclusive', async () => {
    const { named } = await organizationWithNamedKey();
    await named.post('/v1/faqs', { question: 'Before?', answer: 'Yes.' });
    const [before] = await allEntries(named);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await named.post('/v1/faqs', { question: 'After?', answer: 'Yes.' });
    const [after] = await allEntries(named);
    const q = encodeURIComponent;
    expect((await allEntries(named, `&from=${q(after!.at)}`)).map((entry) => entry.id)).toEqual([after!.id]);
    expect((await allEntries(named, `&to=${q(after!.at)}`)).map((entry) => entry.id)).toEqual([before!.id]);
    expect((await allEntries(named, `&from=${q(before!.at)}&to=${q(after!.at)}`)).map((entry) => entry.id)).toEqual([before!.id]);
    expect((await allEntries(named, `&from=${q(before!.at)}&resourceType=faq`)).map((entry) => entry.id)).toEqual([after!.id, before!.id]);
    // Older than the 90 days kept: nothing, without an error.
    expect(await allEntries(named, '&to=2000-01-01T00:00:00Z')).toEqual([]);
  });

  it('reads a time before 1970 as the epoch, where entry ids begin: from and updatedSince list every entry, to none', async () => {
    const { named } = await organizationWithNamedKey();
    await named.post('/v1/faqs', { question: 'Before?', answer: 'Yes.' });
    await named.post('/v1/faqs', { question: 'After?', answer: 'Yes.' });
    const newestFirst = (await allEntries(named)).map((entry) => entry.id);
    expect(newestFirst).toHaveLength(2);
    const q = encodeURIComponent;
    expect(await allEntries(named, '&to=1969-12-31T00:00:00Z')).toEqual([]);
    expect((await allEntries(named, `&from=${q('1969-12-31T00:00:00Z')}`)).map((entry) => entry.id)).toEqual(newestFirst);
    // A sync answers a cursor at its end too (where the next poll resumes): one page holds both.
    const synced = await named.get(`/v1/audit-log?updatedSince=${q('1969-12-31T00:00:00Z')}`);
    expect(synced.status).toBe(200);
    expect(synced.body.entries.map((entry: Entry) => entry.id)).toEqual([...newestFirst].reverse());
  });

  it.each([
    ['resourceId=lead_01JA0000000000000000000000', 'resourceId'],
    ['keyId=key_01JA0000000000000000000000&resourceType=lead', 'keyId'],
    ['from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z', 'to'],
    ['updatedSince=2026-01-01T00:00:00Z&from=2026-01-01T00:00:00Z', 'updatedSince'],
    ['resourceType=Lead%23X', 'resourceType'],
    ['resourceType=banana', 'resourceType'],
    ['resourceType=Lead', 'resourceType'],
    ['resourceType=lead&resourceId=a%23b', 'resourceId'],
    ['keyId=nope', 'keyId'],
    ['from=yesterday', 'from'],
  ])('answers 400 naming the field for %s', async (query, field) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/audit-log?${query}`);
    expect([res.status, res.body.error.details[0].path]).toEqual([400, field]);
  });

  it('names the kinds of record it takes when resourceType is none of them', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/audit-log?resourceType=banana');
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'resourceType', message: `resourceType must be one of ${AUDIT_RESOURCE_TYPES.join(', ')}` }]);
    expect(res.body.error.details[0].message).toContain('company_note');
  });
});

describe('isolation', () => {
  it('never lists another organization’s entries, whatever the filter names', async () => {
    const a = await organizationWithNamedKey();
    const b = await api.organization();
    const lead = (await a.named.post('/v1/leads', { name: 'Only A', email: 'a@example.com' })).body.lead;
    // A's own: the lead and its LEAD_CREATED activity, both by its key.
    expect((await allEntries(a.named)).map((entry) => [entry.resourceType, entry.action, entry.keyId]).sort()).toEqual([
      ['activity', 'created', a.key.keyId],
      ['lead', 'created', a.key.keyId],
    ]);
    expect(await allEntries(b.client)).toEqual([]);
    expect(await allEntries(b.client, `&keyId=${a.key.keyId}`)).toEqual([]);
    expect(await allEntries(b.client, `&resourceType=lead&resourceId=${lead.id}`)).toEqual([]);
    expect(await allEntries(b.client, '&resourceType=lead')).toEqual([]);
  });

  it('records nothing for writes made by no writer: the organization, member and key the seed code makes, a key issued in code', async () => {
    const { client, organizationId } = await api.organization();
    await createApiKey(organizationId, null, 'Made in code');
    expect(await allEntries(client)).toEqual([]);
  });
});

describe('the records audited', () => {
  it('include every kind of record that has events, each with its own resourceType, named in the entry’s description', () => {
    const audited = resources.flatMap((resource) => resource.audited ?? []);
    for (const source of resources.flatMap((resource) => resource.events ?? [])) expect(audited.map((record) => record.entity), source.entity).toContain(source.entity);
    const types = audited.map((record) => record.resourceType);
    expect(new Set(types).size).toBe(types.length);
    const described = JSON.stringify(AuditEntry.entries.resourceType);
    for (const type of types) expect(described).toContain(`\`${type}\``);
    // The resourceType filter takes exactly these.
    expect([...AUDIT_RESOURCE_TYPES].sort()).toEqual([...types].sort());
  });
});
