import { describe, expect, it } from 'vitest';
import { createInquiry, type NewInquiry } from './store';
import { useTestApi, type Client } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';

const api = useTestApi();
const T0 = Date.parse('2025-03-03T09:00:00.000Z');
const minutes = (n: number) => new Date(T0 + n * 60_000).toISOString();
/** A time `ms` milliseconds from another. */
const shifted = (at: string, ms: number) => new Date(Date.parse(at) + ms).toISOString();

const email = (at: string) => ({ subject: 'Quote please', from: 'a@example.com', to: 'office@example.com', body: 'Can you quote a new tap?', receivedAt: at });
const form = (at: string) => ({ formName: 'Contact us', fields: [{ name: 'message', label: 'Message', value: 'Please call me back' }], submittedAt: at, pageUrl: null });

interface Seeded {
  client: Client;
  leadA: string;
  leadB: string;
  /** Ids in creation order (oldest first): A email, B form, A form, B email, A email, at minutes 1 to 5. */
  ids: string[];
}

async function seededOrganization(): Promise<Seeded> {
  const { client, organizationId } = await api.organization();
  const leadA = (await client.post('/v1/leads', { name: 'Ava Jones', email: 'ava@example.com' })).body.lead.id;
  const leadB = (await client.post('/v1/leads', { name: 'Ben Smith', email: 'ben@example.com' })).body.lead.id;
  const common = { tag: 'GENERAL', summary: 'An inquiry', isRead: false } as const;
  const inquiries: NewInquiry[] = [
    { ...common, source: 'EMAIL', leadId: leadA, createdAt: minutes(1), data: email(minutes(1)) },
    { ...common, source: 'WEBFORM', leadId: leadB, createdAt: minutes(2), data: form(minutes(2)) },
    { ...common, source: 'WEBFORM', leadId: leadA, createdAt: minutes(3), data: form(minutes(3)) },
    { ...common, source: 'EMAIL', leadId: leadB, createdAt: minutes(4), data: email(minutes(4)) },
    { ...common, source: 'EMAIL', leadId: leadA, createdAt: minutes(5), data: email(minutes(5)) },
  ];
  const ids: string[] = [];
  for (const inquiry of inquiries) ids.push((await createInquiry(organizationId, inquiry)).id);
  return { client, leadA, leadB, ids };
}

const idsOf = (body: { inquiries: Array<{ id: string }> }) => body.inquiries.map((inquiry) => inquiry.id);
const since = (at: string) => `createdSince=${encodeURIComponent(at)}`;

describe('GET /v1/inquiries?createdSince', () => {
  it('lists the inquiries created at or after the instant, newest first, and counts them', async () => {
    const { client, ids } = await seededOrganization();
    const res = await client.get(`/v1/inquiries?${since(minutes(3))}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ inquiries: expect.any(Array), totalPages: 1, currentPage: 1, totalCount: 3, nextCursor: null });
    expect(idsOf(res.body)).toEqual([ids[4], ids[3], ids[2]]);
    // Absent: every inquiry.
    expect(idsOf((await client.get('/v1/inquiries')).body)).toEqual([...ids].reverse());
  });

  it.each([
    ['a millisecond before an inquiry’s createdAt lists it', -1, 3],
    ['its createdAt exactly lists it', 0, 3],
    ['a millisecond after leaves it out', 1, 2],
  ])('%s', async (_, ms, count) => {
    const { client, ids } = await seededOrganization();
    const { body } = await client.get(`/v1/inquiries?${since(shifted(minutes(3), ms))}`);
    expect([body.totalCount, idsOf(body)]).toEqual([count, [ids[4], ids[3], ids[2]].slice(0, count)]);
  });

  it('reads an instant in any offset as the same instant, and one before every inquiry as all of them', async () => {
    const { client, ids } = await seededOrganization();
    // minutes(3) is 09:03 UTC: 20:03 in Sydney's summer time.
    expect(idsOf((await client.get(`/v1/inquiries?${since('2025-03-03T20:03:00.000+11:00')}`)).body)).toEqual([ids[4], ids[3], ids[2]]);
    expect((await client.get(`/v1/inquiries?${since('1969-12-31T23:59:59.999Z')}`)).body.totalCount).toBe(5);
    expect((await client.get(`/v1/inquiries?${since(minutes(6))}`)).body).toEqual({ inquiries: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });

  it.each([
    ['source=EMAIL', (s: Seeded) => [s.ids[4], s.ids[3]]],
    ['leadId=A', (s: Seeded) => [s.ids[4], s.ids[2]]],
    ['leadId=A&source=EMAIL', (s: Seeded) => [s.ids[4]]],
    ['leadId=B&source=WEBFORM', () => []],
    ['expand=lead', (s: Seeded) => [s.ids[4], s.ids[3], s.ids[2]]],
  ])('combines with %s', async (filter, expected) => {
    const seeded = await seededOrganization();
    const query = filter.replace('leadId=A', `leadId=${seeded.leadA}`).replace('leadId=B', `leadId=${seeded.leadB}`);
    const { body } = await seeded.client.get(`/v1/inquiries?${query}&${since(minutes(3))}`);
    expect([body.totalCount, idsOf(body)]).toEqual([expected(seeded).length, expected(seeded)]);
  });

  it.each([
    ['a millisecond after an inquiry’s createdAt keeps it', 1, 3],
    ['its createdAt exactly leaves it out', 0, 2],
    ['a millisecond before leaves it out', -1, 2],
  ])('createdBefore: %s', async (_, ms, count) => {
    const { client, ids } = await seededOrganization();
    const { body } = await client.get(`/v1/inquiries?createdBefore=${encodeURIComponent(shifted(minutes(3), ms))}`);
    expect([body.totalCount, idsOf(body)]).toEqual([count, [ids[2], ids[1], ids[0]].slice(3 - count)]);
  });

  it('reads createdSince and createdBefore together as a window, with the other filters, and a window that closes before it opens as empty', async () => {
    const { client, ids, leadA } = await seededOrganization();
    const window = `${since(minutes(2))}&createdBefore=${encodeURIComponent(minutes(5))}`;
    expect(idsOf((await client.get(`/v1/inquiries?${window}`)).body)).toEqual([ids[3], ids[2], ids[1]]);
    expect((await client.get(`/v1/inquiries?${window}&source=EMAIL`)).body).toMatchObject({ totalCount: 1, inquiries: [{ id: ids[3] }] });
    expect((await client.get(`/v1/inquiries?${window}&leadId=${leadA}`)).body).toMatchObject({ totalCount: 1, inquiries: [{ id: ids[2] }] });
    expect((await client.get(`/v1/inquiries?${window}&isRead=false`)).body.totalCount).toBe(3);
    const closed = `${since(minutes(4))}&createdBefore=${encodeURIComponent(minutes(2))}`;
    expect((await client.get(`/v1/inquiries?${closed}`)).body).toEqual({ inquiries: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
    // A lead's inquiries, read whole and filtered, alike.
    expect((await client.get(`/v1/inquiries?${closed}&leadId=${leadA}&source=EMAIL`)).body).toEqual({ inquiries: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
    // The same instant both ends: an empty window.
    expect((await client.get(`/v1/inquiries?${since(minutes(3))}&createdBefore=${encodeURIComponent(minutes(3))}`)).body.totalCount).toBe(0);
  });

  it('pages by cursor and by page number within the range, and a cursor belongs to its createdSince', async () => {
    const { client, ids } = await seededOrganization();
    const path = `/v1/inquiries?${since(minutes(2))}&limit=3`;
    const first = (await client.get(path)).body;
    expect([first.totalCount, first.totalPages, idsOf(first)]).toEqual([4, 2, [ids[4], ids[3], ids[2]]]);
    const next = (await client.get(`${path}&cursor=${first.nextCursor}`)).body;
    expect([next.totalCount, idsOf(next), next.nextCursor]).toEqual([4, [ids[1]], null]);
    expect(idsOf((await client.get(`${path}&page=2`)).body)).toEqual([ids[1]]);
    expect((await client.get(`${path}&page=3`)).body).toMatchObject({ inquiries: [], totalCount: 4, nextCursor: null });
    const other = await client.get(`/v1/inquiries?${since(minutes(1))}&limit=3&cursor=${first.nextCursor}`);
    expect([other.status, other.body.error.code]).toEqual([400, 'INVALID_CURSOR']);
    const unfiltered = await client.get(`/v1/inquiries?limit=3&cursor=${first.nextCursor}`);
    expect(unfiltered.status).toBe(400);
  });

  it('reads page 1 with the Query of the range and a COUNT Query of it, sent together', async () => {
    const { client } = await seededOrganization();
    expect(await countDynamoCalls(() => client.get(`/v1/inquiries?${since(minutes(3))}&limit=2`))).toEqual(['QueryCommand', 'QueryCommand']);
  });

  it.each([
    ['createdSince=yesterday', 'createdSince'],
    ['createdSince=', 'createdSince'],
    ['createdSince=2025-03-03', 'createdSince'],
    ['createdSince=2025-03-03T09:00:00', 'createdSince'],
    ['createdSince=2025-02-30T09:00:00Z', 'createdSince'],
    ['createdSince=9999-01-01T00:00:00.000Z', 'createdSince'],
    ['createdSince=2025-03-03T09:00:00Z&updatedSince=2025-03-03T09:00:00Z', 'updatedSince'],
    ['createdBefore=2025-03-03', 'createdBefore'],
    ['createdBefore=', 'createdBefore'],
    ['createdBefore=2025-03-03T09:00:00Z&updatedSince=2025-03-03T09:00:00Z', 'updatedSince'],
    // A window that closes before it opens is refused with updatedSince all the same, not answered empty.
    ['createdSince=2025-03-03T09:04:00Z&createdBefore=2025-03-03T09:02:00Z&updatedSince=2025-03-03T09:00:00Z', 'updatedSince'],
  ])('answers 400 naming the parameter for %s', async (query, field) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/inquiries?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { status: 400, code: 'VALIDATION_ERROR' } });
    expect(res.body.error.details[0].path).toBe(field);
  });
});

describe('an ingested inquiry is found by its createdAt', () => {
  const ingested = (createdAt?: string) => ({ source: 'EMAIL', lead: { email: 'mia@example.com', name: 'Mia Wong' }, ...(createdAt ? { createdAt } : {}), data: email(createdAt ?? minutes(0)) });

  it('sent with an Idempotency-Key and an earlier createdAt: filed by that time, and the retry answers the same inquiry', async () => {
    const { client } = await api.organization();
    const created = await client.post('/v1/inquiries', ingested(minutes(3)), { headers: { 'Idempotency-Key': 'mia-3' } });
    expect(created.status).toBe(201);
    const id = created.body.inquiry.id;
    expect(idsOf((await client.get(`/v1/inquiries?${since(minutes(3))}`)).body)).toEqual([id]);
    expect((await client.get(`/v1/inquiries?${since(shifted(minutes(3), 1))}`)).body.totalCount).toBe(0);
    const retry = await client.post('/v1/inquiries', ingested(minutes(3)), { headers: { 'Idempotency-Key': 'mia-3' } });
    expect([retry.status, retry.body.inquiry.id]).toEqual([201, id]);
  });

  it('sent with an Idempotency-Key and no createdAt: filed by the createdAt it is given', async () => {
    const { client } = await api.organization();
    const { body } = await client.post('/v1/inquiries', ingested(), { headers: { 'Idempotency-Key': 'mia-now' } });
    const { createdAt, id } = body.inquiry;
    expect(idsOf((await client.get(`/v1/inquiries?${since(createdAt)}`)).body)).toEqual([id]);
    expect((await client.get(`/v1/inquiries?${since(shifted(createdAt, 1))}`)).body.totalCount).toBe(0);
  });
});

describe('GET /v1/inquiries?startedBy', () => {
  /** Three inquiries a customer started and three the business did, all after minutes(0); their ids by who started them. */
  async function startedOrganization() {
    const { client, organizationId } = await api.organization();
    const phone = '+61412345011';
    const leadId = (await client.post('/v1/leads', { name: 'Cara Lee', email: 'cara@example.com', phone })).body.lead.id as string;
    const common = { tag: 'GENERAL', summary: 'An inquiry', isRead: false, leadId } as const;
    const text = (direction: 'INBOUND' | 'OUTBOUND', at: string, also: Record<string, unknown> = {}) => ({
      leadPhone: phone,
      messages: [{ id: `message_${direction}_${at}`, direction, status: direction === 'INBOUND' ? ('RECEIVED' as const) : ('SENT' as const), body: 'Hi', userId: direction === 'INBOUND' ? null : 'user_01JBQ0ZP5W9X7Y3Z1A2B4C6D8E', createdAt: at, ...also }],
    });
    const made = async (inquiry: NewInquiry) => (await createInquiry(organizationId, inquiry)).id;
    const call = async (direction: string) => (await client.post('/v1/inquiries', { source: 'CALL', lead: { phone }, data: { summary: 'A call.', direction } })).body.inquiry.id as string;
    const lead = [await made({ ...common, source: 'WEBFORM', createdAt: minutes(1), data: form(minutes(1)) }), await made({ ...common, source: 'SMS', createdAt: minutes(2), data: text('INBOUND', minutes(2)) })];
    const business = [await made({ ...common, source: 'SMS', createdAt: minutes(3), data: text('OUTBOUND', minutes(3)) }), await made({ ...common, source: 'SMS', createdAt: minutes(4), data: text('OUTBOUND', minutes(4), { automationRunId: 'run_01JD0000000000000000000000' }) })];
    lead.push(await call('LEAD_TO_AI'));
    business.push(await call('AI_TO_LEAD'));
    return { client, leadId, lead: lead.reverse(), business: business.reverse() };
  }

  it('lists those the customer started, or the business, newest first, each counted exactly, as the reports count them', async () => {
    const { client, lead, business } = await startedOrganization();
    const byLead = (await client.get(`/v1/inquiries?${since(minutes(0))}&startedBy=LEAD`)).body;
    expect([idsOf(byLead), byLead.totalCount]).toEqual([lead, 3]);
    const byBusiness = (await client.get(`/v1/inquiries?${since(minutes(0))}&startedBy=BUSINESS`)).body;
    expect([idsOf(byBusiness), byBusiness.totalCount]).toEqual([business, 3]);
    // The window still counts: from minute 2 on, the form is out and the customer's text in.
    const later = (await client.get(`/v1/inquiries?${since(minutes(2))}&startedBy=LEAD`)).body;
    expect([idsOf(later), later.totalCount]).toEqual([lead.slice(0, 2), 2]);
    const before = (await client.get(`/v1/inquiries?createdBefore=${encodeURIComponent(minutes(3))}&startedBy=LEAD`)).body;
    expect([idsOf(before), before.totalCount]).toEqual([lead.slice(1), 2]);
  });

  it('pages by cursor within its filter, a cursor of the other starter refused, at two Queries a page', async () => {
    const { client, lead } = await startedOrganization();
    const first = (await client.get(`/v1/inquiries?${since(minutes(0))}&startedBy=LEAD&limit=2`)).body;
    expect([idsOf(first), first.totalCount, first.totalPages]).toEqual([lead.slice(0, 2), 3, 2]);
    const next = (await client.get(`/v1/inquiries?${since(minutes(0))}&startedBy=LEAD&limit=2&cursor=${encodeURIComponent(first.nextCursor)}`)).body;
    expect([idsOf(next), next.nextCursor]).toEqual([lead.slice(2), null]);
    const other = await client.get(`/v1/inquiries?${since(minutes(0))}&startedBy=BUSINESS&limit=2&cursor=${encodeURIComponent(first.nextCursor)}`);
    expect([other.status, other.body.error.code]).toEqual([400, 'INVALID_CURSOR']);
    expect(await countDynamoCalls(() => client.get(`/v1/inquiries?${since(minutes(0))}&startedBy=LEAD&limit=2`))).toEqual(['QueryCommand', 'QueryCommand']);
  });

  it.each([
    ['without a window of creation', 'startedBy=LEAD'],
    ['lower case', `${since(minutes(0))}&startedBy=lead`],
    ['one letter more', `${since(minutes(0))}&startedBy=LEADS`],
    ['empty', `${since(minutes(0))}&startedBy=`],
    ['with source', `${since(minutes(0))}&startedBy=LEAD&source=SMS`],
    ['with isRead', `${since(minutes(0))}&startedBy=LEAD&isRead=false`],
    ['with callOutcome', `${since(minutes(0))}&startedBy=LEAD&callOutcome=MISSED`],
    ['with leadId', `${since(minutes(0))}&startedBy=BUSINESS&leadId=lead_01JCZ3V7Q8K2M4N6P8R0S2T4V6`],
  ])('answers 400 naming startedBy %s, reading nothing', async (_, query) => {
    const { client } = await api.organization();
    let status = 0;
    let paths: string[] = [];
    const calls = await countDynamoCalls(async () => {
      const res = await client.get(`/v1/inquiries?${query}`);
      status = res.status;
      paths = (res.body.error?.details ?? []).map((detail: { path: string }) => detail.path);
    });
    expect(status).toBe(400);
    expect(paths).toContain('startedBy');
    expect(calls).toEqual([]);
  });
});
