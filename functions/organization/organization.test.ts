import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';

const api = useTestApi();

describe('GET /v1/organization', () => {
  it('answers the organization of the key with its counts, in one call', async () => {
    const { client, organizationId, demo } = await api.demoOrganization();
    let body: any;
    const calls = await countDynamoCalls(async () => {
      body = (await client.get('/v1/organization')).body;
    });
    expect(calls).toEqual(['BatchGetItemCommand']);
    expect(body.organization).toEqual({
      id: organizationId,
      name: expect.stringMatching(/^Test organization/),
      timezone: 'Australia/Sydney',
      country: 'AU',
      currency: 'AUD',
      smsSenderId: null,
      businessHours: expect.objectContaining({ monday: [{ open: '07:00', close: '17:00' }] }),
      closedDates: expect.arrayContaining(['2026-12-25']),
      automationSmsDailyCap: 3,
      ownerAlertsSms: true,
      createdAt: expect.any(String),
      counts: { leads: (demo!.leadIds as string[]).length, members: (demo!.memberIds as number[]).length, services: (demo!.serviceIds as number[]).length },
      isOpenNow: expect.any(Boolean),
      closesAt: body.organization.isOpenNow ? expect.stringMatching(/Z$/) : null,
      nextOpenAt: body.organization.isOpenNow ? null : expect.stringMatching(/Z$/),
    });
  });

  it('counts what the organization creates through the API, starting from zero', async () => {
    const { client } = await api.organization();
    expect((await client.get('/v1/organization')).body.organization).toMatchObject({ timezone: 'UTC', counts: { leads: 0, members: 0, services: 0 } });
    await client.post('/v1/leads', { name: 'Sam Lee', email: 'sam@example.com' });
    await client.post('/v1/organization/members', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' });
    await client.post('/v1/organization/invitations', { email: 'liam@example.com' });
    expect((await client.get('/v1/organization')).body.organization.counts).toEqual({ leads: 1, members: 1, services: 0 });
  });
});

describe('PATCH /v1/organization', () => {
  it('changes the name, time zone and SMS sender identity, and null clears the sender', async () => {
    const { client } = await api.organization();
    const res = await client.patch('/v1/organization', { name: ' Harbour City Trades ', timezone: 'Australia/Perth', smsSenderId: 'HarbourCity' });
    expect(res.status).toBe(200);
    expect(res.body.organization).toMatchObject({ name: 'Harbour City Trades', timezone: 'Australia/Perth', smsSenderId: 'HarbourCity' });
    expect((await client.get('/v1/organization')).body).toEqual(res.body);
    expect((await client.patch('/v1/organization', { smsSenderId: '+61400000000' })).body.organization.smsSenderId).toBe('+61400000000');
    expect((await client.patch('/v1/organization', { smsSenderId: null })).body.organization.smsSenderId).toBeNull();
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['a time zone that is not IANA', { timezone: 'AEST' }, 'timezone'],
    ['an offset instead of a zone', { timezone: '+10:00' }, 'timezone'],
    ['a sender id that is too long', { smsSenderId: 'HarbourCityTrades' }, 'smsSenderId'],
    ['a sender id of digits that is no number of the organization’s country', { smsSenderId: '0400' }, 'smsSenderId'],
    ['a number no numbering plan has', { smsSenderId: '+61 2 9999' }, 'smsSenderId'],
    ['a sender id with a space', { smsSenderId: 'Harbour Plb' }, 'smsSenderId'],
    ['a sender id with a hyphen', { smsSenderId: 'Harbour-Plb' }, 'smsSenderId'],
    ['a sender id with a letter outside A-Z', { smsSenderId: 'Zürich' }, 'smsSenderId'],
    ['a sender id of spaces', { smsSenderId: '   ' }, 'smsSenderId'],
    ['an empty sender id', { smsSenderId: '' }, 'smsSenderId'],
    ['a blank name', { name: ' ' }, 'name'],
    ['an automation SMS daily cap of 0', { automationSmsDailyCap: 0 }, 'automationSmsDailyCap'],
    ['an automation SMS daily cap of 21', { automationSmsDailyCap: 21 }, 'automationSmsDailyCap'],
    ['an automation SMS daily cap that is not whole', { automationSmsDailyCap: 2.5 }, 'automationSmsDailyCap'],
    ['an automation SMS daily cap as text', { automationSmsDailyCap: '3' }, 'automationSmsDailyCap'],
    ['no automation SMS daily cap', { automationSmsDailyCap: null }, 'automationSmsDailyCap'],
    ['an unknown field', { plan: 'pro' }, 'plan'],
  ])('answers 400 for %s, naming the field, and changes nothing', async (_, body, field) => {
    const { client } = await api.organization();
    const before = (await client.get('/v1/organization')).body;
    const res = await client.patch('/v1/organization', body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
    expect((await client.get('/v1/organization')).body).toEqual(before);
  });

  it('caps the SMS its automations send one lead a day at 3 until changed, to anything from 1 to 20', async () => {
    const { client } = await api.organization();
    expect((await client.get('/v1/organization')).body.organization.automationSmsDailyCap).toBe(3);
    for (const cap of [1, 20, 5]) {
      const res = await client.patch('/v1/organization', { automationSmsDailyCap: cap });
      expect(res.status).toBe(200);
      expect(res.body.organization.automationSmsDailyCap).toBe(cap);
    }
    expect((await client.get('/v1/organization')).body.organization.automationSmsDailyCap).toBe(5);
  });

  it.each(['HarbourCity', 'A', '1Plumber', 'PLUMBER2024', '+61400000000', '+12025550123'])('accepts %s as smsSenderId: 1 to 11 letters and digits with a letter, or E.164', async (smsSenderId) => {
    const { client } = await api.organization();
    const res = await client.patch('/v1/organization', { smsSenderId: ` ${smsSenderId} ` });
    expect(res.status).toBe(200);
    expect(res.body.organization.smsSenderId).toBe(smsSenderId);
  });

  it.each([
    // A number belongs to one organization (replies come back to it): each case has its own.
    ['+61 2 9999 0620', '+61299990620'],
    ['+61 (0)2 9999 0621', '+61299990621'],
    ['(02) 9999-0622', '+61299990622'],
    ['0412 345 604', '+61412345604'],
    ['+1 (202) 555-0124', '+12025550124'],
  ])('takes the number %s as smsSenderId as every phone field takes it, and stores it in E.164', async (typed, e164) => {
    const { client } = await api.organization();
    const res = await client.patch('/v1/organization', { smsSenderId: typed });
    expect(res.status).toBe(200);
    expect(res.body.organization.smsSenderId).toBe(e164);
    expect((await client.get('/v1/organization')).body.organization.smsSenderId).toBe(e164);
  });

  it('reads a national smsSenderId in the country the same PATCH sets', async () => {
    const { client } = await api.organization();
    const res = await client.patch('/v1/organization', { country: 'US', smsSenderId: '(202) 555-0125' });
    expect(res.status).toBe(200);
    expect(res.body.organization.smsSenderId).toBe('+12025550125');
  });

  it('names smsSenderId and the rule in the 400 for a sender id with a space', async () => {
    const { client } = await api.organization();
    const res = await client.patch('/v1/organization', { smsSenderId: 'Harbour Plb' });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('smsSenderId must be a phone number (+61 2 9999 0620, or national in the organization’s country) or a sender id of 1 to 11 letters and digits with at least one letter');
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_ERROR', details: [{ path: 'smsSenderId' }] });
  });

  it("changes only the key's own organization", async () => {
    const other = await api.organization();
    const before = (await other.client.get('/v1/organization')).body;
    const { client } = await api.organization();
    await client.patch('/v1/organization', { name: 'Renamed' });
    expect((await other.client.get('/v1/organization')).body).toEqual(before);
  });
});

describe('PATCH /v1/organization timezone', () => {
  it.each(['Asia/Kolkata', 'Europe/Kyiv', 'Asia/Ho_Chi_Minh', 'Asia/Kathmandu', 'Etc/UTC'])('takes the IANA zone %s, whether or not the runtime lists it as canonical, and reads it back', async (timezone) => {
    const { client } = await api.organization();
    const res = await client.patch('/v1/organization', { timezone });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.organization.timezone).toBe(timezone);
    expect((await client.get('/v1/organization')).body.organization.timezone).toBe(timezone);
    expect((await client.get('/v1/receptionist/context')).body.organization.timezone).toBe(timezone);
  });

  it.each(['asia/kolkata', 'Mars/Olympus', '+05:30', 'Asia/Kolkata/'])('refuses %s, naming timezone', async (timezone) => {
    const { client } = await api.organization();
    const res = await client.patch('/v1/organization', { timezone });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'timezone', message: 'timezone must be an IANA time zone, e.g. Australia/Sydney' }]);
  });
});

describe('the summaries of the organization’s PATCH operations', () => {
  it.each([
    ['/v1/organization', 'updateOrganization'],
    ['/v1/organization/members/{memberId}', 'updateOrganizationMember'],
  ])('name every field %s takes', async (path, operationId) => {
    const document = (await api.anonymous.get('/openapi')).body;
    const operation = document.paths[path].patch;
    expect(operation.operationId).toBe(operationId);
    const body = operation.requestBody.content['application/json'].schema;
    const schema = body.$ref ? document.components.schemas[body.$ref.split('/').pop()] : body;
    const fields = Object.keys(schema.properties);
    expect(fields.length).toBeGreaterThan(3);
    for (const field of fields) expect(operation.summary, field).toMatch(new RegExp(`\\b${field}\\b`));
  });
});
