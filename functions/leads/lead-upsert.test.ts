import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { dynamo } from '#shared/dynamo';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../test/support/api';
import { holdWrite } from '../../test/support/interleave';

const api = useTestApi({ events: true });

describe('POST /v1/leads with a contact another lead has', () => {
  it('answers 409 DUPLICATE_CONTACT naming the lead with that email, in any case', async () => {
    const { client } = await api.organization();
    await client.post('/v1/leads', { name: 'Decoy Lead', email: 'decoy@example.com' });
    const first = (await client.post('/v1/leads', { name: 'Jane Citizen', email: 'jane@example.com' })).body.lead.id;
    const res = await client.post('/v1/leads', { name: 'Jane Again', email: 'JANE@example.com' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('DUPLICATE_CONTACT');
    expect(res.body.error.details).toEqual([{ path: 'email', message: expect.stringContaining(first), existingId: first }]);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(2);
  });

  it('answers 409 naming the lead with that phone, and creates nothing', async () => {
    const { client } = await api.organization();
    const first = (await client.post('/v1/leads', { name: 'Pat Doyle', phone: '+61412345678' })).body.lead.id;
    const res = await client.post('/v1/leads', { name: 'Pat Other', email: 'pat@example.com', phone: '+61412345678' });
    expect(res.status).toBe(409);
    expect(res.body.error.details[0]).toMatchObject({ path: 'phone', existingId: first });
    expect((await client.get('/v1/leads?q=pat@example.com')).body.totalCount).toBe(0);
  });

  it('reads a trunk 0 typed after the calling code as the same phone: stored without it, found by the caller lookup, and one lead’s', async () => {
    const { client } = await api.organization();
    const typed = await client.post('/v1/leads', { name: 'Tess Ward', phone: '+610412999111' });
    expect(typed.status).toBe(201);
    expect(typed.body.lead.phone).toBe('+61412999111');
    const again = await client.post('/v1/leads', { name: 'Tess Again', phone: '+61412999111' });
    expect(again.status).toBe(409);
    expect(again.body.error.details[0]).toMatchObject({ path: 'phone', existingId: typed.body.lead.id });
    expect((await client.get('/v1/callers/%2B61412999111')).body.caller.lead?.id).toBe(typed.body.lead.id);
    // A PATCH and another country whose numbers never start with 0 after the code (the UK) read it the same way.
    expect((await client.patch(`/v1/leads/${typed.body.lead.id}`, { phone: '+4402079460000' })).body.lead.phone).toBe('+442079460000');
    // Italy's numbers keep their 0 after the code: a number is changed only where the 0 can be nothing but a trunk prefix.
    expect((await client.post('/v1/leads', { name: 'Gia Rossi', phone: '+390612345678' })).body.lead.phone).toBe('+390612345678');
    expect((await client.get('/v1/leads')).body.totalCount).toBe(2);
  });

  it('creates one lead of concurrent creates with one email; the others answer 409 naming it', async () => {
    const { client } = await api.organization();
    const answers = await Promise.all(Array.from({ length: 6 }, (_, i) => client.post('/v1/leads', { name: `Racer ${i}`, email: 'racer@example.com' })));
    const winners = answers.filter((answer) => answer.status === 201);
    expect(winners).toHaveLength(1);
    const winner = winners[0]!.body.lead.id;
    for (const lost of answers.filter((answer) => answer.status !== 201)) {
      expect(lost.status).toBe(409);
      expect(lost.body.error.details[0]).toMatchObject({ path: 'email', existingId: winner });
    }
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it('lets a contact be taken again once its lead is deleted or has let it go', async () => {
    const { client } = await api.organization();
    const gone = (await client.post('/v1/leads', { name: 'Gone Lead', email: 'gone@example.com' })).body.lead.id;
    await client.delete(`/v1/leads/${gone}`);
    expect((await client.post('/v1/leads', { name: 'New Lead', email: 'gone@example.com' })).status).toBe(201);
    const moved = (await client.post('/v1/leads', { name: 'Moved Lead', email: 'moved@example.com' })).body.lead.id;
    expect((await client.patch(`/v1/leads/${moved}`, { email: 'elsewhere@example.com' })).status).toBe(200);
    expect((await client.post('/v1/leads', { name: 'Taker Lead', email: 'moved@example.com' })).status).toBe(201);
  });
});

describe('PATCH /v1/leads/{id} to a contact another lead has', () => {
  it('answers 409 DUPLICATE_CONTACT naming that lead and changes nothing', async () => {
    const { client } = await api.organization();
    const holder = (await client.post('/v1/leads', { name: 'Holder Lead', email: 'holder@example.com', phone: '+61412000001' })).body.lead.id;
    const other = (await client.post('/v1/leads', { name: 'Other Lead', email: 'other@example.com' })).body.lead.id;
    for (const [field, value] of [['email', 'Holder@Example.com'], ['phone', '+61412000001']] as const) {
      const res = await client.patch(`/v1/leads/${other}`, { [field]: value, firstName: 'Renamed' });
      expect(res.status, field).toBe(409);
      expect(res.body.error.details[0], field).toMatchObject({ path: field, existingId: holder });
    }
    expect((await client.get(`/v1/leads/${other}`)).body.lead).toMatchObject({ firstName: 'Other', email: 'other@example.com', phone: null });
  });

  it('lets a lead take back a contact it had, and keep its own', async () => {
    const { client } = await api.organization();
    const id = (await client.post('/v1/leads', { name: 'Back Lead', email: 'back@example.com' })).body.lead.id;
    expect((await client.patch(`/v1/leads/${id}`, { email: 'away@example.com' })).status).toBe(200);
    expect((await client.patch(`/v1/leads/${id}`, { email: 'back@example.com' })).status).toBe(200);
    expect((await client.patch(`/v1/leads/${id}`, { email: 'BACK@example.com' })).status).toBe(200);
    expect((await client.post('/v1/leads', { name: 'Copy Lead', email: 'back@example.com' })).body.error.details[0].existingId).toBe(id);
  });
});

describe('POST /v1/leads/upsert', () => {
  it('creates a lead (201, created: true) when no lead has the contact, then changes it (200, created: false)', async () => {
    const { client } = await api.organization();
    const created = await client.post('/v1/leads/upsert', { match: 'email', email: 'sam@example.com', name: 'Sam Lee', suburb: 'Glebe' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ created: true, lead: { firstName: 'Sam', lastName: 'Lee', email: 'sam@example.com', suburb: 'Glebe', status: 'NEW' } });
    const updated = await client.post('/v1/leads/upsert', { match: 'email', email: 'SAM@example.com', suburb: 'Newtown', phone: '+61412555111' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ created: false, lead: { id: created.body.lead.id, firstName: 'Sam', suburb: 'Newtown', phone: '+61412555111', email: 'sam@example.com' } });
    const byPhone = await client.post('/v1/leads/upsert', { match: 'phone', phone: '+61412555111', name: 'Samuel Lee' });
    expect(byPhone.status).toBe(200);
    expect(byPhone.body.lead).toMatchObject({ id: created.body.lead.id, firstName: 'Samuel', lastName: 'Lee' });
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it('applies the fields to the lead holding the contact, not another', async () => {
    const { client } = await api.organization();
    const decoy = (await client.post('/v1/leads', { name: 'Decoy Lead', email: 'decoy@example.com', phone: '+61412000222' })).body.lead.id;
    const target = (await client.post('/v1/leads', { name: 'Target Lead', email: 'target@example.com' })).body.lead.id;
    const res = await client.post('/v1/leads/upsert', { match: 'email', email: 'target@example.com', businessName: 'Target Builds' });
    expect(res.status).toBe(200);
    expect(res.body.lead.id).toBe(target);
    expect((await client.get(`/v1/leads/${decoy}`)).body.lead.businessName).toBeNull();
  });

  it('answers 409 DUPLICATE_CONTACT when another contact of the body is another lead’s', async () => {
    const { client } = await api.organization();
    const holder = (await client.post('/v1/leads', { name: 'Phone Holder', phone: '+61412000333' })).body.lead.id;
    const res = await client.post('/v1/leads/upsert', { match: 'email', email: 'new@example.com', name: 'New Person', phone: '+61412000333' });
    expect(res.status).toBe(409);
    expect(res.body.error.details[0]).toMatchObject({ path: 'phone', existingId: holder });
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it('answers 400 naming the field its match needs, and name when it would create without one', async () => {
    const { client } = await api.organization();
    const missing = await client.post('/v1/leads/upsert', { match: 'phone', email: 'x@example.com', name: 'X Y' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].path).toBe('phone');
    const nameless = await client.post('/v1/leads/upsert', { match: 'email', email: 'x@example.com' });
    expect(nameless.status).toBe(400);
    expect(nameless.body.error.details[0].path).toBe('name');
    expect((await client.post('/v1/leads/upsert', { match: 'fax', email: 'x@example.com' })).body.error.details[0].path).toBe('match');
  });

  it('makes one lead of concurrent upserts of one new contact', async () => {
    const { client } = await api.organization();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => client.post('/v1/leads/upsert', { match: 'email', email: 'race@example.com', name: 'Race Lead', suburb: `Suburb ${i}` })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(answers.map((a) => a.body.lead.id)).size).toBe(1);
    expect(answers.filter((a) => a.body.created)).toHaveLength(1);
    const list = (await client.get('/v1/leads')).body;
    expect(list.totalCount).toBe(1);
    expect(list.leads).toHaveLength(1);
    expect((await client.get('/v1/leads?q=race')).body.totalCount).toBe(1);
  });

  // 15 at once, and once more if DynamoDB Local itself stalls past the client's 3 s: with the whole suite on two cores,
  // 30 at once stalled it (every request timed out, which the API rightly answers 503). What is tested is that
  // contention on the lead fails none of them.
  it('lands an upsert that loses its race to other writes of the lead more often than its first retries, rather than answering 409', { retry: 1 }, async () => {
    const { client } = await api.organization();
    const created = await client.post('/v1/leads/upsert', { match: 'phone', phone: '+61412000778', name: 'Busy Caller' });
    // The change loses its race eight times in a row (its condition on the lead as read fails, nothing written), as
    // when many requests write one lead at once: more often than its first retries.
    let lost = 0;
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName !== 'UpdateItemCommand' || !JSON.stringify(args.input).includes('Suburb 9') || lost >= 8) return next(args);
        lost++;
        throw new ConditionalCheckFailedException({ message: 'The conditional request failed', $metadata: {} });
      },
      { step: 'initialize', name: 'busyLead' },
    );
    const changed = await client.post('/v1/leads/upsert', { match: 'phone', phone: '+61412000778', suburb: 'Suburb 9' }).finally(() => dynamo.middlewareStack.remove('busyLead'));
    expect(lost).toBe(8);
    expect(changed.status).toBe(200);
    expect(changed.body.lead).toMatchObject({ id: created.body.lead.id, suburb: 'Suburb 9' });
  });

  it('replays an answer for the same Idempotency-Key and body', async () => {
    const { client } = await api.organization();
    const body = { match: 'email', email: 'idem@example.com', name: 'Idem Lead' };
    const first = await client.post('/v1/leads/upsert', body, { headers: { 'Idempotency-Key': 'upsert-1' } });
    const again = await client.post('/v1/leads/upsert', body, { headers: { 'Idempotency-Key': 'upsert-1' } });
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });

  it('emits lead.created for a new lead and lead.updated for a change', async () => {
    const { client } = await api.organization();
    const id = (await client.post('/v1/leads/upsert', { match: 'email', email: 'ev@example.com', name: 'Event Lead' })).body.lead.id;
    await client.post('/v1/leads/upsert', { match: 'email', email: 'ev@example.com', suburb: 'Bondi' });
    await api.eventsCaughtUp();
    const created = (await client.get('/v1/events?type=lead.created')).body.events;
    const updated = (await client.get('/v1/events?type=lead.updated')).body.events;
    expect(created.map((e: any) => e.data.id)).toEqual([id]);
    expect(updated.map((e: any) => [e.data.id, e.data.suburb])).toEqual([[id, 'Bondi']]);
  });
});

describe('POST /v1/leads/upsert with match phone', () => {
  it('gives a returning caller’s lead, found by phone, the new email they say (200, created: false)', async () => {
    const { client } = await api.organization();
    const caller = (await client.post('/v1/leads', { name: 'Ravi Patel', phone: '+61400111222' })).body.lead;
    const res = await client.post('/v1/leads/upsert', { match: 'phone', phone: '+61400111222', email: 'ravi@example.com', suburb: 'Marrickville' });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ created: false, lead: { ...caller, email: 'ravi@example.com', suburb: 'Marrickville', updatedAt: expect.any(String) } });
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });

  it('answers 409 DUPLICATE_CONTACT naming the lead that has the email, and changes neither lead', async () => {
    const { client } = await api.organization();
    const other = (await client.post('/v1/leads', { name: 'Mia Chen', email: 'mia@example.com' })).body.lead;
    const caller = (await client.post('/v1/leads', { name: 'Ravi Patel', phone: '+61400111222' })).body.lead;
    const res = await client.post('/v1/leads/upsert', { match: 'phone', phone: '+61400111222', email: 'MIA@example.com', suburb: 'Glebe' });
    expect(res.status).toBe(409);
    expect(res.body.error).toMatchObject({ code: 'DUPLICATE_CONTACT', details: [{ path: 'email', message: expect.stringContaining(other.id), existingId: other.id }] });
    expect((await client.get(`/v1/leads/${other.id}`)).body.lead).toEqual(other);
    expect((await client.get(`/v1/leads/${caller.id}`)).body.lead).toEqual(caller);
  });

  it('is how MCP save_caller finds the caller: by phone, the email said on the call added to that lead', async () => {
    const { client } = await api.organization();
    const caller = (await client.post('/v1/leads', { name: 'Ravi Patel', phone: '+61400111222' })).body.lead;
    const saved = await client.post('/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'save_caller', arguments: { phone: '+61400111222', name: 'Ravi Patel', email: 'ravi@example.com' } } });
    expect(saved.status).toBe(200);
    expect(saved.body.result.isError ?? false, JSON.stringify(saved.body)).toBe(false);
    expect(saved.body.result.structuredContent).toMatchObject({ created: false, lead: { id: caller.id, email: 'ravi@example.com' } });
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
  });
});

describe('POST /v1/leads/upsert racing the lead it matched', () => {
  it('creates the lead (201, created: true) when the lead holding the matched email is deleted before the upsert writes', async () => {
    const { client } = await api.organization();
    const lead = (await client.post('/v1/leads', { name: 'Jane Citizen', email: 'jane@example.com' })).body.lead;
    // The upsert has found the lead by the email's claim; its update of that lead is held.
    const hold = holdWrite(/Glebe/);
    const upsert = client.post('/v1/leads/upsert', { match: 'email', email: 'jane@example.com', name: 'Jane Citizen', suburb: 'Glebe' });
    await hold.reached;
    expect((await client.delete(`/v1/leads/${lead.id}`)).status).toBe(200);
    hold.release();
    const res = await upsert;
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ created: true, lead: { email: 'jane@example.com', suburb: 'Glebe' } });
    expect((await client.get('/v1/leads?email=jane@example.com')).body.totalCount).toBe(1);
  });

  it('creates the lead when the lead holding the matched email gives it up before the upsert writes, and leaves that lead as it is', async () => {
    const { client } = await api.organization();
    const lead = (await client.post('/v1/leads', { name: 'Jane Citizen', email: 'jane@example.com' })).body.lead;
    const hold = holdWrite(/Glebe/);
    const upsert = client.post('/v1/leads/upsert', { match: 'email', email: 'jane@example.com', name: 'Jane Citizen', suburb: 'Glebe' });
    await hold.reached;
    expect((await client.patch(`/v1/leads/${lead.id}`, { email: 'jane.old@example.com' })).status).toBe(200);
    hold.release();
    const res = await upsert;
    expect(res.status).toBe(201);
    expect(res.body.lead).toMatchObject({ email: 'jane@example.com', suburb: 'Glebe' });
    expect(res.body.lead.id).not.toBe(lead.id);
    expect((await client.get(`/v1/leads/${lead.id}`)).body.lead).toMatchObject({ email: 'jane.old@example.com', suburb: null });
  });
});

describe('POST /v1/leads/upsert renaming a lead by name', () => {
  it('splits name as a create does: a one-word name leaves no last name, and the lead is no longer found by its old one', async () => {
    const { client } = await api.organization();
    const jane = (await client.post('/v1/leads', { name: 'Jane Smith', email: 'jane@example.com' })).body.lead.id;
    // A create with this body would answer firstName Cher, lastName null.
    const created = await client.post('/v1/leads', { name: 'Cher', email: 'cher@example.com' });
    expect(created.body.lead).toMatchObject({ firstName: 'Cher', lastName: null });

    const upserted = await client.post('/v1/leads/upsert', { match: 'email', email: 'jane@example.com', name: 'Cher' });
    expect(upserted.status).toBe(200);
    expect(upserted.body).toMatchObject({ created: false, lead: { id: jane, firstName: 'Cher', lastName: null } });
    expect((await client.get('/v1/leads?q=smith')).body.totalCount).toBe(0);
    expect((await client.get('/v1/leads?q=cher')).body.totalCount).toBe(2);
  });
});
