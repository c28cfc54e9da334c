import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { leadKeys } from './entity';
import { buildDocument } from '../meta/document';
import { useTestApi } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { ISO_MS } from '../../test/support/fixtures';

const api = useTestApi();
const webform = { formName: 'Contact us', submittedAt: '2026-11-20T09:00:00Z', pageUrl: null, fields: [{ name: 'message', label: 'Message', value: 'Leaking tap' }] };

describe('POST /v1/leads', () => {
  it('answers 201 with every Lead field filled, splitting name into firstName and lastName', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/leads', { name: 'Jane van der Berg', email: 'jane@example.com', phone: '+61412000111', suburb: 'Glebe' });
    expect(res.status).toBe(201);
    expect(res.body.lead).toEqual({
      id: expect.stringMatching(/^lead_[0-9A-HJKMNP-TV-Z]{26}$/),
      firstName: 'Jane',
      lastName: 'van der Berg',
      email: 'jane@example.com',
      phone: '+61412000111',
      suburb: 'Glebe',
      businessName: null,
      companyId: null,
      assignedMemberId: null,
      socials: {},
      status: 'NEW',
      // A lead takes its first status when it is created.
      statusChangedAt: res.body.lead.createdAt,
      value: null,
      lostReason: null,
      wonAt: null,
      lostAt: null,
      createdAt: expect.stringMatching(ISO_MS),
      updatedAt: expect.stringMatching(ISO_MS),
      read: false,
      lastInquiryId: null,
      lastInquiryDate: null,
      unreadEmails: 0,
      unreadCalls: 0,
      unreadChatbotThreads: 0,
      unreadSMS: 0,
      unreadWebformSubmissions: 0,
      hasFlaggedInquiry: false,
      smsOptedOut: false,
    });
  });

  it('records a LEAD_CREATED activity with an integer id', async () => {
    const { client } = await api.organization();
    const { body } = await client.post('/v1/leads', { name: 'Sam Lee', email: 'sam@example.com' });
    const activities = await client.get(`/v1/leads/${body.lead.id}/activities`);
    expect(activities.status).toBe(200);
    expect(activities.body).toEqual({
      activities: [
        { id: 1, event: 'LEAD_CREATED', data: 'Lead Sam Lee created', referenceId: null, userId: null, leadId: body.lead.id, createdAt: body.lead.createdAt, updatedAt: body.lead.createdAt },
      ],
      totalPages: 1,
      currentPage: 1,
      totalCount: 1,
      nextCursor: null,
    });
  });

  it('lets explicit firstName, lastName, businessName and socials through', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/leads', {
      email: 'ops@acme.com.au',
      firstName: 'Ada',
      lastName: 'Lovelace',
      businessName: 'Acme',
      socials: { linkedin: 'https://linkedin.com/in/ada' },
    });
    expect(res.status).toBe(201);
    expect(res.body.lead).toMatchObject({ firstName: 'Ada', lastName: 'Lovelace', businessName: 'Acme', socials: { linkedin: 'https://linkedin.com/in/ada' } });
  });

  it.each([
    ['a missing email', { name: 'No Email' }, 'email'],
    ['an invalid email', { name: 'Bad Email', email: 'not-an-email' }, 'email'],
    ['a missing name', { email: 'a@example.com' }, 'name'],
    ['a phone that is no valid number', { name: 'A B', email: 'a@example.com', phone: '0412 345' }, 'phone'],
    ['an unknown field', { name: 'A B', email: 'a@example.com', favouriteColour: 'blue' }, 'favouriteColour'],
    ['a name of the wrong type', { name: 42, email: 'a@example.com' }, 'name'],
    ['a socials entry with an empty name', { name: 'A B', email: 'a@example.com', socials: { '': 'x' } }, 'socials'],
  ])('answers 400 naming the field for %s, and writes nothing', async (_, body, field) => {
    const { client } = await api.organization();
    const res = await client.post('/v1/leads', body);
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { status: 400, code: 'VALIDATION_ERROR' } });
    expect(res.body.message).toContain(field);
    expect(res.body.error.details[0].path.split('.')[0]).toBe(field);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });

  it('answers 400 with the envelope for malformed JSON, with or without a charset (another type is 415: test/json-bodies.test.ts)', async () => {
    const { client } = await api.organization();
    for (const headers of [{ 'content-type': 'application/json' }, { 'content-type': 'application/json; charset=utf-8' }]) {
      const res = await client.post('/v1/leads', undefined, { rawBody: '{"name": "x",', headers });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        success: false,
        message: 'Request body must be valid JSON',
        error: { status: 400, message: 'Request body must be valid JSON', code: 'INVALID_JSON' },
      });
    }
  });

  it.each([['[]'], ['null'], ['"lead"'], ['42']])('answers 400 "body must be a JSON object" for the body %s', async (rawBody) => {
    const { client } = await api.organization();
    const res = await client.post('/v1/leads', undefined, { rawBody, headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'body', message: 'body must be a JSON object' }]);
  });

  it('words a missing and an unknown field plainly', async () => {
    const { client } = await api.organization();
    const missing = await client.post('/v1/leads', { name: 'No Email' });
    expect(missing.body.error.details).toEqual([{ path: 'email', message: 'email is required unless phone is given' }]);
    const unknown = await client.post('/v1/leads', { name: 'A B', email: 'a@example.com', favouriteColour: 'blue' });
    expect(unknown.body.message).toBe('favouriteColour is not a known field');
  });

  it('answers 400 for a __proto__ key, saying so, and writes nothing', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/leads', undefined, {
      rawBody: '{"name":"A B","email":"a@example.com","__proto__":{"admin":true}}',
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Request body must not use the key "__proto__"');
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });

  it('takes a phone without an email, and the lead is found by that phone by ingestion', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/leads', { name: 'Phone Only', phone: '+61412000999' });
    expect(res.status).toBe(201);
    expect(res.body.lead).toMatchObject({ firstName: 'Phone', lastName: 'Only', email: null, phone: '+61412000999', status: 'NEW' });
    const lead = res.body.lead;
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toEqual(lead);

    const ingested = await client.post('/v1/inquiries', { source: 'WEBFORM', lead: { phone: '+61412000999' }, data: webform });
    expect(ingested.status, JSON.stringify(ingested.body)).toBe(201);
    expect(ingested.body.inquiry.leadId).toBe(lead.id);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);

    // Given an email later, it is found by either, and an ingestion by the email takes the same lead.
    expect((await client.patch(`/v1/leads/${lead.id}`, { email: 'later@example.com' })).status).toBe(200);
    const byEmail = await client.post('/v1/inquiries', { source: 'WEBFORM', lead: { email: 'later@example.com' }, data: webform });
    expect(byEmail.body.inquiry.leadId).toBe(lead.id);
  });

  it("takes a phone-only lead's claim, so an ingestion for that phone a moment later finds it, not a new lead", async () => {
    const { client, organizationId } = await api.organization();
    const lead = (await client.post('/v1/leads', { firstName: 'Claimed', phone: '+61412000998' })).body.lead;
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: leadKeys.leadContact(organizationId, 'PHONE', '+61412000998') }));
    expect(Item?.leadId).toBe(lead.id);
    const found = await client.post('/v1/inquiries', { source: 'WEBFORM', lead: { phone: '+61412000998' }, summary: 'Call back', data: { formName: 'Contact us', submittedAt: '2026-11-20T09:00:00Z', pageUrl: 'https://northside.example.com/contact', fields: [{ name: 'message', label: 'Message', value: 'Call back' }] } });
    expect(found.status).toBe(201);
    expect(found.body.inquiry.leadId).toBe(lead.id);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it('answers 400 naming email when neither email nor phone is given, and writes nothing', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/leads', { name: 'Nobody', suburb: 'Glebe' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'email', message: 'email is required unless phone is given' }]);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });

  it('answers 400 for a missing body', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/leads');
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
  });

  it('costs one transaction, after one UpdateItem for the first: it reserves a block of activity ids the next take from', async () => {
    const { client } = await api.organization();
    const calls = await countDynamoCalls(() => client.post('/v1/leads', { name: 'Count Me', email: 'count@example.com' }));
    expect(calls).toEqual(['UpdateItemCommand', 'TransactWriteItemsCommand']);
    const next = await countDynamoCalls(() => client.post('/v1/leads', { name: 'Count Again', email: 'again@example.com' }));
    expect(next).toEqual(['TransactWriteItemsCommand']);
  });

  it('retries a transaction DynamoDB cancels for a conflict with a concurrent one, and writes once', async () => {
    const { client } = await api.organization();
    // DynamoDB Local serialises transactions, so the conflict AWS reports under concurrency is injected once.
    let conflicts = 1;
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand' && conflicts-- > 0) {
          throw new TransactionCanceledException({
            message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [None, TransactionConflict, None, None]',
            $metadata: {},
            CancellationReasons: [{ Code: 'None' }, { Code: 'TransactionConflict' }, { Code: 'None' }, { Code: 'None' }],
          });
        }
        return next(args);
      },
      { step: 'initialize', name: 'injectOneConflict' },
    );
    try {
      const calls = await countDynamoCalls(async () => {
        const res = await client.post('/v1/leads', { name: 'Busy Day', email: 'busy@example.com' });
        expect(res.status).toBe(201);
      });
      expect(calls).toEqual(['UpdateItemCommand', 'TransactWriteItemsCommand', 'TransactWriteItemsCommand']);
    } finally {
      dynamo.middlewareStack.remove('injectOneConflict');
    }
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });
});

describe('a lead’s name, as the document states its split', () => {
  const document = buildDocument() as unknown as { paths: Record<string, { post: { requestBody: { content: Record<string, { schema: { properties: Record<string, { description: string }> } }> } } }> };

  it.each([
    ['/v1/leads', {}],
    ['/v1/leads/upsert', { match: 'email' }],
  ])('POST %s: split at its first white space, each part at most 100 characters, a longer one answering the 400 naming name it states', async (path, extra) => {
    const { description } = document.paths[path]!.post.requestBody.content['application/json']!.schema.properties.name!;
    expect(description).toContain('Split at its first white space into firstName (the first word) and lastName (the rest');
    expect(description).toContain('at most 100 characters, as firstName and lastName may: a longer part answers 400 naming `name`');
    const { client } = await api.organization();
    // 109 characters, within name's 200: the split gives a 105-character lastName, where lastName takes 100.
    const res = await client.post(path, { ...extra, name: `Ana ${'Wolfeschlegelsteinhausenbergerdorff'.repeat(3)}`, email: 'ana@example.com' });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'name', message: 'name must split into names of at most 100 characters each: its lastName would have 105' }]);
    const split = await client.post(path, { ...extra, name: 'Ana  Maria   de la Cruz', email: 'ana@example.com' });
    expect(split.body.lead).toMatchObject({ firstName: 'Ana', lastName: 'Maria de la Cruz' });
  });
});

describe('a lead’s name split into first and last name', () => {
  it('counts each part in characters, as firstName and lastName count them: an emoji is one', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/leads', { name: `Jo ${'😀'.repeat(60)}`, email: 'emoji@example.com' });
    expect(res.status).toBe(201);
    expect(res.body.lead).toMatchObject({ firstName: 'Jo', lastName: '😀'.repeat(60) });
  });
});

describe('GET /v1/leads', () => {
  it('lists a company’s leads of one status with one Query of the company’s leads, counted as read, paged by cursor bound to the status', async () => {
    const { client } = await api.organization();
    const company = (await client.post('/v1/companies', { name: 'Harbour Plumbing' })).body.company;
    const made = [];
    for (const [i, status] of ['NEW', 'CONTACTED', 'NEW', 'NEW', 'WON'].entries()) {
      const lead = (await client.post('/v1/leads', { firstName: `Member${i}`, email: `member${i}@example.com`, companyId: company.id })).body.lead;
      if (status !== 'NEW') expect((await client.patch(`/v1/leads/${lead.id}`, { status })).status).toBe(200);
      made.push({ ...lead, status });
    }
    await client.post('/v1/leads', { firstName: 'Elsewhere', email: 'elsewhere@example.com' });
    const path = `/v1/leads?companyId=${company.id}&status=NEW&limit=2`;
    let first: any;
    const calls = await countDynamoCalls(async () => (first = (await client.get(path)).body));
    expect(calls).toEqual(['QueryCommand']);
    const newOnes = made.filter((lead) => lead.status === 'NEW').map((lead) => lead.id).reverse();
    expect([first.totalCount, first.leads.map((lead: any) => lead.id)]).toEqual([3, newOnes.slice(0, 2)]);
    const second = (await client.get(`${path}&cursor=${first.nextCursor}`)).body;
    expect([second.leads.map((lead: any) => lead.id), second.nextCursor]).toEqual([newOnes.slice(2), null]);
    expect((await client.get(`/v1/leads?companyId=${company.id}&status=NEW&limit=2&page=2`)).body.leads.map((lead: any) => lead.id)).toEqual(newOnes.slice(2));
    expect((await client.get(`/v1/leads?companyId=${company.id}&status=WON&cursor=${first.nextCursor}`)).status).toBe(400);
  });

  it('lists the demo leads newest first with the pagination envelope', async () => {
    const { client } = await api.demoOrganization();
    const res = await client.get('/v1/leads');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalPages: 1, currentPage: 1, totalCount: 9 });
    const dates = res.body.leads.map((lead: { createdAt: string }) => lead.createdAt);
    expect(dates).toHaveLength(9);
    expect(dates).toEqual([...dates].sort().reverse());
  });

  it('pages with page and limit, and answers an empty page past the end', async () => {
    const { client } = await api.demoOrganization();
    const all = (await client.get('/v1/leads?limit=100')).body.leads.map((lead: { id: string }) => lead.id);
    const page2 = await client.get('/v1/leads?page=2&limit=3');
    expect(page2.body).toMatchObject({ totalPages: 3, currentPage: 2, totalCount: 9 });
    expect(page2.body.leads.map((lead: { id: string }) => lead.id)).toEqual(all.slice(3, 6));
    const page3 = await client.get('/v1/leads?page=3&limit=3');
    expect(page3.body.leads.map((lead: { id: string }) => lead.id)).toEqual(all.slice(6, 9));
    const past = await client.get('/v1/leads?page=9&limit=3');
    expect(past.status).toBe(200);
    expect(past.body).toEqual({ leads: [], totalPages: 3, currentPage: 9, totalCount: 9, nextCursor: null });
  });

  it('answers a page far past the end with an empty array from the counter read alone', async () => {
    const { client } = await api.demoOrganization();
    for (const page of ['4', '21474838', '2147483647']) {
      const calls = await countDynamoCalls(async () => {
        const res = await client.get(`/v1/leads?page=${page}&limit=3`);
        expect(res.status).toBe(200);
        expect(res.body).toEqual({ leads: [], totalPages: 3, currentPage: Number(page), totalCount: 9, nextCursor: null });
      });
      expect(calls).toEqual(['GetItemCommand']);
    }
  });

  it('names the bound for an integer beyond it', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/leads?page=99999999999');
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('page must be at most 2147483647');
  });

  it('answers an empty first page for an organization with no leads', async () => {
    const { client } = await api.organization();
    expect((await client.get('/v1/leads')).body).toEqual({ leads: [], totalPages: 0, currentPage: 1, totalCount: 0, nextCursor: null });
  });

  it.each(['page=0', 'page=-1', 'page=1.5', 'page=abc', 'limit=0', 'limit=101', 'limit=ten', 'limit='])(
    'answers 400 for %s',
    async (query) => {
      const { client } = await api.organization();
      const res = await client.get(`/v1/leads?${query}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(query.split('=')[0]);
    },
  );

  it('reads page 1 with one Query and one counter read, however many leads there are', async () => {
    const { client } = await api.demoOrganization();
    const calls = await countDynamoCalls(() => client.get('/v1/leads?limit=2'));
    expect(calls.sort()).toEqual(['GetItemCommand', 'QueryCommand']);
  });

  it("never shows another organization's leads", async () => {
    const mine = await api.organization({ demo: true });
    const theirs = await api.organization();
    await theirs.client.post('/v1/leads', { name: 'Their Lead', email: 'their@example.com' });
    const res = await mine.client.get('/v1/leads?limit=100');
    expect(res.body.totalCount).toBe(9);
    expect(res.body.leads.map((lead: { email: string }) => lead.email)).not.toContain('their@example.com');
  });
});

/** A lead's activity items as stored, read past the API. */
async function storedActivities(organizationId: string, leadId: string) {
  const { pk, skPrefix } = leadKeys.activities(organizationId, leadId);
  const { Items } = await dynamo.send(
    new QueryCommand({ TableName: config.tableName, KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': pk, ':prefix': skPrefix } }),
  );
  return Items ?? [];
}

describe('DELETE /v1/leads/{leadId}', () => {
  it('removes the lead, keeps the count true, removes its activities, and they answer 404 afterwards', async () => {
    const { client, organizationId } = await api.organization({ demo: true });
    const [lead] = (await client.get('/v1/leads?limit=1')).body.leads;
    const res = await client.delete(`/v1/leads/${lead.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: lead.id });
    const list = await client.get('/v1/leads?limit=100');
    expect(list.body.totalCount).toBe(8);
    expect(list.body.leads).toHaveLength(8);
    expect(list.body.leads.map((l: { id: string }) => l.id)).not.toContain(lead.id);
    const activities = await client.get(`/v1/leads/${lead.id}/activities`);
    expect(activities.status).toBe(404);
    expect(activities.body).toMatchObject({ success: false, error: { status: 404 } });
    expect(await storedActivities(organizationId, lead.id)).toEqual([]);
  });

  it('finishes removing activity records on a retried delete that answers 404', async () => {
    const { client, organizationId } = await api.organization();
    const leadId = 'lead_01HZZZZZZZZZZZZZZZZZZZZZZZ';
    // What a delete interrupted after its transaction leaves: activities of a lead that is gone.
    await dynamo.send(new PutCommand({ TableName: config.tableName, Item: { ...leadKeys.activity(organizationId, leadId, { id: 1, updatedAt: '2026-11-20T09:00:00.000Z' }), entity: 'ACTIVITY' } }));
    expect(await storedActivities(organizationId, leadId)).toHaveLength(1);
    expect((await client.delete(`/v1/leads/${leadId}`)).status).toBe(404);
    expect(await storedActivities(organizationId, leadId)).toEqual([]);
  });

  it('answers 404 for an unknown lead, and for a lead deleted already', async () => {
    const { client } = await api.organization();
    const { body } = await client.post('/v1/leads', { name: 'Gone Soon', email: 'gone@example.com' });
    expect((await client.delete(`/v1/leads/${body.lead.id}`)).status).toBe(200);
    const again = await client.delete(`/v1/leads/${body.lead.id}`);
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ success: false, message: 'Lead not found', error: { status: 404, message: 'Lead not found', code: 'NOT_FOUND' } });
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
  });

  it("answers 404 for another organization's lead and leaves it in place", async () => {
    const owner = await api.organization();
    const other = await api.organization();
    const { body } = await owner.client.post('/v1/leads', { name: 'Kept Lead', email: 'kept@example.com' });
    expect((await other.client.delete(`/v1/leads/${body.lead.id}`)).status).toBe(404);
    expect((await owner.client.get('/v1/leads')).body.totalCount).toBe(1);
  });
});

describe('GET /v1/leads/{leadId}/activities', () => {
  it('answers 404 for an unknown lead', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/leads/lead_01HZZZZZZZZZZZZZZZZZZZZZZZ/activities');
    expect(res.status).toBe(404);
  });

  it("answers 404 for another organization's lead", async () => {
    const owner = await api.demoOrganization();
    const other = await api.organization();
    const [lead] = (await owner.client.get('/v1/leads?limit=1')).body.leads;
    expect((await other.client.get(`/v1/leads/${lead.id}/activities`)).status).toBe(404);
  });

  it('answers 400 for a bad limit', async () => {
    const { client } = await api.demoOrganization();
    const [lead] = (await client.get('/v1/leads?limit=1')).body.leads;
    expect((await client.get(`/v1/leads/${lead.id}/activities?limit=500`)).status).toBe(400);
  });
});
