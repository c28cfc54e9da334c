import { describe, expect, it } from 'vitest';
import { dynamo } from '#shared/dynamo';
import { sentAsAClientRetries, useTestApi, type Client } from '../../test/support/api';
import { holdWrite } from '../../test/support/interleave';
import { ISO_MS, leadOf } from '../../test/support/fixtures';

const api = useTestApi();

const call = {
  summary: 'Burst pipe under the kitchen sink, water everywhere.',
  keyPoints: ['Burst pipe', 'Kitchen', 'Needs someone today'],
  recordingUrl: 'https://recordings.example.com/call-123.mp3',
  transcripts: [
    { created_at: '2026-11-20T09:00:05.000Z', text: 'Hi, how can I help?', user: 'assistant' },
    { created_at: '2026-11-20T09:00:09.000Z', text: 'My kitchen pipe burst.', user: 'user' },
  ],
  direction: 'LEAD_TO_AI',
  duration: 95,
  startedAt: '2026-11-20T09:00:00.000Z',
  endedAt: '2026-11-20T09:01:35.000Z',
  endedBy: 'user',
};
const email = { subject: 'Quote for a new hot water system', from: 'sam@example.com', to: 'office@example.com', body: 'Could you quote for a 250 L unit?', receivedAt: '2026-11-20T10:00:00.000Z' };
const webform = { formName: 'Contact us', fields: [{ name: 'message', label: 'Message', value: 'Leaking tap' }], submittedAt: '2026-11-20T11:00:00.000Z', pageUrl: 'https://example.com/contact' };

const activitiesOf = async (client: Client, leadId: string) => (await client.get(`/v1/leads/${leadId}/activities?limit=100`)).body.activities as { event: string; referenceId: string | null }[];

describe('POST /v1/inquiries', () => {
  it('creates a lead for a new sender, with the inquiry, its record, counters and activities', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412000222', name: 'Ava Chen' }, tag: 'EMERGENCY', data: call });
    expect(res.status).toBe(201);
    const { inquiry } = res.body;
    expect(inquiry).toEqual({
      id: expect.stringMatching(/^inquiry_[0-9A-Z]{26}$/),
      source: 'CALL',
      sourceId: expect.stringMatching(/^call_/),
      tag: 'EMERGENCY',
      summary: call.summary,
      callOutcome: 'ANSWERED',
      isFirstInquiry: true,
      isRead: false,
      leadId: expect.stringMatching(/^lead_/),
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
    });
    expect(await leadOf(client, inquiry.leadId)).toMatchObject({ firstName: 'Ava', lastName: 'Chen', phone: '+61412000222', email: null, unreadCalls: 1, lastInquiryId: inquiry.id, hasFlaggedInquiry: true });
    const single = (await client.get(`/v1/inquiries/${inquiry.id}`)).body;
    expect(single.data).toMatchObject({ id: inquiry.sourceId, summary: call.summary, transcripts: call.transcripts.map((line, i) => ({ id: `${inquiry.sourceId}-t0${i + 1}`, ...line })) });
    expect((await activitiesOf(client, inquiry.leadId)).map((activity) => [activity.event, activity.referenceId])).toEqual([
      ['INQUIRY_RECEIVED', inquiry.id],
      ['LEAD_CREATED', null],
    ]);
    expect((await client.get('/v1/inquiries?source=CALL')).body.totalCount).toBe(1);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it('keeps a call’s transcriptTruncated as its sender says (false when not said), and refuses one that is not a boolean, naming it', async () => {
    const { client } = await api.organization();
    const cut = await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412000224' }, data: { ...call, transcriptTruncated: true } });
    const whole = await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412000224' }, data: call });
    expect([cut.status, whole.status]).toEqual([201, 201]);
    expect((await client.get(`/v1/inquiries/${cut.body.inquiry.id}`)).body.data).toMatchObject({ transcriptTruncated: true, transcripts: [{ text: call.transcripts[0]!.text }, { text: call.transcripts[1]!.text }] });
    expect((await client.get(`/v1/inquiries/${whole.body.inquiry.id}`)).body.data.transcriptTruncated).toBe(false);
    const refused = await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412000224' }, data: { ...call, transcriptTruncated: 'yes' } });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([expect.objectContaining({ path: 'data.transcriptTruncated' })]);
  });

  it('finds an existing lead by email, whatever its case, and by phone', async () => {
    const { client } = await api.organization();
    const lead = (await client.post('/v1/leads', { name: 'Sam Tradie', email: 'Sam@Example.com', phone: '+61412000333' })).body.lead;
    const byEmail = await client.post('/v1/inquiries', { source: 'EMAIL', lead: { email: 'sam@EXAMPLE.com' }, data: email });
    const byPhone = await client.post('/v1/inquiries', { source: 'WEBFORM', lead: { phone: '+61412000333', email: 'other@example.com' }, data: webform });
    expect(byEmail.body.inquiry).toMatchObject({ leadId: lead.id, isFirstInquiry: true, summary: email.subject });
    expect(byPhone.body.inquiry).toMatchObject({ leadId: lead.id, isFirstInquiry: false, summary: 'Webform inquiry' });
    expect(await leadOf(client, lead.id)).toMatchObject({ unreadEmails: 1, unreadWebformSubmissions: 1, lastInquiryId: byPhone.body.inquiry.id });
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it('answers 200 with the first inquiry for the same externalInquiryId and source, and records nothing again', async () => {
    const { client } = await api.organization();
    const body = { source: 'EMAIL', externalInquiryId: 'msg-4471', lead: { email: 'repeat@example.com' }, data: email };
    const first = await client.post('/v1/inquiries', body);
    const again = await client.post('/v1/inquiries', body);
    expect(first.status).toBe(201);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(1);
    expect(await leadOf(client, first.body.inquiry.leadId)).toMatchObject({ unreadEmails: 1 });
    // Another source may use the same id for its own record.
    expect((await client.post('/v1/inquiries', { ...body, source: 'WEBFORM', data: webform })).status).toBe(201);
  });

  it('keeps counters, activities and isFirstInquiry right under 20 concurrent ingestions for one new lead', async () => {
    const { client } = await api.organization();
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sentAsAClientRetries(() => client.post('/v1/inquiries', { source: 'EMAIL', lead: { email: 'busy@example.com', name: 'Busy Person' }, data: { ...email, subject: `Message ${i}` } }, { headers: { 'Idempotency-Key': `ingest-${i}` } })),
      ),
    );
    expect(results.map((res) => res.status)).toEqual(Array(20).fill(201));
    const leadIds = new Set(results.map((res) => res.body.inquiry.leadId));
    expect(leadIds.size).toBe(1);
    const [leadId] = [...leadIds] as string[];
    expect(results.filter((res) => res.body.inquiry.isFirstInquiry)).toHaveLength(1);
    const lead = await leadOf(client, leadId!);
    expect(lead.unreadEmails).toBe(20);
    const newest = results.map((res) => res.body.inquiry).sort((a, b) => b.id.localeCompare(a.id))[0];
    expect(lead.lastInquiryId).toBe(newest.id);
    const activities = await activitiesOf(client, leadId!);
    expect(activities.filter((activity) => activity.event === 'INQUIRY_RECEIVED')).toHaveLength(20);
    expect(activities.filter((activity) => activity.event === 'LEAD_CREATED')).toHaveLength(1);
    expect((await client.get(`/v1/leads/${leadId}/activities`)).body.totalCount).toBe(21);
    expect((await client.get(`/v1/inquiries?leadId=${leadId}`)).body.totalCount).toBe(20);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it.each([
    ['email', { email: 'gone@example.com' }],
    ['phone', { phone: '+61412000444' }],
  ])('creates a new lead for a %s whose ingested lead was deleted', async (_, sender) => {
    const { client } = await api.organization();
    const first = (await client.post('/v1/inquiries', { source: 'WEBFORM', lead: sender, data: webform })).body.inquiry;
    expect((await client.delete(`/v1/leads/${first.leadId}`)).status).toBe(200);
    const again = await client.post('/v1/inquiries', { source: 'WEBFORM', lead: sender, data: webform });
    expect(again.status).toBe(201);
    expect(again.body.inquiry.leadId).not.toBe(first.leadId);
    expect(again.body.inquiry.isFirstInquiry).toBe(true);
    expect(await leadOf(client, again.body.inquiry.leadId)).toMatchObject({ ...sender, unreadWebformSubmissions: 1 });
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it.each([
    ['email', { email: 'old@example.com' }, { email: 'new@example.com' }],
    ['phone', { phone: '+61412000555' }, { phone: '+61412000556' }],
  ])('finds a lead by its new %s once it changed, and a new lead for the old one', async (_, before, after) => {
    const { client } = await api.organization();
    const changed = (await client.post('/v1/inquiries', { source: 'WEBFORM', lead: before, data: webform })).body.inquiry.leadId;
    expect((await client.patch(`/v1/leads/${changed}`, after)).status).toBe(200);
    const byOld = await client.post('/v1/inquiries', { source: 'WEBFORM', lead: before, data: webform });
    expect(byOld.status).toBe(201);
    expect(byOld.body.inquiry.leadId).not.toBe(changed);
    expect(await leadOf(client, byOld.body.inquiry.leadId)).toMatchObject(before);
    const byNew = await client.post('/v1/inquiries', { source: 'WEBFORM', lead: after, data: webform });
    expect(byNew.body.inquiry.leadId).toBe(changed);
    expect(await leadOf(client, changed)).toMatchObject({ ...after, unreadWebformSubmissions: 2 });
    expect((await client.get('/v1/leads')).body.totalCount).toBe(2);
  });

  it('makes one new lead under 20 concurrent ingestions for the contact of a deleted lead', async () => {
    const { client } = await api.organization();
    const sender = { email: 'again@example.com', phone: '+61412000666' };
    const deleted = (await client.post('/v1/inquiries', { source: 'EMAIL', lead: sender, data: email })).body.inquiry.leadId;
    await client.delete(`/v1/leads/${deleted}`);
    const results = await Promise.all(Array.from({ length: 20 }, () => client.post('/v1/inquiries', { source: 'EMAIL', lead: sender, data: email })));
    expect(results.map((res) => res.status)).toEqual(Array(20).fill(201));
    const leadIds = new Set(results.map((res) => res.body.inquiry.leadId));
    expect(leadIds.size).toBe(1);
    expect(leadIds.has(deleted)).toBe(false);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it('finds a lead created or changed a moment ago, before the email and phone indexes show it', async () => {
    const { client } = await api.organization();
    const lead = (await client.post('/v1/leads', { name: 'Fresh Lead', email: 'fresh@example.com', phone: '+61412000777' })).body.lead;
    const ingest = (sender: object) => client.post('/v1/inquiries', { source: 'WEBFORM', lead: sender, data: webform }).then((res) => res.body.inquiry.leadId);
    // DynamoDB Local's indexes are never behind; in AWS a GSI lags its table, so the lookups are made to miss.
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const { ExpressionAttributeValues } = (args as { input: { ExpressionAttributeValues?: Record<string, unknown> } }).input;
        const lookup = /#LEADS#(EMAIL|PHONE)#/.test(String(ExpressionAttributeValues?.[':pk']));
        if (context.commandName === 'QueryCommand' && lookup) return { output: { Items: [], Count: 0, $metadata: {} }, response: {} } as never;
        return next(args);
      },
      { step: 'initialize', name: 'laggingContactIndexes' },
    );
    try {
      expect(await ingest({ email: 'FRESH@example.com' })).toBe(lead.id);
      expect(await ingest({ phone: '+61412000777' })).toBe(lead.id);
      await client.patch(`/v1/leads/${lead.id}`, { email: 'moved@example.com', phone: '+61412000778' });
      expect(await ingest({ email: 'moved@example.com' })).toBe(lead.id);
      expect(await ingest({ phone: '+61412000778' })).toBe(lead.id);
      expect(await ingest({ email: 'fresh@example.com' })).not.toBe(lead.id);
    } finally {
      dynamo.middlewareStack.remove('laggingContactIndexes');
    }
    expect((await client.get('/v1/leads')).body.totalCount).toBe(2);
  });

  it('takes createdAt and the record’s times with RFC 3339’s lower-case t and z, as the document’s date-time format and every other instant do', async () => {
    // RFC 3339 §5.6: "T" and "Z" may alternatively be lower case; the document declares these fields format date-time.
    const { client } = await api.organization();
    const res = await client.post('/v1/inquiries', { source: 'EMAIL', lead: { email: 'lower@example.com' }, createdAt: '2026-11-20t10:00:00.000z', data: { ...email, receivedAt: '2026-11-20t10:00:00.000z' } });
    expect(res.status).toBe(201);
    expect(res.body.inquiry.createdAt).toBe('2026-11-20T10:00:00.000Z');
    const single = (await client.get(`/v1/inquiries/${res.body.inquiry.id}`)).body;
    expect(Date.parse(single.data.receivedAt)).toBe(Date.parse('2026-11-20T10:00:00.000Z'));
  });

  it.each([
    ['no email or phone', { source: 'EMAIL', lead: { name: 'Nobody' }, data: email }, 'lead'],
    ['an SMS source', { source: 'SMS', lead: { email: 'a@example.com' }, data: {} }, 'source'],
    ['a phone that is no valid number', { source: 'EMAIL', lead: { phone: '0412 000' }, data: email }, 'lead.phone'],
    ['a record of another source', { source: 'CALL', lead: { email: 'a@example.com' }, data: email }, 'data'],
    ['a future createdAt', { source: 'EMAIL', lead: { email: 'a@example.com' }, data: email, createdAt: '2999-01-01T00:00:00.000Z' }, 'createdAt'],
    ['an unknown field', { source: 'EMAIL', lead: { email: 'a@example.com' }, data: email, priority: 'high' }, 'priority'],
    ['a time whose offset has hours alone', { source: 'EMAIL', lead: { email: 'a@example.com' }, data: { ...email, receivedAt: '2026-11-20T10:00:00+10' } }, 'data.receivedAt'],
    ['a createdAt with a decimal comma', { source: 'EMAIL', lead: { email: 'a@example.com' }, data: email, createdAt: '2026-11-20T10:00:00,5Z' }, 'createdAt'],
    ['a createdAt a second before 1970, which no record id can carry', { source: 'EMAIL', lead: { email: 'a@example.com' }, data: email, createdAt: '1969-12-31T23:59:59Z' }, 'createdAt'],
    ['a chat message before 1970', { source: 'CHATBOT', lead: { email: 'a@example.com' }, data: { messages: [{ role: 'user', text: 'Hi', createdAt: '1960-01-01T00:00:00Z' }], startedAt: '2026-11-20T09:00:00Z', endedAt: null } }, 'data.messages.0.createdAt'],
    ['a date the calendar does not have', { source: 'EMAIL', lead: { email: 'a@example.com' }, data: email, createdAt: '2026-02-30T09:00:00Z' }, 'createdAt'],
    ['a name whose one word is longer than a first name may be', { source: 'EMAIL', lead: { email: 'a@example.com', name: 'X'.repeat(150) }, data: email }, 'lead.name'],
    ['a received time on February 31', { source: 'EMAIL', lead: { email: 'a@example.com' }, data: { ...email, receivedAt: '2026-02-31T09:00:00Z' } }, 'data.receivedAt'],
    ['a call that ends before it starts', { source: 'CALL', lead: { email: 'a@example.com' }, data: { ...call, endedAt: '2026-11-20T08:59:59.999Z' } }, 'data.endedAt'],
    ['a chat that ends before it starts, in another offset', { source: 'CHATBOT', lead: { email: 'a@example.com' }, data: { messages: [], startedAt: '2026-11-20T20:00:00+11:00', endedAt: '2026-11-20T08:59:00Z' } }, 'data.endedAt'],
  ])('answers 400 naming the field for %s, and records nothing', async (_, body, field) => {
    const { client } = await api.organization();
    const res = await client.post('/v1/inquiries', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details.map((detail: { path: string }) => detail.path).join(' ')).toContain(field);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(0);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });
});

describe('PATCH /v1/inquiries/{inquiryId}', () => {
  it('marking read lowers the lead’s unread count for the source, and unread raises it again', async () => {
    const { client } = await api.organization();
    const { inquiry } = (await client.post('/v1/inquiries', { source: 'EMAIL', lead: { email: 'read@example.com' }, data: email })).body;
    const read = await client.patch(`/v1/inquiries/${inquiry.id}`, { isRead: true });
    expect(read.status).toBe(200);
    expect(read.body.inquiry).toEqual({ ...inquiry, isRead: true, updatedAt: expect.stringMatching(ISO_MS) });
    expect(read.body.inquiry.updatedAt > inquiry.updatedAt).toBe(true);
    expect((await leadOf(client, inquiry.leadId)).unreadEmails).toBe(0);
    await client.patch(`/v1/inquiries/${inquiry.id}`, { isRead: true });
    expect((await leadOf(client, inquiry.leadId)).unreadEmails).toBe(0);
    await client.patch(`/v1/inquiries/${inquiry.id}`, { isRead: false });
    expect((await leadOf(client, inquiry.leadId)).unreadEmails).toBe(1);
    expect((await client.get(`/v1/inquiries?leadId=${inquiry.leadId}`)).body.inquiries[0].isRead).toBe(false);
  });

  it('keeps hasFlaggedInquiry true while any of the lead’s inquiries flags, and false once none does', async () => {
    const { client } = await api.organization();
    const sender = { email: 'flags@example.com' };
    const first = (await client.post('/v1/inquiries', { source: 'EMAIL', lead: sender, tag: 'EMERGENCY', data: email })).body.inquiry;
    const second = (await client.post('/v1/inquiries', { source: 'WEBFORM', lead: sender, tag: 'FLAGGED', data: webform })).body.inquiry;
    expect((await leadOf(client, first.leadId)).hasFlaggedInquiry).toBe(true);
    await client.patch(`/v1/inquiries/${first.id}`, { tag: 'GENERAL' });
    expect((await leadOf(client, first.leadId)).hasFlaggedInquiry).toBe(true);
    const res = await client.patch(`/v1/inquiries/${second.id}`, { tag: 'QUOTE_REQUEST', isRead: true });
    expect(res.body.inquiry).toMatchObject({ tag: 'QUOTE_REQUEST', isRead: true });
    expect(await leadOf(client, first.leadId)).toMatchObject({ hasFlaggedInquiry: false, unreadWebformSubmissions: 0, unreadEmails: 1 });
    await client.patch(`/v1/inquiries/${first.id}`, { tag: 'FLAGGED' });
    expect((await leadOf(client, first.leadId)).hasFlaggedInquiry).toBe(true);
  });

  it('keeps the count right when many inquiries of one lead are marked read at once', async () => {
    const { client } = await api.organization();
    const created = [];
    for (let i = 0; i < 8; i++) created.push((await client.post('/v1/inquiries', { source: 'EMAIL', lead: { email: 'many@example.com' }, data: { ...email, subject: `Email ${i}` } })).body.inquiry);
    const statuses = await Promise.all(created.map((inquiry) => client.patch(`/v1/inquiries/${inquiry.id}`, { isRead: true }).then((res) => res.status)));
    expect(statuses).toEqual(Array(8).fill(200));
    expect((await leadOf(client, created[0].leadId)).unreadEmails).toBe(0);
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['an unknown tag', { tag: 'URGENT' }, 'tag'],
    ['isRead that is not a boolean', { isRead: 'yes' }, 'isRead'],
  ])('answers 400 for %s', async (_, body, field) => {
    const { client } = await api.organization();
    const { inquiry } = (await client.post('/v1/inquiries', { source: 'EMAIL', lead: { email: 'bad@example.com' }, data: email })).body;
    const res = await client.patch(`/v1/inquiries/${inquiry.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it("answers 404 for an unknown inquiry and another organization's", async () => {
    const a = await api.organization();
    const b = await api.organization();
    const { inquiry } = (await a.client.post('/v1/inquiries', { source: 'EMAIL', lead: { email: 'mine@example.com' }, data: email })).body;
    expect((await b.client.patch(`/v1/inquiries/${inquiry.id}`, { isRead: true })).status).toBe(404);
    expect((await a.client.patch('/v1/inquiries/inquiry_01HZZZZZZZZZZZZZZZZZZZZZZZ', { isRead: true })).status).toBe(404);
    expect((await leadOf(a.client, inquiry.leadId)).unreadEmails).toBe(1);
  });
});

describe('POST /v1/inquiries racing the lead it found', () => {
  it('records the inquiry when the lead found by its email is deleted before the inquiry is written (a new lead takes it)', async () => {
    const { client } = await api.organization();
    const lead = (await client.post('/v1/leads', { name: 'Sam Tradie', email: 'sam@example.com' })).body.lead;
    // The ingestion has read the email's claim and its lead; its inquiry transaction is held.
    const hold = holdWrite(/"sk":"INQUIRY"/);
    const ingestion = client.post('/v1/inquiries', { source: 'EMAIL', lead: { email: 'sam@example.com', name: 'Sam Tradie' }, data: email });
    await hold.reached;
    expect((await client.delete(`/v1/leads/${lead.id}`)).status).toBe(200);
    hold.release();
    const res = await ingestion;
    expect(res.status).toBe(201);
    const recordedFor = (await client.get(`/v1/leads/${res.body.inquiry.leadId}`)).body.lead;
    expect(recordedFor).toMatchObject({ email: 'sam@example.com', unreadEmails: 1, lastInquiryId: res.body.inquiry.id });
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(1);
  });

  it('records the inquiry on the lead that has the email when it is written, not on the lead that gave it up meanwhile', async () => {
    const { client } = await api.organization();
    const before = (await client.post('/v1/leads', { name: 'Sam Tradie', email: 'sam@example.com' })).body.lead;
    const hold = holdWrite(/"sk":"INQUIRY"/);
    const ingestion = client.post('/v1/inquiries', { source: 'EMAIL', lead: { email: 'sam@example.com' }, data: email });
    await hold.reached;
    // The email moves to another lead while the ingestion is between its lookup and its write.
    expect((await client.patch(`/v1/leads/${before.id}`, { email: 'sam.old@example.com' })).status).toBe(200);
    const now = await client.post('/v1/leads', { name: 'Sam Newer', email: 'sam@example.com' });
    expect(now.status).toBe(201);
    hold.release();
    const res = await ingestion;
    expect(res.status).toBe(201);
    expect(res.body.inquiry.leadId).toBe(now.body.lead.id);
    expect((await client.get(`/v1/leads/${before.id}`)).body.lead).toMatchObject({ email: 'sam.old@example.com', unreadEmails: 0, lastInquiryId: null });
  });
});
