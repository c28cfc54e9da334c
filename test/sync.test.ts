import { describe, expect, it, vi } from 'vitest';
import { createMember } from '../functions/organization/member-rules';
import { routes } from '../functions/resources';
import { deliver } from '../functions/webhooks/delivery';
import { deliveryQueue } from '../functions/webhooks/queue';
import { useTestApi, type Client } from './support/api';
import { measureDynamoCalls } from './support/dynamo-calls';
import { created, cut, fixedProduct } from './support/fixtures';
import { startReceiver } from './support/receiver';
import { withinBudget } from './support/route-tour';

const api = useTestApi({ events: true });


const q = encodeURIComponent;

interface Poll {
  items: any[];
  pages: number;
  /** The nextCursor of the last page: where the next poll resumes. */
  cursor: string | null;
  totalCount: number;
}

/** Every change from `since` on, walked by nextCursor until a page comes back empty, as a poller does. */
async function poll(client: Client, path: string, key: string, since: string, { limit = 1, cursor = null as string | null } = {}): Promise<Poll> {
  const items: any[] = [];
  let pages = 0;
  let totalCount = -1;
  for (;;) {
    const res = await client.get(`${path}${path.includes('?') ? '&' : '?'}updatedSince=${q(since)}&limit=${limit}${cursor ? `&cursor=${q(cursor)}` : ''}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    if (pages === 0) totalCount = res.body.totalCount;
    pages++;
    items.push(...res.body[key]);
    if (res.body[key].length === 0) {
      // Caught up: the cursor stays where it was, so the next poll starts there.
      expect(res.body.nextCursor).toBe(cursor);
      return { items, pages, cursor, totalCount };
    }
    expect(res.body.nextCursor, 'a page with changes always says where the next poll resumes').not.toBeNull();
    cursor = res.body.nextCursor;
  }
}

interface Syncable {
  name: string;
  path: string;
  key: string;
  /** The event type a delete is read from, for resources that can be deleted. */
  deleted?: string;
  setup?: (client: Client) => Promise<Record<string, any>>;
  create: (client: Client, n: number, ctx: Record<string, any>) => Promise<string | number>;
  /** Changes the record; `n` makes each change different. */
  update: (client: Client, id: string | number, n: number) => Promise<void>;
  /** What the record shows after `update(…, n)`. */
  changed: (n: number) => Record<string, unknown>;
}

async function ok(res: Promise<{ status: number; body: unknown }>) {
  const answer = await res;
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
}

const email = { from: 'sam@example.com', to: 'office@example.com', body: 'Could you quote for a 250 L unit?', receivedAt: '2026-11-20T10:00:00.000Z' };
const service = { description: 'Clearing blocked drains', followUpQuestions: ['Which drain?'], duration: 90, durationUnit: 'MINUTES', tradeCategoryId: 1, pricingType: 'NONE' };

const SYNCABLE: Syncable[] = [
  {
    name: 'leads',
    path: '/v1/leads',
    key: 'leads',
    deleted: 'lead.deleted',
    create: async (client, n) => (await created(client, '/v1/leads', 'lead', { name: `Sync${n} Lead`, email: `sync${n}@example.com` })).id,
    update: (client, id, n) => ok(client.patch(`/v1/leads/${id}`, { suburb: `Suburb ${n}` })),
    changed: (n) => ({ suburb: `Suburb ${n}` }),
  },
  {
    name: 'inquiries',
    path: '/v1/inquiries',
    key: 'inquiries',
    create: async (client, n) => (await created(client, '/v1/inquiries', 'inquiry', { source: 'EMAIL', lead: { email: `inquirer${n}@example.com` }, data: { ...email, subject: `Quote ${n}` } })).id,
    update: (client, id, n) => ok(client.patch(`/v1/inquiries/${id}`, { tag: n % 2 ? 'FOLLOW_UP' : 'QUOTE_REQUEST' })),
    changed: (n) => ({ tag: n % 2 ? 'FOLLOW_UP' : 'QUOTE_REQUEST' }),
  },
  {
    name: 'companies',
    path: '/v1/companies',
    key: 'companies',
    deleted: 'company.deleted',
    create: async (client, n) => (await created(client, '/v1/companies', 'company', { name: `Company ${n}` })).id,
    update: (client, id, n) => ok(client.patch(`/v1/companies/${id}`, { address: `${n} Military Rd, Neutral Bay` })),
    changed: (n) => ({ address: `${n} Military Rd, Neutral Bay` }),
  },
  {
    name: 'products',
    path: '/v1/products',
    key: 'products',
    deleted: 'product.deleted',
    create: async (client, n) => (await created(client, '/v1/products', 'product', fixedProduct(`Product ${n}`))).id,
    update: (client, id, n) => ok(client.patch(`/v1/products/${id}`, { price: 100 + n })),
    changed: (n) => ({ price: 100 + n }),
  },
  {
    name: 'services',
    path: '/v1/services',
    key: 'services',
    deleted: 'service.deleted',
    create: async (client, n) => (await created(client, '/v1/services', 'service', { ...service, name: `Service ${n}` })).id,
    update: (client, id, n) => ok(client.patch(`/v1/services/${id}`, { description: `Clearing drains, take ${n}` })),
    changed: (n) => ({ description: `Clearing drains, take ${n}` }),
  },
  {
    name: 'appointments',
    path: '/v1/appointments',
    key: 'appointments',
    setup: async (client) => ({
      lead: await created(client, '/v1/leads', 'lead', { name: 'Olivia Nguyen', email: 'olivia@example.com' }),
      member: await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' }),
    }),
    create: async (client, n, { lead, member }) =>
      (
        await created(client, '/v1/appointments', 'appointment', {
          leadId: lead.id,
          title: `Visit ${n}`,
          startsAt: `2027-01-${String(n + 10).padStart(2, '0')}T09:00:00.000Z`,
          endsAt: `2027-01-${String(n + 10).padStart(2, '0')}T10:00:00.000Z`,
          attendees: [{ userId: member.user.id }],
        })
      ).id,
    update: (client, id, n) => ok(client.patch(`/v1/appointments/${id}`, { title: `Visit, take ${n}` })),
    changed: (n) => ({ title: `Visit, take ${n}` }),
  },
];

describe.each(SYNCABLE)('GET $path?updatedSince=…', ({ path, key, deleted, setup, create, update, changed }) => {
  it('walks exactly the changes at or after the time, oldest change first, across pages; a record changed again comes again', async () => {
    const { client } = await api.organization();
    const ctx = (await setup?.(client)) ?? {};
    const untouched = await create(client, 1, ctx);
    const updated = await create(client, 2, ctx);
    const gone = await create(client, 3, ctx);
    const since = await cut();

    await update(client, updated, 1);
    const fresh = await create(client, 4, ctx);
    // A resource that cannot be deleted changes the third record instead, the last change of the walk.
    if (deleted) expect((await client.delete(`${path}/${gone}`)).status).toBe(200);
    else await update(client, gone, 1);
    const expected = deleted ? [updated, fresh] : [updated, fresh, gone];

    const walked = await poll(client, path, key, since);
    expect(walked.items.map((item) => item.id)).toEqual(expected);
    expect(walked.items[0]).toMatchObject(changed(1));
    expect(walked.items.map((item) => item.id)).not.toContain(untouched);
    expect(walked.totalCount).toBe(expected.length);
    expect(walked.pages).toBe(expected.length + 1);
    const times = walked.items.map((item) => item.updatedAt as string);
    expect(times.every((time) => time >= since)).toBe(true);
    expect([...times].sort()).toEqual(times);

    // Nothing changed since: the poll from the cursor is empty. Then the first record and the last one (where the
    // cursor stands) change again, after the poller passed them: they come again, once each, in their latest state.
    expect((await poll(client, path, key, since, { cursor: walked.cursor })).items).toEqual([]);
    const last = expected.at(-1)!;
    await update(client, updated, 2);
    await update(client, last, 3);
    const again = await poll(client, path, key, since, { cursor: walked.cursor, limit: 10 });
    expect(again.items.map((item) => item.id)).toEqual([updated, last]);
    expect(again.items[0]).toMatchObject(changed(2));
    expect(again.items[1]).toMatchObject(changed(3));
    expect(again.items[0].updatedAt > times[0]!).toBe(true);
   });

  if (deleted) {
    it(`shows a delete to the poller as a ${deleted} event, read with the same updatedSince`, async () => {
      const { client } = await api.organization();
      const ctx = (await setup?.(client)) ?? {};
      const before = await create(client, 1, ctx);
      const since = await cut();
      const gone = await create(client, 2, ctx);
      expect((await client.delete(`${path}/${gone}`)).status).toBe(200);
      expect((await client.delete(`${path}/${before}`)).status).toBe(200);
      await api.eventsCaughtUp();
      expect((await poll(client, path, key, since)).items).toEqual([]);
      // A delete's occurredAt is the stream record's time, to the second deployed and to the minute in DynamoDB Local
      // (docs/decisions/events-and-webhooks.md): a poller reads deletions with that much overlap, by event id once.
      const overlap = new Date(Date.parse(since) - 60_000).toISOString();
      const events = await poll(client, `/v1/events?type=${deleted}`, 'events', overlap, { limit: 10 });
      expect(new Set(events.items.map((event) => event.data.id))).toEqual(new Set([gone, before]));
      const times = events.items.map((event) => event.occurredAt as string);
      expect([...times].sort()).toEqual(times);
    });
  }
});

describe('updatedSince', () => {
  it('answers 400 naming updatedSince for a value that is not a timestamp', async () => {
    const { client } = await api.organization();
    for (const value of ['yesterday', '2026-13-01T00:00:00Z', '2026-02-30T00:00:00Z', '']) {
      const res = await client.get(`/v1/leads?updatedSince=${q(value)}`);
      expect(res.status, value).toBe(400);
      expect(res.body.error.details[0].path).toBe('updatedSince');
    }
  });

  it('takes any ISO 8601 offset and reads it as the same instant', async () => {
    const { client } = await api.organization();
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Offset Lead', email: 'offset@example.com' });
    // The lead's own change time and the millisecond after it, written as Sydney's local time (+10:00).
    const inSydney = (ms: number) => new Date(ms + 10 * 3_600_000).toISOString().replace('Z', '+10:00');
    const at = Date.parse(lead.updatedAt);
    expect((await client.get(`/v1/leads?updatedSince=${q(inSydney(at))}`)).body.leads.map((l: { id: string }) => l.id)).toEqual([lead.id]);
    expect((await client.get(`/v1/leads?updatedSince=${q(inSydney(at + 1))}`)).body.leads).toEqual([]);
    // RFC 3339 lets T and Z be lower case.
    expect((await client.get(`/v1/leads?updatedSince=${q(lead.updatedAt.replace('T', 't').replace('Z', 'z'))}`)).body.leads.map((l: { id: string }) => l.id)).toEqual([lead.id]);
  });

  it('answers an empty page for a time in the future', async () => {
    const { client } = await api.organization();
    await created(client, '/v1/leads', 'lead', { name: 'Now Lead', email: 'now@example.com' });
    const res = await client.get(`/v1/leads?updatedSince=${q('2999-01-01T00:00:00.000Z')}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ leads: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });

  it.each([
    ['/v1/leads?status=NEW', 'status'],
    ['/v1/inquiries?source=EMAIL', 'source'],
    ['/v1/products?isActive=true', 'isActive'],
    ['/v1/appointments?from=2027-01-01T00:00:00.000Z', 'from'],
    ['/v1/sms?status=SENT', 'status'],
  ])('answers 400 naming updatedSince when combined with another filter: %s', async (path, filter) => {
    const { client } = await api.organization();
    const res = await client.get(`${path}&updatedSince=${q(new Date().toISOString())}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'updatedSince', message: `updatedSince cannot be combined with ${filter}` }]);
  });

  it('combines with an events type and an inquiries expand, which need no index of their own', async () => {
    const { client } = await api.organization();
    const since = await cut();
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Typed Lead', email: 'typed@example.com' });
    await created(client, '/v1/inquiries', 'inquiry', { source: 'EMAIL', lead: { email: 'typed@example.com' }, data: { ...email, subject: 'Typed' } });
    await api.eventsCaughtUp();
    const events = await poll(client, '/v1/events?type=lead.created', 'events', since, { limit: 10 });
    expect(events.items.map((event) => event.data.id)).toEqual([lead.id]);
    const inquiries = await poll(client, '/v1/inquiries?expand=lead', 'inquiries', since, { limit: 10 });
    expect(inquiries.items.map((inquiry) => inquiry.lead.id)).toEqual([lead.id]);
  });

  it("never shows another organization's changes", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const since = await cut();
    const mine = await created(a.client, '/v1/companies', 'company', { name: 'Ours' });
    await created(b.client, '/v1/companies', 'company', { name: 'Theirs' });
    await created(b.client, '/v1/leads', 'lead', { name: 'Their Lead', email: 'theirs@example.com' });
    expect((await poll(a.client, '/v1/companies', 'companies', since, { limit: 10 })).items.map((c) => c.id)).toEqual([mine.id]);
    expect((await poll(a.client, '/v1/leads', 'leads', since, { limit: 10 })).items).toEqual([]);
    // A cursor of one organization's change log is refused by another's.
    const { cursor } = await poll(a.client, '/v1/companies', 'companies', since, { limit: 10 });
    expect((await b.client.get(`/v1/companies?updatedSince=${q(since)}&cursor=${q(cursor!)}`)).status).toBe(400);
  });

  it('reads page 1 with the change log Query and its COUNT Query, sent together', async () => {
    const { client } = await api.organization();
    const since = await cut();
    for (let n = 0; n < 3; n++) await created(client, '/v1/companies', 'company', { name: `Counted ${n}` });
    const route = routes.find((r) => r.operationId === 'listCompanies')!;
    for (const path of [`/v1/companies?updatedSince=${q(since)}&limit=2`, `/v1/leads?updatedSince=${q(since)}`]) {
      const calls = await measureDynamoCalls(() => client.get(path));
      expect(calls.map((call) => call.command)).toEqual(['QueryCommand', 'QueryCommand']);
      expect(withinBudget({ route, kind: 'list', path, status: 200, calls }), path).toBe(true);
    }
  });
});

describe('updatedSince on the logs of when things happened: events, the audit log, deliveries', () => {
  it('answers a record of the exact millisecond given (at or after it), and not one a millisecond before it', async () => {
    const { client } = await api.organization();
    const receiver = await startReceiver();
    const webhook = await created(client, '/v1/webhooks', 'webhook', { url: receiver.url, events: ['lead.created'] });
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Boundary Lead', email: 'boundary@example.com' });
    await api.eventsCaughtUp();
    await receiver.waitFor(1);
    const deliveries = `/v1/webhooks/${webhook.id}/deliveries`;
    await vi.waitFor(async () => expect((await client.get(deliveries)).body.totalCount).toBe(1), { timeout: 10_000 });
    await receiver.close();

    const logs = [
      { path: '/v1/events', key: 'events', field: 'occurredAt', of: (event: any) => event.type === 'lead.created' && event.data.id === lead.id },
      { path: '/v1/audit-log', key: 'entries', field: 'at', of: (entry: any) => entry.resourceId === lead.id },
      { path: deliveries, key: 'deliveries', field: 'attemptedAt', of: () => true },
    ];
    for (const { path, key, field, of } of logs) {
      const record = ((await client.get(`${path}?limit=100`)).body[key] as any[]).find(of);
      expect(record, path).toBeDefined();
      const at = Date.parse(record[field]);
      const idsSince = async (ms: number) => ((await client.get(`${path}?updatedSince=${q(new Date(ms).toISOString())}&limit=100`)).body[key] as { id: string }[]).map((item) => item.id);
      expect.soft(await idsSince(at), `${path}: ${field} equal to updatedSince`).toContain(record.id);
      expect.soft(await idsSince(at + 1), `${path}: ${field} 1 ms before updatedSince`).not.toContain(record.id);
    }
  });
});

describe('GET /v1/webhooks/{webhookId}/deliveries?updatedSince=…', () => {
  it("completes a redelivery's PENDING record in place: a poller past it reads the outcome from the list, under the id the redelivery answered", async () => {
    // README "Syncing changes": delivery records are read by the time of their attempt and never change, but for a
    // redelivery's, which is written PENDING when asked and completed by its attempt under the same id.
    const { client } = await api.organization();
    const receiver = await startReceiver();
    const webhook = await created(client, '/v1/webhooks', 'webhook', { url: receiver.url, events: ['lead.created'] });
    await created(client, '/v1/leads', 'lead', { name: 'Redelivered Lead', email: 'redelivered@example.com' });
    await receiver.waitFor(1);
    await api.eventsCaughtUp();
    const [event] = (await client.get('/v1/events?type=lead.created')).body.events;
    const path = `/v1/webhooks/${webhook.id}/deliveries`;
    await vi.waitFor(async () => expect((await client.get(path)).body.totalCount).toBe(1), { timeout: 5_000 });
    const since = await cut();

    // The redelivery's job is held in the queue, as SQS holds it until a worker takes it.
    const send = vi.spyOn(deliveryQueue(), 'send').mockImplementationOnce(async () => undefined);
    const redelivery = await client.post(`/v1/events/${event.id}/redeliver`, { webhookId: webhook.id });
    expect(redelivery.status).toBe(202);
    const [job] = send.mock.calls[0]![0];
    send.mockRestore();
    const walked = await poll(client, path, 'deliveries', since);
    expect(walked.items.map((delivery) => [delivery.id, delivery.status])).toEqual([[redelivery.body.delivery.id, 'PENDING']]);

    await deliver(job!);
    await receiver.waitFor(2);
    await receiver.close();
    // The cursor has passed its id: the outcome is read from the list, newest first, under the same id.
    expect((await poll(client, path, 'deliveries', since, { cursor: walked.cursor, limit: 10 })).items).toEqual([]);
    const listed = (await client.get(path)).body.deliveries as { id: string; status: string }[];
    expect(listed.map((delivery) => [delivery.id, delivery.status])[0]).toEqual([redelivery.body.delivery.id, 'SUCCEEDED']);
  });
});

describe('an SMS inquiry, whose thread shows its messages', () => {
  it('comes again to a poller when a reply is added to its thread, with the reply in it', async () => {
    // docs/decisions/api-conventions.md "Sync": updatedAt is moved by every write of what the API shows. An SMS
    // inquiry shows its thread's messages (GET /v1/inquiries/{id}: data.messages), so a reply changes it.
    const { client, organizationId } = await api.organization();
    const number = '+61299990123';
    expect((await client.patch('/v1/organization', { smsSenderId: number })).status).toBe(200);
    const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Priya', lastName: 'Sharma', email: 'priya@example.com.au' });
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Olivia Nguyen', email: 'olivia@example.com.au', phone: '+61412345001' });
    expect((await client.post('/v1/sms', { userId: member.user.id, leadId: lead.id, message: 'Can we come at 10?' })).status).toBe(201);
    const reply = async (body: string) => {
      const res = await fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: '+61412345001', to: number, body }) });
      expect(res.status).toBe(202);
      await api.eventsCaughtUp();
    };
    // The first reply makes the thread's inquiry unread; the second arrives in a thread already unread.
    await reply('Yes, 10 works');
    const [inquiry] = (await client.get(`/v1/inquiries?leadId=${lead.id}&source=SMS`)).body.inquiries;
    const since = await cut();
    await reply('Could you bring the quote too?');

    const shown = (await client.get(`/v1/inquiries/${inquiry.id}`)).body;
    expect(shown.data.messages.map((message: { body: string }) => message.body)).toContain('Could you bring the quote too?');
    expect(shown.updatedAt >= since, `updatedAt ${shown.updatedAt} moved by the reply at or after ${since}`).toBe(true);
    const walked = await poll(client, '/v1/inquiries', 'inquiries', since, { limit: 10 });
    expect(walked.items.map((item) => item.id)).toEqual([inquiry.id]);
  });
});

/** Paged lists that take no updatedSince, and why (each refuses it 400 in its own tests). */
const UNSYNCED_LISTS: Record<string, string> = {
  listHolds: 'a hold lives five minutes, and each new one is a hold.created event (docs/decisions/receptionist-and-appointments.md)',
  listStoppedAutomationRuns: 'a stopped run never changes again: stoppedSince reads those stopped since an instant (docs/decisions/automation-runs.md)',
  listLeadAutomationRuns: 'a run’s changes are in its automation’s log: GET /v1/automations/{automationId}/runs?updatedSince reads them (docs/decisions/automation-runs.md)',
  listConversations: 'a view of the SMS messages and the leads, each synced by its own list: GET /v1/sms?updatedSince and GET /v1/leads?updatedSince read every change a conversation shows (docs/decisions/sms.md)',
};
/** The list routes: every route that answers a page (its response has a nextCursor), but those. */
const LIST_ROUTES = routes.filter((route) => route.method === 'GET' && 'nextCursor' in ((route.response as { entries?: object }).entries ?? {}) && !(route.operationId in UNSYNCED_LISTS));

/** The record lists whose item's change time is not `updatedAt`: immutable records, by when they happened. */
const TIME_FIELD: Record<string, string> = { listEvents: 'occurredAt', listWebhookDeliveries: 'attemptedAt', listAuditLog: 'at' };

/**
 * Sub-collection lists read their owner's counter with the page, so an unknown owner answers 404: three calls,
 * together. Deliveries read the subscription beside the page and its count, an automation's runs the automation.
 */
const THREE_CALLS = new Set(['listLeadActivities', 'listCompanyNotes', 'listWebhookDeliveries', 'listAutomationRuns']);

describe('every list route takes updatedSince', () => {
  it('knows the list routes from the route table', () => {
    // Each list a route table's change adds is walked below; this count says so when it changes.
    expect(LIST_ROUTES.length).toBe(22);
    // GET /v1/organization/services groups every service by category, unpaged: GET /v1/services?updatedSince syncs them.
    // GET /v1/receptionist/context is one answer made of the lists, re-read whole and validated by its ETag.
    // GET /v1/availability computes free times from hours and bookings: nothing is stored to sync.
    // GET /v1/trade-categories is the built-in catalog, which changes only with a release.
    // GET /v1/automation-templates is the built-in recipes, which change only with a release.
    // GET /v1/reports/* are figures over a range of days, computed from counters: nothing of them is a record to sync.
    // GET /v1/events/samples is a type's newest three events or its example: GET /v1/events?type= syncs the events.
    // GET /v1/oauth/grants answers the organization's live grants whole, unpaged as yet (docs/decisions/oauth.md).
    // GET /v1/me is the session's own member, organization and passkeys: one answer, no list of records.
    // GET /v1/api-keys answers the organization's keys whole (a few, made by hand), unpaged.
    // GET /v1/organization/members/{memberId}/passkeys answers a member's passkeys whole (one per device), unpaged.
    // GET /v1/availability/holds, GET /v1/automation-runs and GET /v1/conversations: UNSYNCED_LISTS.
    expect(routes.filter((route) => route.method === 'GET' && route.path.startsWith('/v1/') && !route.path.endsWith('}') && !LIST_ROUTES.includes(route)).map((route) => route.operationId).sort()).toEqual([
      'findAvailability',
      'getCurrentSession',
      'getOrganization',
      'getReceptionistContext',
      'getReportFunnel',
      'getReportSummary',
      'getReportTimeseries',
      'listApiKeys',
      'listAutomationTemplates',
      'listConversations',
      'listEventSamples',
      'listHolds',
      'listLeadAutomationRuns',
      'listMemberPasskeys',
      'listOauthGrants',
      'listOrganizationServices',
      'listPushSubscriptions',
      'listStoppedAutomationRuns',
      'listTradeCategories',
    ]);
  });

  it('lists only what changed since, oldest first, refuses a bad time, and keeps the list budget', async () => {
    const { client } = await api.organization({ demo: true });
    // The demo's own lead.created events are handed out before the subscription exists, so none of them reaches it.
    await api.eventsCaughtUp();
    const receiver = await startReceiver();
    const webhook = await created(client, '/v1/webhooks', 'webhook', { url: receiver.url, events: ['lead.created'] });
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Route Walker', email: 'walker@example.com' });
    const company = await created(client, '/v1/companies', 'company', { name: 'Walker Co' });
    await created(client, `/v1/companies/${company.id}/notes`, 'note', { value: 'Met on site' });
    await created(client, '/v1/inbound-endpoints', 'inboundEndpoint', { name: 'Website form', source: 'WEBFORM' });
    // Disabled: no change the walk makes starts a run of it.
    await created(client, '/v1/automations', 'automation', { fromTemplate: 'quote_follow_up', isEnabled: false });
    // On a status the walk never sets, the lead enrolled by hand: its run waits a day at its first step.
    const steps = [{ type: 'wait', duration: 'P1D' }, { type: 'add_note', template: 'Checked in' }];
    const automation = await created(client, '/v1/automations', 'automation', { name: 'Lost lead check-in', trigger: { event: 'lead.status_changed', filter: { to: 'LOST' } }, steps });
    const run = await created(client, `/v1/automations/${automation.id}/runs`, 'run', { leadId: lead.id });
    await vi.waitFor(async () => expect((await client.get(`/v1/automation-runs/${run.id}`)).body.run.status).toBe('WAITING'), { timeout: 10_000 });
    await api.eventsCaughtUp();
    await receiver.waitFor(1);
    // The attempt is recorded once the receiver has answered: the one lead.created, answered at once, so one attempt.
    await vi.waitFor(async () => expect((await client.get(`/v1/webhooks/${webhook.id}/deliveries`)).body.totalCount).toBe(1), { timeout: 10_000 });
    await receiver.close();
    const since = await cut();
    const ids: Record<string, string> = { leadId: lead.id, companyId: company.id, webhookId: webhook.id, automationId: automation.id };
    const pathOf = (path: string) => path.replace(/\{(\w+)\}/g, (_, name: string) => ids[name]!);
    const key = (body: Record<string, unknown>) => Object.keys(body).find((name) => Array.isArray(body[name]))!;
    /** Every item of a list, page after page by its cursors (the demo's events are more than a page). */
    const everyPage = async (url: string) => {
      const items: Record<string, string>[] = [];
      for (let cursor: string | undefined, full = true; full; ) {
        const res = await client.get(cursor ? `${url}&cursor=${encodeURIComponent(cursor)}` : url);
        expect(res.status, url).toBe(200);
        const page = res.body[key(res.body)] as Record<string, string>[];
        items.push(...page);
        cursor = res.body.nextCursor ?? undefined;
        // A change log's page carries a cursor to resume from even when it is the last; a short page is the end.
        full = page.length === 100 && cursor !== undefined;
      }
      return items;
    };

    for (const route of LIST_ROUTES) {
      const path = pathOf(route.path);
      const items = await everyPage(`${path}?limit=100`);
      const field = TIME_FIELD[route.operationId] ?? 'updatedAt';

      // Everything there is changed before the cut: none of it comes after it.
      const after = await client.get(`${path}?updatedSince=${q(since)}`);
      expect(after.status, route.operationId).toBe(200);
      expect(after.body[key(after.body)], route.operationId).toEqual([]);
      expect(after.body.totalCount, route.operationId).toBe(0);

      // From the start of time: every item of the list, oldest change first, each with its change time.
      const synced = await everyPage(`${path}?updatedSince=${q('2000-01-01T00:00:00.000Z')}&limit=100`);
      expect(synced.length, `${route.operationId} has items to sync`).toBeGreaterThan(0);
      expect(synced.map((item) => item.id).sort(), route.operationId).toEqual(items.map((item) => item.id).sort());
      const times = synced.map((item) => item[field]!);
      expect(times.every(Boolean), `${route.operationId}: every item has ${field}`).toBe(true);
      expect([...times].sort(), route.operationId).toEqual(times);

      const bad = await client.get(`${path}?updatedSince=last-tuesday`);
      expect(bad.status, route.operationId).toBe(400);
      expect(bad.body.error.details[0].path, route.operationId).toBe('updatedSince');

      const calls = await measureDynamoCalls(() => client.get(`${path}?updatedSince=${q(since)}`));
      if (THREE_CALLS.has(route.operationId)) expect(calls.length, route.operationId).toBe(3);
      else expect(withinBudget({ route, kind: 'list', path, status: 200, calls }), `${route.operationId}: ${calls.map((call) => call.command).join(', ')}`).toBe(true);
    }
   }, 180_000);
});
