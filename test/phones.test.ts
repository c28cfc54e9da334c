import { getCountries, parsePhoneNumberFromString } from 'libphonenumber-js/min';
import minMetadata from 'libphonenumber-js/min/metadata';
import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES } from '#shared/countries';
import { withoutFormats } from '#shared/phone-metadata';
import { parsePhoneNumberFromString as parseWithPlans } from '#shared/phone-plans';
import { useTestApi, type Client } from './support/api';
import { assertFetchMatchesDocument } from './support/contract';
import { leadOf } from './support/fixtures';

const api = useTestApi();

/** A phone as people type it in each form, and the E.164 number an Australian organization stores. */
const AUSTRALIAN = [
  ['0412 000 222', '+61412000222'],
  ['(02) 9555 1234', '+61295551234'],
] as const;

const call = {
  summary: 'Burst pipe under the kitchen sink.',
  keyPoints: ['Burst pipe'],
  recordingUrl: null,
  transcripts: [],
  direction: 'LEAD_TO_AI',
  duration: 95,
  startedAt: '2026-11-20T09:00:00.000Z',
  endedAt: '2026-11-20T09:01:35.000Z',
  endedBy: 'user',
};

/** Every write that takes a phone, each answering the phone it stored. */
const WRITES: Array<[string, (client: Client, phone: string) => Promise<string | undefined>]> = [
  ['POST /v1/leads', async (client, phone) => (await client.post('/v1/leads', { name: 'Ava Chen', phone })).body.lead?.phone],
  [
    'PATCH /v1/leads/{leadId}',
    async (client, phone) => {
      const { id } = (await client.post('/v1/leads', { name: 'Ava Chen', email: 'ava@example.com' })).body.lead;
      return (await client.patch(`/v1/leads/${id}`, { phone })).body.lead?.phone;
    },
  ],
  ['POST /v1/leads/upsert', async (client, phone) => (await client.post('/v1/leads/upsert', { match: 'phone', phone, name: 'Ava Chen' })).body.lead?.phone],
  [
    'POST /v1/inquiries (a logged call)',
    async (client, phone) => {
      const res = await client.post('/v1/inquiries', { source: 'CALL', lead: { phone, name: 'Ava Chen' }, data: call });
      return res.status === 201 ? (await leadOf(client, res.body.inquiry.leadId)).phone : undefined;
    },
  ],
  [
    'POST /v1/inbound/{id} (a CALL endpoint)',
    async (client, phone) => {
      const { url } = (await client.post('/v1/inbound-endpoints', { name: 'Voice receptionist', source: 'CALL' })).body.inboundEndpoint;
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ lead: { phone, name: 'Ava Chen' }, data: call }) });
      await assertFetchMatchesDocument('POST', url, res);
      const body = (await res.json()) as { inquiry?: { leadId: string } };
      return res.status === 201 ? (await leadOf(client, body.inquiry!.leadId)).phone : undefined;
    },
  ],
  ['POST /v1/companies', async (client, phone) => (await client.post('/v1/companies', { name: 'Harbourside Strata', phone })).body.company?.phone],
  [
    'POST /v1/transfers',
    async (client, phone) =>
      (await client.post('/v1/transfers', { label: 'Urgent', method: 'COLD', destinationType: 'PHONE_NUMBER', destination: phone, conditions: 'Burst pipes' })).body.transfer?.destination,
  ],
];

describe('phones as people type them', () => {
  it.each(WRITES)('%s stores a national form read in the organization’s country (Australia by default) as E.164', async (_, write) => {
    for (const [typed, e164] of AUSTRALIAN) {
      const { client } = await api.organization();
      expect([typed, await write(client, typed)]).toEqual([typed, e164]);
    }
  });

  it.each(WRITES)('%s keeps an E.164 number as sent', async (_, write) => {
    const { client } = await api.organization();
    expect(await write(client, '+64211234567')).toBe('+64211234567');
  });

  it('reads a New Zealand or United States organization’s own national forms, and a number found by one form is found by the others', async () => {
    const cases = [
      ['NZ', '021 123 4567', '+64211234567'],
      ['NZ', '(09) 555 1234', '+6495551234'],
      ['US', '(415) 555-2671', '+14155552671'],
      ['US', '212.555.0123', '+12125550123'],
    ] as const;
    for (const [country, typed, e164] of cases) {
      const { client } = await api.organization();
      expect((await client.patch('/v1/organization', { country })).body.organization.country).toBe(country);
      const created = await client.post('/v1/leads', { name: 'Kiri Walker', phone: typed });
      expect([country, typed, created.status, created.body.lead.phone]).toEqual([country, typed, 201, e164]);
      // Upsert, search and the caller lookup read the same number from its E.164 form.
      const upserted = await client.post('/v1/leads/upsert', { match: 'phone', phone: e164, suburb: 'Ponsonby' });
      expect([upserted.status, upserted.body.lead.id]).toEqual([200, created.body.lead.id]);
      expect((await client.get(`/v1/leads?phone=${encodeURIComponent(typed)}`)).body.totalCount).toBe(1);
      expect((await client.get(`/v1/callers/${encodeURIComponent(typed)}`)).body.caller.lead.id).toBe(created.body.lead.id);
    }
  });

  it('reads an Australian national form as another country’s number once the organization changes country', async () => {
    const { client } = await api.organization();
    // 0412 000 222 is a mobile in Australia and no number in the United States.
    expect((await client.post('/v1/leads', { name: 'Ava Chen', phone: '0412 000 222' })).body.lead.phone).toBe('+61412000222');
    await client.patch('/v1/organization', { country: 'US' });
    const refused = await client.post('/v1/leads', { name: 'Sam Lee', phone: '0412 000 222' });
    expect([refused.status, refused.body.error.details[0].path]).toEqual([400, 'phone']);
    expect((await client.post('/v1/leads', { name: 'Sam Lee', phone: '(415) 555-2671' })).body.lead.phone).toBe('+14155552671');
  });

  it.each([
    ['POST /v1/leads', (client: Client) => client.post('/v1/leads', { name: 'Ava Chen', phone: '0412 000' }), 'phone'],
    ['POST /v1/leads/upsert', (client: Client) => client.post('/v1/leads/upsert', { match: 'phone', phone: '+61 1234 5', name: 'Ava Chen' }), 'phone'],
    ['POST /v1/inquiries', (client: Client) => client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '(02) 9555', name: 'Ava Chen' }, data: call }), 'lead.phone'],
    ['POST /v1/companies', (client: Client) => client.post('/v1/companies', { name: 'Harbourside Strata', phone: '+1 555 555 5555' }), 'phone'],
    [
      'POST /v1/transfers',
      (client: Client) => client.post('/v1/transfers', { label: 'Urgent', method: 'COLD', destinationType: 'PHONE_NUMBER', destination: '1234567', conditions: 'Burst pipes' }),
      'destination',
    ],
  ])('%s answers 400 naming the field for a number no plan has, and writes nothing', async (_, send, field) => {
    const { client } = await api.organization();
    const res = await send(client);
    expect([res.status, res.body.error?.details?.[0]?.path]).toEqual([400, field]);
    expect((await client.get('/v1/leads')).body.totalCount).toBe(0);
    expect((await client.get('/v1/companies')).body.totalCount).toBe(0);
    expect((await client.get('/v1/transfers')).body.totalCount).toBe(0);
  });

  it('PATCH of a lead refuses a number no plan has and keeps the lead’s phone', async () => {
    const { client } = await api.organization();
    const { id } = (await client.post('/v1/leads', { name: 'Ava Chen', phone: '0412 000 222' })).body.lead;
    const res = await client.patch(`/v1/leads/${id}`, { phone: '0412 000' });
    expect([res.status, res.body.error.details[0].path]).toEqual([400, 'phone']);
    expect((await leadOf(client, id)).phone).toBe('+61412000222');
  });
});

describe('the organization’s country', () => {
  it('is AU until set; PATCH takes an ISO 3166-1 alpha-2 code in any case and answers it upper case', async () => {
    const { client } = await api.organization();
    expect((await client.get('/v1/organization')).body.organization.country).toBe('AU');
    expect((await client.patch('/v1/organization', { country: 'nz' })).body.organization.country).toBe('NZ');
    expect((await client.get('/v1/organization')).body.organization.country).toBe('NZ');
  });

  it('takes every country the numbering plans know, and only those: the list a schema checks is the plans’ own', async () => {
    expect([...COUNTRY_CODES].sort()).toEqual([...getCountries()].sort());
    const { client } = await api.organization();
    for (const country of ['GB', 'SG', 'ZW']) expect((await client.patch('/v1/organization', { country })).body.organization.country).toBe(country);
  });

  it.each(['XX', 'NZL', 'A', '', 'ZZ', 42])('answers 400 naming country for %j, and keeps the country', async (country) => {
    const { client } = await api.organization();
    const res = await client.patch('/v1/organization', { country });
    expect([res.status, res.body.error?.details?.[0]?.path]).toEqual([400, 'country']);
    expect((await client.get('/v1/organization')).body.organization.country).toBe('AU');
  });
});

describe('the numbering plans the functions load at their first number', () => {
  it('read every country’s numbers as the library’s min metadata does, carrying none of its formats for display', async () => {
    const plans = withoutFormats(minMetadata);
    // Formats are most of the metadata: what the first phone read of a function no longer parses.
    expect(JSON.stringify(plans).length).toBeLessThan(JSON.stringify(minMetadata).length * 0.45);
    expect(Object.keys(plans.countries).sort()).toEqual(Object.keys(minMetadata.countries).sort());
    // The same answer for every country, in national and international forms, valid and not (a seeded sequence of digits).
    let seed = 54;
    const digits = (count: number) => Array.from({ length: count }, () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31), seed % 10)).join('');
    const read = (number: ReturnType<typeof parsePhoneNumberFromString>) => (number ? `${number.number} ${number.isValid()}` : 'none');
    let valid = 0;
    for (const country of getCountries()) {
      const callingCode = minMetadata.countries[country]![0];
      for (const text of [`0${digits(9)}`, digits(8), digits(10), `+${callingCode}${digits(9)}`, `+${callingCode} ${digits(8)}`, `00${callingCode}${digits(9)}`]) {
        const expected = read(parsePhoneNumberFromString(text, { defaultCountry: country }));
        expect(read(await parseWithPlans(text, { defaultCountry: country })), `${text} in ${country}`).toBe(expected);
        if (expected.endsWith('true')) valid++;
      }
    }
    // The sequence reaches valid numbers of many plans, not only refusals.
    expect(valid).toBeGreaterThan(200);
  });
});
