import { describe, expect, it } from 'vitest';
import { eventIdOf } from './ids';
import { createMember } from '../organization/member-rules';
import { SmsDeliveryError } from '../sms/sender';
import { eventKeys } from './entity';
import { recordEvents } from './store';
import { queryAll } from '#shared/store/query-page';
import { changedAttributes } from '#shared/resource';
import { setSmsSender } from '../sms/sender';
import { useTestApi, type Client } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { EVENT_TYPES } from './types';
import { lead as leadExample } from '../leads/examples';
import { created, createProduct, createService, createTransfer, fixedProduct, ISO_MS, itemsOf } from '../../test/support/fixtures';

const api = useTestApi({ events: true });

async function eventsOf(client: Client, query = '') {
  await api.eventsCaughtUp();
  const res = await client.get(`/v1/events?limit=100${query}`);
  expect(res.status).toBe(200);
  return res.body as { events: { id: string; type: string; occurredAt: string; organizationId: string; data: Record<string, any> }[]; totalCount: number };
}

const typesOf = (events: { type: string }[]) => events.map((event) => event.type);

describe('events derived from committed changes', () => {
  it('records lead.created, lead.updated and lead.deleted with the lead as the API returns it, newest first', async () => {
    const { client, organizationId } = await api.organization();
    const created = (await client.post('/v1/leads', { name: 'Ada Lovelace', email: 'ada@example.com' })).body.lead;
    const updated = (await client.patch(`/v1/leads/${created.id}`, { status: 'CONTACTED' })).body.lead;
    expect((await client.delete(`/v1/leads/${created.id}`)).status).toBe(200);

    const { events, totalCount } = await eventsOf(client);
    expect(typesOf(events)).toEqual(['lead.deleted', 'lead.updated', 'lead.created']);
    expect(totalCount).toBe(3);
    const [deleted, changed, first] = events;
    expect(first).toEqual({ id: expect.stringMatching(/^evt_[0-9A-HJKMNP-TV-Z]{26}$/), type: 'lead.created', occurredAt: expect.stringMatching(ISO_MS), organizationId, data: created });
    expect(changed!.data).toEqual(updated);
    expect(deleted!.data).toMatchObject({ id: created.id, status: 'CONTACTED' });
    expect(new Set(events.map((event) => event.id)).size).toBe(3);
  });

  // That every event type the resources emit is emitted (a new resource's too) the route tour checks, in
  // functions/audit-log/audit-log.test.ts; here, records of several kinds made and changed by hand.
  it('emits the created and updated events of the records it makes, and of a change of a field', async () => {
    const { client, organizationId } = await api.organization();
    const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Priya', lastName: 'Sharma', email: 'priya@example.com' });
    const lead = (await client.post('/v1/leads', { name: 'Sam Tradie', email: 'sam@example.com', phone: '+61412000111' })).body.lead;
    const product = await createProduct(client, fixedProduct('Tap washer'));
    await client.put(`/v1/products/${product.id}`, { price: 200 });
    const transfer = await createTransfer(client, { label: 'After hours', method: 'WARM', destinationType: 'PHONE_NUMBER', destination: '+61298765432', conditions: 'The caller has an emergency after hours.' });
    await client.put(`/v1/transfers/${transfer.id}`, { isEnabled: false });
    const policy = (await client.post('/v1/policies', { title: 'Call-out fee', content: '$99.' })).body.policy;
    await client.put(`/v1/policies/${policy.id}`, { isActive: false });
    await client.post('/v1/faqs', { question: 'Emergencies?', answer: 'Yes.' });
    await createService(client, { name: 'Gutter clean', duration: 2, durationUnit: 'HOURS', tradeCategoryId: 5 });
    await client.post('/v1/sms', { userId: member.user.id, leadId: lead.id, message: 'On our way' });

    const types = new Set(typesOf((await eventsOf(client)).events));
    for (const type of ['member.created', 'lead.created', 'product.created', 'product.updated', 'transfer.created', 'transfer.updated', 'policy.created', 'policy.updated', 'faq.created', 'service.created', 'inquiry.created', 'sms.sent']) {
      expect(types, type).toContain(type);
    }
  });

  it('carries the sent SMS with its thread and inquiry', async () => {
    const { client, organizationId } = await api.organization();
    const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Priya', lastName: 'Sharma', email: 'priya@example.com' });
    const lead = (await client.post('/v1/leads', { name: 'Sam Tradie', email: 'sam@example.com', phone: '+61412000111' })).body.lead;
    await client.post('/v1/sms', { userId: member.user.id, leadId: lead.id, message: 'On our way' });
    const [sent] = (await eventsOf(client, '&type=sms.sent')).events;
    const [inquiry] = (await eventsOf(client, '&type=inquiry.created')).events;
    expect(sent!.data).toMatchObject({ direction: 'OUTBOUND', status: 'SENT', body: 'On our way', userId: member.user.id, messageThreadId: inquiry!.data.sourceId, inquiryId: inquiry!.data.id });
    // As GET /v1/sms/{smsId} answers the message (which a receipt may since have moved to DELIVERED).
    const { status: _now, updatedAt: _moved, ...read } = (await client.get(`/v1/sms/${sent!.data.id}`)).body.sms;
    expect(Object.keys(sent!.data).sort()).toEqual(Object.keys({ status: 0, updatedAt: 0, ...read }).sort());
    expect(sent!.data).toMatchObject(read);
    expect(inquiry!.data).toMatchObject({ source: 'SMS', leadId: lead.id, isFirstInquiry: true });
  });

  it('records appointment.created when one is booked, and appointment.updated for a reschedule and a cancellation, with the appointment as the API returns it', async () => {
    const { client } = await api.organization();
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Olivia Nguyen', email: 'olivia@example.com' });
    const kate = await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
    const booked = await created(client, '/v1/appointments', 'appointment', { leadId: lead.id, title: 'Blocked drain inspection', startsAt: '2026-12-01T09:00:00Z', endsAt: '2026-12-01T10:00:00Z', attendees: [{ userId: kate.user.id }] });
    const moved = (await client.patch(`/v1/appointments/${booked.id}`, { startsAt: '2026-12-01T13:00:00Z', endsAt: '2026-12-01T14:00:00Z' })).body.appointment;
    const cancelled = (await client.patch(`/v1/appointments/${booked.id}`, { status: 'CANCELLED' })).body.appointment;

    const createdEvents = await eventsOf(client, '&type=appointment.created');
    expect(createdEvents.totalCount).toBe(1);
    expect(createdEvents.events[0]).toMatchObject({ type: 'appointment.created', data: booked });
    expect(createdEvents.events[0]!.data).toEqual(booked);
    const updated = await eventsOf(client, '&type=appointment.updated');
    expect(updated.events.map((event) => event.data)).toEqual([cancelled, moved]);
    expect(updated.events.map((event) => event.data.status)).toEqual(['CANCELLED', 'BOOKED']);
  });

  it('emits sms.failed, not sms.sent, when the provider refuses the message', async () => {
    const { client, organizationId } = await api.organization();
    const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Priya', lastName: 'Sharma', email: 'priya@example.com' });
    const lead = (await client.post('/v1/leads', { name: 'Sam Tradie', email: 'sam@example.com', phone: '+61412000111' })).body.lead;
    const restore = setSmsSender({ name: 'failing', send: async () => Promise.reject(new SmsDeliveryError('Carrier refused')) });
    try {
      expect((await client.post('/v1/sms', { userId: member.user.id, leadId: lead.id, message: 'Nope' })).status).toBe(502);
    } finally {
      setSmsSender(restore);
    }
    const types = typesOf((await eventsOf(client)).events);
    expect(types).toContain('sms.failed');
    expect(types).not.toContain('sms.sent');
  });

  it('emits nothing for a failed request', async () => {
    const { client } = await api.organization();
    expect((await client.post('/v1/leads', { name: 'No Email' })).status).toBe(400);
    expect((await client.patch('/v1/leads/lead_01HZZZZZZZZZZZZZZZZZZZZZZZ', { status: 'CONTACTED' })).status).toBe(404);
    expect((await client.post('/v1/policies', { title: '' })).status).toBe(400);
    expect(await eventsOf(client)).toMatchObject({ events: [], totalCount: 0 });
  });

  it('emits no lead.updated when an update changes nothing the API shows', async () => {
    const { client } = await api.organization();
    const lead = (await client.post('/v1/leads', { name: 'Same Same', email: 'same@example.com' })).body.lead;
    await client.patch(`/v1/leads/${lead.id}`, { status: lead.status });
    expect(typesOf((await eventsOf(client)).events)).toEqual(['lead.created']);
  });
});

describe('GET /v1/events', () => {
  it('filters by type, pages newest first, and counts exactly', async () => {
    const { client } = await api.organization();
    for (let i = 0; i < 5; i++) await client.post('/v1/leads', { name: `Lead${i} Smith`, email: `lead${i}@example.com` });
    await client.post('/v1/policies', { title: 'Warranty', content: '12 months.' });
    await api.eventsCaughtUp();

    const page1 = (await client.get('/v1/events?type=lead.created&limit=2')).body;
    const page3 = (await client.get('/v1/events?type=lead.created&limit=2&page=3')).body;
    expect(page1).toMatchObject({ totalCount: 5, totalPages: 3, currentPage: 1 });
    expect(page1.events.map((event: { data: { firstName: string } }) => event.data.firstName)).toEqual(['Lead4', 'Lead3']);
    expect(page3.events.map((event: { data: { firstName: string } }) => event.data.firstName)).toEqual(['Lead0']);
    expect((await client.get('/v1/events')).body.totalCount).toBe(6);
    expect((await client.get('/v1/events?type=policy.created')).body.events).toHaveLength(1);
  });

  it('stores each event with a TTL 30 days after it occurred', async () => {
    const { client, organizationId } = await api.organization();
    await client.post('/v1/leads', { name: 'Tess Kept', email: 'tess@example.com' });
    const [event] = (await eventsOf(client)).events;
    const stored = (await itemsOf(organizationId)).map((item) => JSON.parse(item)).filter((item) => item.entity === 'EVENT');
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({ id: event!.id, occurredAt: event!.occurredAt, expiresAtEpoch: Math.floor(Date.parse(event!.occurredAt) / 1000) + 30 * 86_400 });
  });

  it('lists only the last 30 days, though DynamoDB may not yet have deleted older events', async () => {
    const { client, organizationId } = await api.organization();
    const daysAgo = (days: number) => Date.now() - days * 86_400_000;
    const event = (at: number, sequence: string, email: string) => ({ id: eventIdOf(at, sequence), type: 'lead.created' as const, occurredAt: new Date(at).toISOString(), organizationId, data: { ...leadExample, email } });
    const recent = event(daysAgo(29.9), '100', 'recent@example.com');
    const expired = event(daysAgo(30.1), '101', 'expired@example.com');
    await recordEvents([recent, expired]);

    expect((await itemsOf(organizationId)).filter((item) => item.includes('"EVENT"'))).toHaveLength(2);
    expect((await client.get('/v1/events?type=lead.created')).body).toMatchObject({ events: [recent], totalCount: 1 });
    expect((await client.get('/v1/events')).body).toMatchObject({ events: [recent], totalCount: 1 });
  });

  it('answers 400 naming type for an unknown event type', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/events?type=lead.exploded');
    expect(res.status).toBe(400);
    expect(res.body.message).toContain('type');
  });

  it("never shows another organization's events", async () => {
    const a = await api.organization();
    const b = await api.organization();
    await a.client.post('/v1/leads', { name: 'Only A', email: 'only-a@example.com' });
    expect((await eventsOf(b.client)).totalCount).toBe(0);
    expect((await eventsOf(a.client)).events.every((event) => event.organizationId === a.organizationId)).toBe(true);
  });
});

describe('when an event occurred', () => {
  /** A request with its wall-clock window: a timestamp taken just before it is sent and one just after its answer. */
  async function timed<T>(request: () => Promise<T>): Promise<{ result: T; before: number; after: number }> {
    const before = Date.now();
    const result = await request();
    return { result, before, after: Date.now() };
  }
  const occurredAtOf = (events: { type: string; occurredAt: string }[], type: string) => {
    const matching = events.filter((event) => event.type === type);
    expect(matching, type).toHaveLength(1);
    return matching[0]!.occurredAt;
  };
  /** DynamoDB Local rounds a stream record's time down to the minute (AWS to the second). */
  const minuteOf = (at: number) => Math.floor(at / 60_000) * 60_000;

  it("is the entity's own createdAt or updatedAt, to the millisecond, within the request's window", async () => {
    const { client } = await api.organization();
    const lead = await timed(async () => (await client.post('/v1/leads', { name: 'Tim Stamp', email: 'tim@example.com' })).body.lead);
    const product = await timed(() => createProduct(client, fixedProduct('Tap washer')));
    const productUpdated = await timed(async () => (await client.put(`/v1/products/${product.result.id}`, { price: 200 })).body.product);
    const company = await timed(() => created(client, '/v1/companies', 'company', { name: 'Harbourside Strata', email: 'office@harbourside.example.com' }));
    const companyUpdated = await timed(async () => (await client.put(`/v1/companies/${company.result.id}`, { phone: '+61299551299' })).body.company);

    const { events } = await eventsOf(client);
    const expectations: [type: string, request: { before: number; after: number }, at: string][] = [
      ['lead.created', lead, lead.result.createdAt],
      ['product.created', product, product.result.createdAt],
      ['product.updated', productUpdated, productUpdated.result.updatedAt],
      ['company.created', company, company.result.createdAt],
      ['company.updated', companyUpdated, companyUpdated.result.updatedAt],
    ];
    for (const [type, { before, after }, at] of expectations) {
      const occurredAt = occurredAtOf(events, type);
      expect(occurredAt, type).toMatch(ISO_MS);
      expect(occurredAt, type).toBe(at);
      expect(Date.parse(occurredAt), type).toBeGreaterThanOrEqual(before);
      expect(Date.parse(occurredAt), type).toBeLessThanOrEqual(after);
    }
    // Not the stream record's time, which is rounded down: these carry their milliseconds.
    expect(events.some((event) => Date.parse(event.occurredAt) % 1000 !== 0)).toBe(true);
    expect(events.map((event) => event.occurredAt)).toEqual(expectations.map(([, , at]) => at).reverse());
  });

  it('is the time of the write for a lead or member update and an SMS status move: the updatedAt the API answered', async () => {
    const { client } = await api.organization();
    const lead = await created(client, '/v1/leads', 'lead', { name: 'Una Stamp', email: 'una@example.com', phone: '+61412345009' });
    const kate = await created(client, '/v1/organization/members', 'member', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' });
    await api.eventsCaughtUp();
    const patched = await timed(() => client.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED' }));
    const ingested = await timed(() =>
      created(client, '/v1/inquiries', 'inquiry', { source: 'EMAIL', lead: { email: 'una@example.com' }, data: { subject: 'Follow-up', from: 'una@example.com', to: 'office@example.com', body: 'Any news on the quote?', receivedAt: new Date().toISOString() } }),
    );
    const renamed = await timed(() => client.patch(`/v1/organization/members/${kate.id}`, { position: 'Lead plumber' }));
    const texted = await timed(() => client.post('/v1/sms', { userId: kate.user.id, leadId: lead.id, message: 'On our way' }));
    expect([patched.result.status, renamed.result.status]).toEqual([200, 200]);

    const { events } = await eventsOf(client);
    const leadUpdates = events.filter((event) => event.type === 'lead.updated').reverse();
    expect(leadUpdates.map((event) => event.data.status)).toEqual(['CONTACTED', 'CONTACTED', 'CONTACTED']);
    const windows: [string, { before: number; after: number }][] = [
      [leadUpdates[0]!.occurredAt, patched],
      [leadUpdates[1]!.occurredAt, ingested],
      [occurredAtOf(events, 'member.updated'), renamed],
      [occurredAtOf(events, 'sms.sent'), texted],
    ];
    expect(leadUpdates[0]!.occurredAt).toBe(patched.result.body.lead.updatedAt);
    expect(occurredAtOf(events, 'member.updated')).toBe(renamed.result.body.member.updatedAt);
    for (const [occurredAt, { before, after }] of windows) {
      expect(occurredAt).toMatch(ISO_MS);
      expect(Date.parse(occurredAt)).toBeGreaterThanOrEqual(before);
      expect(Date.parse(occurredAt)).toBeLessThanOrEqual(after);
    }
  });

  it("puts a delete, whose item records no time of it, no earlier than the item's last change and not after the request", async () => {
    const { client } = await api.organization();
    const policy = (await client.post('/v1/policies', { title: 'Call-out fee', content: '$99.' })).body.policy;
    await client.put(`/v1/policies/${policy.id}`, { isActive: false });
    const deleted = await timed(() => client.delete(`/v1/policies/${policy.id}`));
    expect(deleted.result.status).toBe(200);

    const { events } = await eventsOf(client);
    expect(typesOf(events)).toEqual(['policy.deleted', 'policy.updated', 'policy.created']);
    const [deletedAt, updatedAt, createdAt] = events.map((event) => Date.parse(event.occurredAt));
    expect(createdAt).toBeLessThanOrEqual(updatedAt!);
    expect(deletedAt).toBeGreaterThanOrEqual(Math.max(updatedAt!, minuteOf(deleted.before)));
    expect(deletedAt).toBeLessThanOrEqual(deleted.after);
  });

  it('is not a time the caller gave: an inquiry ingested with yesterday as its createdAt occurred during the request', async () => {
    const { client } = await api.organization();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    const ingested = await timed(() =>
      created(client, '/v1/inquiries', 'inquiry', {
        source: 'EMAIL',
        lead: { email: 'late@example.com' },
        createdAt: yesterday,
        data: { subject: 'Quote', from: 'late@example.com', to: 'office@example.com', body: 'Hot water system quote, please.', receivedAt: yesterday },
      }),
    );
    expect(ingested.result.createdAt).toBe(yesterday);
    const occurredAt = Date.parse(occurredAtOf((await eventsOf(client)).events, 'inquiry.created'));
    expect(occurredAt).toBeGreaterThanOrEqual(minuteOf(ingested.before));
    expect(occurredAt).toBeLessThanOrEqual(ingested.after);
  });
});

describe('GET /v1/events/samples', () => {
  const samplesOf = async (client: Client, type: string) => {
    const res = await client.get(`/v1/events/samples?type=${type}`);
    expect(res.status).toBe(200);
    return res.body.data as { id: string; type: string; organizationId: string; data: Record<string, unknown>; previousAttributes?: Record<string, unknown> }[];
  };

  it('answers the newest three events of the type, newest first, each as GET /v1/events/{eventId} answers it, in one Query', async () => {
    const { client } = await api.organization();
    for (let i = 0; i < 4; i++) await client.post('/v1/leads', { name: `Sample${i} Smith`, email: `sample${i}@example.com` });
    await client.post('/v1/policies', { title: 'Warranty', content: '12 months.' });
    const listed = (await eventsOf(client, '&type=lead.created')).events;
    const samples = await samplesOf(client, 'lead.created');
    expect(samples.map((event) => event.data.firstName)).toEqual(['Sample3', 'Sample2', 'Sample1']);
    expect(samples).toEqual(listed.slice(0, 3));
    for (const sample of samples) expect((await client.get(`/v1/events/${sample.id}`)).body).toEqual({ event: sample });
    expect(await samplesOf(client, 'lead.created')).toEqual(samples);
    expect(await countDynamoCalls(() => samplesOf(client, 'lead.created'))).toEqual(['QueryCommand']);
  });

  it('answers every type’s example from the document when the organization has none of it: one event of the organization, its id the same on every call', async () => {
    const { client, organizationId } = await api.organization();
    expect(await samplesOf(client, 'lead.created')).toEqual([{ id: 'evt_sample_lead_created', type: 'lead.created', occurredAt: leadExample.updatedAt, organizationId, data: leadExample }]);
    const updated = await samplesOf(client, 'lead.updated');
    expect(updated).toEqual([{ id: 'evt_sample_lead_updated', type: 'lead.updated', occurredAt: leadExample.updatedAt, organizationId, data: leadExample, previousAttributes: { firstName: null } }]);
    // Each answer is held to the document's Event for its type by the test client; the ids never repeat across types.
    const ids = new Set<string>();
    for (const type of EVENT_TYPES) {
      const [sample, ...more] = await samplesOf(client, type);
      expect(more).toEqual([]);
      expect(sample).toMatchObject({ id: `evt_sample_${type.replaceAll('.', '_')}`, type, organizationId });
      expect(await samplesOf(client, type)).toEqual([sample]);
      ids.add(sample!.id);
    }
    expect(ids.size).toBe(EVENT_TYPES.length);
  });

  it('answers the example for a type whose only events are older than the 30 days events are kept', async () => {
    const { client, organizationId } = await api.organization();
    const old = Date.now() - 31 * 86_400_000;
    await recordEvents([{ id: eventIdOf(old, '1'), type: 'faq.created', occurredAt: new Date(old).toISOString(), organizationId, data: { id: 1 } }]);
    expect((await samplesOf(client, 'faq.created')).map((event) => event.id)).toEqual(['evt_sample_faq_created']);
  });

  it("never answers another organization's events: its own, or the example", async () => {
    const a = await api.organization();
    const b = await api.organization();
    await a.client.post('/v1/leads', { name: 'Only A', email: 'only-a@example.com' });
    const [theirs] = (await eventsOf(a.client, '&type=lead.created')).events;
    expect((await samplesOf(a.client, 'lead.created')).map((event) => event.id)).toEqual([theirs!.id]);
    expect(await samplesOf(b.client, 'lead.created')).toEqual([expect.objectContaining({ id: 'evt_sample_lead_created', organizationId: b.organizationId, data: leadExample })]);
    await b.client.post('/v1/leads', { name: 'Only B', email: 'only-b@example.com' });
    const [own] = (await eventsOf(b.client, '&type=lead.created')).events;
    expect(await samplesOf(b.client, 'lead.created')).toEqual([own]);
  });

  it.each([
    ['no type', ''],
    ['an unknown type', '?type=lead.exploded'],
    ['the test event’s type', '?type=webhook.test'],
    ['two types', '?type=lead.created&type=lead.updated'],
  ])('answers 400 naming type for %s', async (_, query) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/events/samples${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details.map((detail: { path: string }) => detail.path)).toEqual(['type']);
  });
});

describe('GET /v1/events/{eventId}', () => {
  it('reads one event as the list shows it, with one GetItem; another organization gets 404', async () => {
    const { client } = await api.organization();
    await client.post('/v1/policies', { title: 'Warranty', content: '12 months.' });
    const [listed] = (await eventsOf(client, '&type=policy.created')).events;
    const res = await client.get(`/v1/events/${listed!.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ event: listed });
    const other = await api.organization();
    const foreign = await other.client.get(`/v1/events/${listed!.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body.error).toEqual({ status: 404, message: 'Event not found', code: 'NOT_FOUND' });
    expect((await client.get('/v1/events/evt_01JCZ3V7Q8K2M4N6P8R0S2T4V6')).status).toBe(404);
  });

  it('answers 404 for an event past the retention window, as the list leaves it out', async () => {
    const { client, organizationId } = await api.organization();
    const old = Date.now() - 31 * 86_400_000;
    const event = { id: eventIdOf(old, '1'), type: 'faq.created' as const, occurredAt: new Date(old).toISOString(), organizationId, data: { id: 1 } };
    await recordEvents([event]);
    expect((await client.get(`/v1/events/${event.id}`)).status).toBe(404);
  });
});

describe('deletions read back as events', () => {
  it('records product.deleted, company.deleted and member.deleted with the record as it was', async () => {
    const { client, organizationId } = await api.organization();
    await createMember(organizationId, { role: 'ADMIN', firstName: 'Sarah', lastName: 'Mitchell', email: 'sarah@example.com' });
    const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Priya', lastName: 'Sharma', email: 'priya@example.com' });
    const product = await createProduct(client, fixedProduct('Tap washer'));
    const company = await created(client, '/v1/companies', 'company', { name: 'Harbourside Strata' });
    expect((await client.delete(`/v1/products/${product.id}`)).status).toBe(200);
    expect((await client.delete(`/v1/companies/${company.id}`)).status).toBe(200);
    expect((await client.delete(`/v1/organization/members/${member.id}`)).status).toBe(200);
    const { events } = await eventsOf(client);
    const deleted = events.filter((event) => event.type.endsWith('.deleted')).map((event) => [event.type, event.data]);
    expect(deleted.sort(([a], [b]) => String(a).localeCompare(String(b)))).toEqual([
      ['company.deleted', company],
      ['member.deleted', member],
      ['product.deleted', product],
    ]);
  });

  it("records a company note's create, change and delete, and each note a company's delete removes", async () => {
    const { client } = await api.organization();
    const company = await created(client, '/v1/companies', 'company', { name: 'Harbourside Strata' });
    const notesOf = `/v1/companies/${company.id}/notes`;
    const first = await created(client, notesOf, 'note', { value: 'Strata manager prefers email.' });
    const changed = (await client.patch(`${notesOf}/${first.id}`, { value: 'Strata manager prefers a call.' })).body.note;
    expect((await client.delete(`${notesOf}/${first.id}`)).status).toBe(200);
    const second = await created(client, notesOf, 'note', { value: 'Gate code 4412.' });
    expect((await client.delete(`/v1/companies/${company.id}`)).status).toBe(200);

    const noteEvents = (await eventsOf(client)).events.filter((event) => event.type.startsWith('company_note.'));
    expect(noteEvents.map((event) => [event.type, event.data]).reverse()).toEqual([
      ['company_note.created', first],
      ['company_note.updated', changed],
      ['company_note.deleted', changed],
      ['company_note.created', second],
      ['company_note.deleted', second],
    ]);
    expect(noteEvents.find((event) => event.type === 'company_note.updated')).toMatchObject({ previousAttributes: { value: 'Strata manager prefers email.' } });
  });
});

describe('previousAttributes on *.updated events', () => {
  const updatesOf = async (client: Client, type: string) => (await eventsOf(client, `&type=${type}`)).events as { data: Record<string, unknown>; previousAttributes?: Record<string, unknown> }[];

  it('carries only the old status, and when the lead took it, when a lead PATCH changes its status, and the event holds the new lead', async () => {
    const { client } = await api.organization();
    const lead = (await client.post('/v1/leads', { name: 'Ada Lovelace', email: 'ada@example.com', suburb: 'Newtown' })).body.lead;
    const updated = (await client.patch(`/v1/leads/${lead.id}`, { status: 'CONTACTED', suburb: 'Newtown' })).body.lead;
    const [event] = await updatesOf(client, 'lead.updated');
    expect(event).toMatchObject({ data: updated, previousAttributes: { status: 'NEW' } });
    expect(event!.previousAttributes).toEqual({ status: lead.status, statusChangedAt: lead.statusChangedAt });
    expect((await client.get(`/v1/events/${(event as unknown as { id: string }).id}`)).body.event.previousAttributes).toEqual({ status: 'NEW', statusChangedAt: lead.statusChangedAt });
  });

  it('records inquiry.updated when an inquiry is marked read and when it is retagged, each with the field it changed', async () => {
    const { client } = await api.organization();
    const data = { formName: 'Contact us', submittedAt: '2026-11-20T09:00:00Z', pageUrl: null, fields: [{ name: 'message', label: 'Message', value: 'Leaking tap' }] };
    const inquiry = (await client.post('/v1/inquiries', { source: 'WEBFORM', lead: { phone: '+61412345001' }, summary: 'Leaking tap', data })).body.inquiry;
    const read = (await client.patch(`/v1/inquiries/${inquiry.id}`, { isRead: true })).body.inquiry;
    const tagged = (await client.patch(`/v1/inquiries/${inquiry.id}`, { tag: 'EMERGENCY' })).body.inquiry;
    // Marked read again: nothing the API shows changes, so no event.
    expect((await client.patch(`/v1/inquiries/${inquiry.id}`, { isRead: true })).status).toBe(200);

    const updates = await updatesOf(client, 'inquiry.updated');
    expect(updates.map((event) => event.previousAttributes)).toEqual([{ tag: inquiry.tag }, { isRead: false }]);
    expect(updates.map((event) => event.data)).toEqual([tagged, read]);
    expect(inquiry.tag).not.toBe('EMERGENCY');
  });

  it('carries the changed fields of a product and of a service with their old values, never updatedAt', async () => {
    const { client } = await api.organization();
    const product = await createProduct(client, { ...fixedProduct('Tap washer', 120), description: 'Washer only' });
    const newProduct = (await client.put(`/v1/products/${product.id}`, { price: 135, description: 'Washer and labour' })).body.product;
    const service = await createService(client, { name: 'Gutter clean', duration: 2, durationUnit: 'HOURS', tradeCategoryId: 5 });
    const newService = (await client.patch(`/v1/services/${service.id}`, { duration: 3 })).body.service;

    const [productUpdate] = await updatesOf(client, 'product.updated');
    expect(productUpdate).toMatchObject({ data: newProduct, previousAttributes: { price: 120, description: 'Washer only' } });
    expect(Object.keys(productUpdate!.previousAttributes!).sort()).toEqual(['description', 'price']);
    expect(newProduct.updatedAt).not.toBe(product.updatedAt);

    const [serviceUpdate] = await updatesOf(client, 'service.updated');
    expect(serviceUpdate).toMatchObject({ data: newService, previousAttributes: { duration: 2 } });
    expect(serviceUpdate!.previousAttributes).not.toHaveProperty('updatedAt');
  });

  it('records an update whose record and previous values together pass an item’s 400 KB, as any other', async () => {
    const { client, organizationId } = await api.organization();
    const words = ['the', 'hot', 'water', 'system', 'is', 'installed', 'within', 'four', 'hours', 'and', 'we', 'remove', 'old', 'unit', 'valve', 'tank', 'gas', 'electric', 'warranty', 'years'];
    let seed = 7;
    const prose = (length: number) => {
      let text = '';
      while (text.length < length) text += `${words[(seed = (seed * 1103515245 + 12345) % 2 ** 31) % words.length]} `;
      return text.slice(0, length);
    };
    // Each body stays under the API's 256 KB; the record and its previous FAQs together do not fit in one item.
    const faqs = () => Array.from({ length: 44 }, (_, i) => ({ question: `Question ${i}: ${prose(480)}`, answer: prose(5000) }));
    const createdProduct = await client.post('/v1/products', { name: 'Heat pump', tradeCategoryId: 1, pricingType: 'NONE', faqs: faqs() });
    expect(createdProduct.status, JSON.stringify(createdProduct.body).slice(0, 300)).toBe(201);
    const product = createdProduct.body.product;
    const replaced = await client.put(`/v1/products/${product.id}`, { faqs: faqs() });
    expect(replaced.status).toBe(200);
    expect(JSON.stringify({ data: replaced.body.product, previous: product.faqs }).length).toBeGreaterThan(420_000);

    const [update] = await updatesOf(client, 'product.updated');
    expect(update).toMatchObject({ data: replaced.body.product, previousAttributes: { faqs: product.faqs } });
    // Kept gzipped in the item, which alone holds no more than 400 KB.
    const items = await queryAll({ pk: eventKeys.event(organizationId, 'evt_0').pk, skPrefix: 'EVENT#' });
    expect(items.find((item) => item.type === 'product.updated')).toHaveProperty('packed');
  });

  it('carries no previousAttributes on created and deleted events', async () => {
    const { client } = await api.organization();
    const faq = (await client.post('/v1/faqs', { question: 'Licensed?', answer: 'Yes.' })).body.faq;
    await client.delete(`/v1/faqs/${faq.id}`);
    const { events } = await eventsOf(client);
    expect(typesOf(events)).toEqual(['faq.deleted', 'faq.created']);
    for (const event of events) expect(event).not.toHaveProperty('previousAttributes');
  });

  it('compares a map field whatever the order of its keys, as DynamoDB keeps none between two images', () => {
    const before = { status: 'NEW', socials: { facebook: 'ada', instagram: 'ada.l' }, updatedAt: '2026-11-01T00:00:00.000Z' };
    expect(changedAttributes(before, { ...before, socials: { instagram: 'ada.l', facebook: 'ada' }, updatedAt: '2026-11-02T00:00:00.000Z' })).toEqual({});
    expect(changedAttributes(before, { ...before, socials: { instagram: 'ada.l' }, suburb: 'Newtown' })).toEqual({ socials: before.socials, suburb: null });
  });

  it('emits no event for an update that changes nothing but updatedAt', async () => {
    const { client } = await api.organization();
    const product = await createProduct(client, fixedProduct('Tap washer', 120));
    const same = (await client.put(`/v1/products/${product.id}`, { price: 120 })).body.product;
    expect(same.price).toBe(120);
    expect(typesOf((await eventsOf(client)).events)).toEqual(['product.created']);
  });
});

describe('GET /v1/events with a cursor', () => {
  it('walks the 30-day window with nextCursor, the window moving between the requests', async () => {
    const { client } = await api.organization();
    for (let i = 0; i < 3; i++) await client.post('/v1/faqs', { question: `Question ${i}?`, answer: 'Yes.' });
    const all = (await eventsOf(client)).events;
    const first = (await client.get('/v1/events?limit=2')).body;
    expect(first.events).toEqual(all.slice(0, 2));
    await new Promise((resolve) => setTimeout(resolve, 5));
    const next = await client.get(`/v1/events?limit=2&cursor=${first.nextCursor}`);
    expect(next.status).toBe(200);
    expect(next.body).toMatchObject({ events: all.slice(2), nextCursor: null, totalCount: 3 });
    expect((await client.get(`/v1/events?type=faq.created&limit=2&cursor=${first.nextCursor}`)).status).toBe(400);
  });
});
