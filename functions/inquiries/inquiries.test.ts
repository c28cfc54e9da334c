import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { createInquiry, type NewInquiry } from './store';
import { Inquiry, InquiryPage } from './schema';
import { useTestApi, type Client } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { ISO_MS } from '../../test/support/fixtures';

const api = useTestApi();
const LIST_FIELDS = ['callOutcome', 'createdAt', 'id', 'isFirstInquiry', 'isRead', 'leadId', 'source', 'sourceId', 'summary', 'tag', 'updatedAt'];
const T0 = Date.parse('2025-03-03T09:00:00.000Z');
const minutes = (n: number) => new Date(T0 + n * 60_000).toISOString();

const call = (at: string): Extract<NewInquiry, { source: 'CALL' }>['data'] => ({
  summary: 'Leaking hot water unit in the garage.',
  keyPoints: ['Water pooling under the tank', 'Tank is 14 years old'],
  recordingUrl: 'https://recordings.example.com/call-1.mp3',
  transcripts: [
    { id: 't1', created_at: at, text: 'Hi, my hot water tank is leaking.', user: 'user' },
    { id: 't2', created_at: new Date(Date.parse(at) + 5000).toISOString(), text: 'I can book a plumber for tomorrow morning.', user: 'assistant' },
  ],
  transcriptTruncated: false,
  direction: 'LEAD_TO_AI',
  duration: 42,
  startedAt: at,
  endedAt: new Date(Date.parse(at) + 42_000).toISOString(),
  endedBy: 'user',
});

/** One inquiry of each kind the tests need, oldest first. */
function fixtures(leadA: string, leadB: string): NewInquiry[] {
  return [
    { source: 'CALL', leadId: leadA, tag: 'EMERGENCY', summary: 'A call 1', isRead: true, externalInquiryId: 'CA-1', createdAt: minutes(1), data: call(minutes(1)) },
    {
      source: 'EMAIL',
      leadId: leadA,
      tag: 'QUOTE_REQUEST',
      summary: 'A email',
      isRead: false,
      externalInquiryId: '<abc@mail.example.com>',
      createdAt: minutes(2),
      data: { subject: 'Quote please', from: 'a@example.com', to: 'office@example.com', body: 'Can you quote a new tap?', receivedAt: minutes(2) },
    },
    { source: 'CALL', leadId: leadB, tag: 'GENERAL', summary: 'B call', isRead: false, createdAt: minutes(3), data: call(minutes(3)) },
    {
      source: 'CHATBOT',
      leadId: leadB,
      tag: 'GENERAL',
      summary: 'B chat',
      isRead: false,
      createdAt: minutes(4),
      data: {
        messages: [
          { id: 'm1', role: 'user', text: 'Do you do gutters?', createdAt: minutes(4) },
          { id: 'm2', role: 'assistant', text: 'We do, where is the property?', createdAt: minutes(4.1) },
        ],
        startedAt: minutes(4),
        endedAt: null,
      },
    },
    {
      source: 'SMS',
      leadId: leadA,
      tag: 'FOLLOW_UP',
      summary: 'A sms',
      isRead: false,
      createdAt: minutes(5),
      data: {
        leadPhone: '+61412000111',
        messages: [
          { id: 'message_2', direction: 'INBOUND', status: 'RECEIVED', body: 'Running late?', userId: null, createdAt: minutes(5) },
          { id: 'message_1', direction: 'INBOUND', status: 'RECEIVED', body: 'Hi there', userId: null, createdAt: minutes(4.9) },
        ],
      },
    },
    {
      source: 'WEBFORM',
      leadId: leadB,
      tag: 'BOOKING',
      summary: 'B webform',
      isRead: true,
      externalInquiryId: 'entry-7',
      createdAt: minutes(6),
      data: {
        formName: 'Contact us',
        fields: [{ name: 'message', label: 'Message', value: 'Please call me back' }],
        submittedAt: minutes(6),
        pageUrl: 'https://example.com/contact',
      },
    },
    { source: 'CALL', leadId: leadA, tag: 'FLAGGED', summary: 'A call 2', isRead: true, createdAt: minutes(7), data: { ...call(minutes(7)), id: 'call_known' } },
  ];
}

interface Seeded {
  client: Client;
  organizationId: string;
  leadA: string;
  leadB: string;
  /** Ids in creation order (oldest first). */
  ids: string[];
}

async function seededOrganization(): Promise<Seeded> {
  const { client, organizationId } = await api.organization();
  const a = await client.post('/v1/leads', { name: 'Ava Jones', email: 'ava@example.com', phone: '+61412000111', businessName: 'Jones Plumbing' });
  const b = await client.post('/v1/leads', { name: 'Ben Smith', email: 'ben@example.com' });
  const ids: string[] = [];
  for (const inquiry of fixtures(a.body.lead.id, b.body.lead.id)) ids.push((await createInquiry(organizationId, inquiry)).id);
  return { client, organizationId, leadA: a.body.lead.id, leadB: b.body.lead.id, ids };
}

const idsOf = (body: { inquiries: Array<{ id: string }> }) => body.inquiries.map((inquiry) => inquiry.id);

describe('GET /v1/inquiries', () => {
  it('lists every inquiry newest first with the list fields and the pagination envelope', async () => {
    const { client, ids, leadA } = await seededOrganization();
    const res = await client.get('/v1/inquiries');
    expect(res.status).toBe(200);
    expect(v.safeParse(InquiryPage, res.body).success).toBe(true);
    expect(res.body).toMatchObject({ totalPages: 1, currentPage: 1, totalCount: 7 });
    expect(idsOf(res.body)).toEqual([...ids].reverse());
    for (const item of res.body.inquiries) expect(Object.keys(item).sort()).toEqual(LIST_FIELDS);
    expect(res.body.inquiries[0]).toEqual({
      id: ids[6],
      source: 'CALL',
      sourceId: 'call_known',
      tag: 'FLAGGED',
      summary: 'A call 2',
      callOutcome: null,
      isFirstInquiry: false,
      isRead: true,
      leadId: leadA,
      createdAt: minutes(7),
      updatedAt: expect.stringMatching(ISO_MS),
    });
  });

  it('marks only the first inquiry of each lead as isFirstInquiry', async () => {
    const { client, ids } = await seededOrganization();
    const { body } = await client.get('/v1/inquiries');
    const first = body.inquiries.filter((inquiry: { isFirstInquiry: boolean }) => inquiry.isFirstInquiry).map((inquiry: { id: string }) => inquiry.id);
    expect(first.sort()).toEqual([ids[0], ids[2]].sort());
  });

  it.each([
    ['source=CALL', (s: Seeded) => [s.ids[6], s.ids[2], s.ids[0]]],
    ['source=WEBFORM', (s: Seeded) => [s.ids[5]]],
    ['source=SMS', (s: Seeded) => [s.ids[4]]],
    ['leadId=A', (s: Seeded) => [s.ids[6], s.ids[4], s.ids[1], s.ids[0]]],
    ['leadId=B', (s: Seeded) => [s.ids[5], s.ids[3], s.ids[2]]],
    ['leadId=A&source=CALL', (s: Seeded) => [s.ids[6], s.ids[0]]],
    ['leadId=B&source=CALL', (s: Seeded) => [s.ids[2]]],
    ['leadId=B&source=EMAIL', () => []],
  ])('filters with %s, and totalCount counts the filtered set', async (filter, expected) => {
    const seeded = await seededOrganization();
    const query = filter.replace('leadId=A', `leadId=${seeded.leadA}`).replace('leadId=B', `leadId=${seeded.leadB}`);
    const res = await seeded.client.get(`/v1/inquiries?${query}`);
    expect(res.status).toBe(200);
    const ids = expected(seeded);
    expect(idsOf(res.body)).toEqual(ids);
    expect(res.body.totalCount).toBe(ids.length);
    expect(res.body.totalPages).toBe(ids.length ? 1 : 0);
  });

  it('pages a filtered list with page and limit, and answers an empty page past the end', async () => {
    const { client, ids, leadA } = await seededOrganization();
    const page2 = await client.get(`/v1/inquiries?leadId=${leadA}&limit=3&page=2`);
    expect(page2.body).toEqual({ inquiries: [expect.objectContaining({ id: ids[0] })], totalPages: 2, currentPage: 2, totalCount: 4, nextCursor: null });
    const all = await client.get('/v1/inquiries?limit=2&page=3');
    expect(idsOf(all.body)).toEqual([ids[2], ids[1]]);
    expect(all.body).toMatchObject({ totalPages: 4, currentPage: 3, totalCount: 7 });
    const past = await client.get('/v1/inquiries?page=5&limit=2');
    expect(past.body).toEqual({ inquiries: [], totalPages: 4, currentPage: 5, totalCount: 7, nextCursor: null });
  });

  it('answers an empty list for a lead with no inquiries or an unknown lead', async () => {
    const { client } = await seededOrganization();
    const res = await client.get('/v1/inquiries?leadId=lead_01HZZZZZZZZZZZZZZZZZZZZZZZ');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ inquiries: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });

  it('adds externalInquiryId (string or null) to each item with expand=external', async () => {
    const { client, ids } = await seededOrganization();
    const res = await client.get('/v1/inquiries?expand=external');
    expect(res.status).toBe(200);
    const external = Object.fromEntries(res.body.inquiries.map((item: { id: string; externalInquiryId: unknown }) => [item.id, item.externalInquiryId]));
    expect(external).toEqual({ [ids[0]!]: 'CA-1', [ids[1]!]: '<abc@mail.example.com>', [ids[2]!]: null, [ids[3]!]: null, [ids[4]!]: null, [ids[5]!]: 'entry-7', [ids[6]!]: null });
    for (const item of res.body.inquiries) expect(Object.keys(item).sort()).toEqual([...LIST_FIELDS, 'externalInquiryId'].sort());
  });

  it('adds the lead (id, names, email, phone, businessName) to each item with expand=lead', async () => {
    const { client, leadA, leadB } = await seededOrganization();
    const res = await client.get('/v1/inquiries?expand=lead');
    expect(res.status).toBe(200);
    expect(v.safeParse(InquiryPage, res.body).success).toBe(true);
    const ava = { id: leadA, firstName: 'Ava', lastName: 'Jones', email: 'ava@example.com', phone: '+61412000111', businessName: 'Jones Plumbing' };
    const ben = { id: leadB, firstName: 'Ben', lastName: 'Smith', email: 'ben@example.com', phone: null, businessName: null };
    for (const item of res.body.inquiries) {
      expect(Object.keys(item).sort()).toEqual([...LIST_FIELDS, 'lead'].sort());
      expect(item.lead).toEqual(item.leadId === leadA ? ava : ben);
    }
  });

  it('adds both with expand=both', async () => {
    const { client, leadA } = await seededOrganization();
    const res = await client.get(`/v1/inquiries?expand=both&leadId=${leadA}&source=EMAIL`);
    expect(res.body.inquiries).toHaveLength(1);
    expect(res.body.inquiries[0]).toMatchObject({ externalInquiryId: '<abc@mail.example.com>', lead: { id: leadA, firstName: 'Ava' } });
  });

  it('keeps the inquiries of a deleted lead, with lead null under expand=lead', async () => {
    const { client, leadB, leadA } = await seededOrganization();
    expect((await client.delete(`/v1/leads/${leadB}`)).status).toBe(200);
    const res = await client.get('/v1/inquiries?expand=lead');
    expect(res.body.totalCount).toBe(7);
    for (const item of res.body.inquiries) expect(item.lead === null).toBe(item.leadId === leadB);
    expect(res.body.inquiries.find((item: { leadId: string }) => item.leadId === leadA).lead.id).toBe(leadA);
  });

  it.each([
    ['source=call', 'source'],
    ['source=FAX', 'source'],
    ['source=', 'source'],
    ['expand=everything', 'expand'],
    ['expand=LEAD', 'expand'],
    ['page=0', 'page'],
    ['page=x', 'page'],
    ['limit=0', 'limit'],
    ['limit=101', 'limit'],
    ['leadId=', 'leadId'],
  ])('answers 400 naming the parameter for %s', async (query, field) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/inquiries?${query}`);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { status: 400, code: 'VALIDATION_ERROR' } });
    expect(res.body.message).toContain(field);
  });

  it("never shows another organization's inquiries, even filtered by its lead", async () => {
    const mine = await seededOrganization();
    const theirs = await api.organization();
    expect((await theirs.client.get('/v1/inquiries')).body).toEqual({ inquiries: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
    const byLead = await theirs.client.get(`/v1/inquiries?leadId=${mine.leadA}&source=CALL`);
    expect(byLead.body).toEqual({ inquiries: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
    expect((await mine.client.get('/v1/inquiries')).body.totalCount).toBe(7);
  });

  it.each(['limit=2', 'source=CALL&limit=2', 'leadId=A&limit=2', 'expand=external&limit=2'])(
    'reads page 1 (%s) with one Query and one counter read',
    async (query) => {
      const seeded = await seededOrganization();
      const calls = await countDynamoCalls(() => seeded.client.get(`/v1/inquiries?${query.replace('leadId=A', `leadId=${seeded.leadA}`)}`));
      expect(calls.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
    },
  );

  it('reads a lead’s inquiries of one source with one Query of the lead’s inquiries, counted as read, paged by cursor', async () => {
    const seeded = await seededOrganization();
    const path = `/v1/inquiries?leadId=${seeded.leadA}&source=CALL&limit=1`;
    let first: any;
    const calls = await countDynamoCalls(async () => (first = (await seeded.client.get(path)).body));
    expect(calls).toEqual(['QueryCommand']);
    // Lead A's two calls of the fixtures, newest first; its email and SMS are left out.
    expect([first.totalCount, first.inquiries.map((inquiry: any) => inquiry.summary)]).toEqual([2, ['A call 2']]);
    const second = (await seeded.client.get(`${path}&cursor=${first.nextCursor}`)).body;
    expect([second.totalCount, second.inquiries.map((inquiry: any) => inquiry.summary), second.nextCursor]).toEqual([2, ['A call 1'], null]);
    // The cursor belongs to the source it was given for.
    expect((await seeded.client.get(`/v1/inquiries?leadId=${seeded.leadA}&source=EMAIL&limit=1&cursor=${first.nextCursor}`)).status).toBe(400);
  });

  it('adds a single BatchGetItem for the leads of the page with expand=lead or both', async () => {
    const { client } = await seededOrganization();
    for (const expand of ['lead', 'both']) {
      const calls = await countDynamoCalls(() => client.get(`/v1/inquiries?expand=${expand}`));
      expect(calls.sort()).toEqual(['BatchGetItemCommand', 'GetItemCommand', 'QueryCommand']);
    }
  });
});

describe('creating an inquiry updates its lead', () => {
  it("moves the lead's lastInquiryId and lastInquiryDate, counts unread ones by source and flags FLAGGED/EMERGENCY ones", async () => {
    const { client, ids, leadA, leadB } = await seededOrganization();
    const { body } = await client.get('/v1/leads');
    const byId = Object.fromEntries(body.leads.map((lead: { id: string }) => [lead.id, lead]));
    expect(byId[leadA]).toMatchObject({
      lastInquiryId: ids[6],
      lastInquiryDate: minutes(7),
      unreadCalls: 0,
      unreadEmails: 1,
      unreadSMS: 1,
      unreadChatbotThreads: 0,
      unreadWebformSubmissions: 0,
      hasFlaggedInquiry: true,
    });
    expect(byId[leadB]).toMatchObject({
      lastInquiryId: ids[5],
      lastInquiryDate: minutes(6),
      unreadCalls: 1,
      unreadEmails: 0,
      unreadSMS: 0,
      unreadChatbotThreads: 1,
      unreadWebformSubmissions: 0,
      hasFlaggedInquiry: false,
    });
  });

  it('does not move lastInquiry back for a back-dated inquiry, and only the first is isFirstInquiry', async () => {
    const { client, organizationId, ids, leadB } = await seededOrganization();
    const older = await createInquiry(organizationId, { ...fixtures('', leadB)[5]!, createdAt: minutes(-60), leadId: leadB } as NewInquiry);
    expect(older.isFirstInquiry).toBe(false);
    const lead = (await client.get('/v1/leads')).body.leads.find((l: { id: string }) => l.id === leadB);
    expect(lead).toMatchObject({ lastInquiryId: ids[5], lastInquiryDate: minutes(6) });
    expect(idsOf((await client.get(`/v1/inquiries?leadId=${leadB}`)).body).at(-1)).toBe(older.id);
  });

  it('refuses an inquiry for an unknown lead and writes nothing', async () => {
    const { client, organizationId } = await api.organization();
    await expect(createInquiry(organizationId, fixtures('lead_01HZZZZZZZZZZZZZZZZZZZZZZZ', '')[0]!)).rejects.toMatchObject({ status: 404 });
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
  });
});

describe('GET /v1/inquiries/{inquiryId}', () => {
  it('answers a CALL inquiry top-level with the call record and its transcripts, without sourceId', async () => {
    const { client, ids, leadA } = await seededOrganization();
    const res = await client.get(`/v1/inquiries/${ids[0]}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: ids[0],
      source: 'CALL',
      tag: 'EMERGENCY',
      summary: 'A call 1',
      // Recorded by the store alone, not ingested: no outcome was worked out.
      callOutcome: null,
      isFirstInquiry: true,
      isRead: true,
      leadId: leadA,
      createdAt: minutes(1),
      // Recorded now, whatever createdAt it was given: when a poller (updatedSince) finds it.
      updatedAt: expect.stringMatching(ISO_MS),
      data: { ...call(minutes(1)), id: expect.stringMatching(/^call_[0-9A-Z]{26}$/) },
    });
    expect(v.safeParse(Inquiry, res.body).success).toBe(true);
  });

  it.each([
    [1, 'EMAIL', { subject: 'Quote please', from: 'a@example.com', to: 'office@example.com', body: 'Can you quote a new tap?' }],
    [3, 'CHATBOT', { endedAt: null, messages: [expect.objectContaining({ id: 'm1', role: 'user' }), expect.objectContaining({ id: 'm2', role: 'assistant' })] }],
    [5, 'WEBFORM', { formName: 'Contact us', fields: [{ name: 'message', label: 'Message', value: 'Please call me back' }], pageUrl: 'https://example.com/contact' }],
  ])('answers inquiry %i with the %s source record as data', async (index, source, data) => {
    const { client, ids, leadA, leadB } = await seededOrganization();
    const res = await client.get(`/v1/inquiries/${ids[index]}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: ids[index], source, data: { id: expect.any(String), ...data } });
    expect(res.body).not.toHaveProperty('sourceId');
    expect([leadA, leadB]).toContain(res.body.leadId);
    expect(v.safeParse(Inquiry, res.body).success).toBe(true);
  });

  it('answers an SMS inquiry with its thread id, lead phone and messages oldest first', async () => {
    const { client, ids } = await seededOrganization();
    const list = await client.get('/v1/inquiries?source=SMS');
    const res = await client.get(`/v1/inquiries/${ids[4]}`);
    expect(res.body.data).toEqual({
      id: list.body.inquiries[0].sourceId,
      leadPhone: '+61412000111',
      messages: [
        { id: 'message_1', direction: 'INBOUND', status: 'RECEIVED', body: 'Hi there', userId: null, createdAt: minutes(4.9) },
        { id: 'message_2', direction: 'INBOUND', status: 'RECEIVED', body: 'Running late?', userId: null, createdAt: minutes(5) },
      ],
    });
    expect(res.body.data.id).toMatch(/^thread_/);
    expect(v.safeParse(Inquiry, res.body).success).toBe(true);
  });

  it('answers 404 for an unknown inquiry', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/inquiries/inquiry_01HZZZZZZZZZZZZZZZZZZZZZZZ');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Inquiry not found', error: { status: 404, message: 'Inquiry not found', code: 'NOT_FOUND' } });
  });

  it("answers 404 for another organization's inquiry", async () => {
    const { ids } = await seededOrganization();
    const other = await api.organization();
    expect((await other.client.get(`/v1/inquiries/${ids[0]}`)).status).toBe(404);
  });

  it('reads with one DynamoDB Query', async () => {
    const { client, ids } = await seededOrganization();
    for (const id of [ids[0], ids[4]]) {
      const calls = await countDynamoCalls(() => client.get(`/v1/inquiries/${id}`));
      expect(calls).toEqual(['QueryCommand']);
    }
  });
});

describe('demo inquiries', () => {
  it('has inquiries of every source whose counters agree with the rows', async () => {
    const { client, demo } = await api.demoOrganization();
    const all = await client.get('/v1/inquiries?limit=100');
    expect(all.body.totalCount).toBe(all.body.inquiries.length);
    expect(idsOf(all.body)).toEqual(demo?.inquiryIds);
    const dates = all.body.inquiries.map((inquiry: { createdAt: string }) => inquiry.createdAt);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const source of ['CALL', 'EMAIL', 'CHATBOT', 'SMS', 'WEBFORM']) {
      const filtered = await client.get(`/v1/inquiries?source=${source}&limit=100`);
      expect(filtered.body.inquiries.length).toBeGreaterThan(0);
      expect(filtered.body.totalCount).toBe(filtered.body.inquiries.length);
    }
    for (const leadId of demo?.leadIds as string[]) {
      const filtered = await client.get(`/v1/inquiries?leadId=${leadId}&limit=100`);
      expect(filtered.body.totalCount).toBe(filtered.body.inquiries.length);
    }
  });

  it('has calls with transcripts and key points, and every single read matches its schema', async () => {
    const { client } = await api.demoOrganization();
    const { body } = await client.get('/v1/inquiries?limit=100');
    for (const item of body.inquiries) {
      const res = await client.get(`/v1/inquiries/${item.id}`);
      expect(res.status).toBe(200);
      expect(v.safeParse(Inquiry, res.body).success).toBe(true);
      if (item.source === 'CALL') {
        expect(res.body.data.transcripts.length).toBeGreaterThan(3);
        expect(res.body.data.keyPoints.length).toBeGreaterThan(0);
      }
    }
  });
});
