import { describe, expect, it } from 'vitest';
import { useTestApi, type Client } from '../../test/support/api';
import { measureDynamoCalls } from '../../test/support/dynamo-calls';
import { everyDay, utcDate } from '../../test/support/fixtures';

/** Transfer rules as a voice agent uses them during a call: which can take the call now, and where it goes. */

const api = useTestApi();

const OPEN_ALL_DAY = everyDay([{ open: '00:00', close: '24:00' }]);

const rule = (label: string, extra: Record<string, unknown> = {}) => ({
  label,
  method: 'WARM',
  destinationType: 'PHONE_NUMBER',
  destination: '+61298765432',
  conditions: 'Burst pipe or flooding.',
  summaryFormat: 'Caller {name} is calling about {topic}. Summary: {summary}',
  ...extra,
});

async function rules(client: Client) {
  const create = async (body: Record<string, unknown>) => (await client.post('/v1/transfers', body)).body.transfer.id as number;
  return {
    office: await create(rule('Office hours')),
    emergency: await create(rule('Emergencies', { settings: { ignore_business_hours: true } })),
    disabled: await create(rule('Retired', { isEnabled: false, settings: { ignore_business_hours: true } })),
  };
}

const listed = async (client: Client, query: string) => (await client.get(`/v1/transfers?${query}`)).body.transfers.map((transfer: { id: number }) => transfer.id).sort();

describe('GET /v1/transfers?availableNow=', () => {
  it('while open: every enabled rule; while closed: only those that ignore business hours; false the others', async () => {
    const { client } = await api.organization();
    const { office, emergency, disabled } = await rules(client);
    await client.patch('/v1/organization', { timezone: 'UTC', businessHours: OPEN_ALL_DAY });
    expect(await listed(client, 'availableNow=true')).toEqual([office, emergency].sort());
    expect(await listed(client, 'availableNow=false')).toEqual([disabled]);
    await client.patch('/v1/organization', { closedDates: [utcDate(0), utcDate(1)] });
    expect(await listed(client, 'availableNow=true')).toEqual([emergency]);
    expect(await listed(client, 'availableNow=false')).toEqual([office, disabled].sort());
    const page = (await client.get('/v1/transfers?availableNow=true')).body;
    expect(page.totalCount).toBe(1);
    expect(page.transfers[0].conditions).toBe('Burst pipe or flooding.');
  });

  it('holds no rule back while the organization has set no hours', async () => {
    const { client } = await api.organization();
    const { office, emergency } = await rules(client);
    expect(await listed(client, 'availableNow=true')).toEqual([office, emergency].sort());
  });

  it('answers 400 naming availableNow for a value that is not a boolean', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/transfers?availableNow=yes');
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('availableNow');
  });
});

describe('POST /v1/transfers/{transferId}/resolve', () => {
  const call = { name: 'Olivia Nguyen', topic: 'a burst pipe', summary: 'Water is coming through the kitchen ceiling.' };

  it('answers the destination and the summary filled from the call, reading the rule and the hours together', async () => {
    const { client } = await api.organization();
    const { office } = await rules(client);
    await client.patch('/v1/organization', { timezone: 'UTC', businessHours: OPEN_ALL_DAY });
    let res: any;
    const calls = await measureDynamoCalls(async () => {
      res = await client.post(`/v1/transfers/${office}/resolve`, call);
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      transfer: {
        transferId: office,
        destination: '+61298765432',
        destinationType: 'PHONE_NUMBER',
        method: 'WARM',
        summary: 'Caller Olivia Nguyen is calling about a burst pipe. Summary: Water is coming through the kitchen ceiling.',
      },
    });
    expect(calls.map((c) => c.command).sort()).toEqual(['GetItemCommand', 'GetItemCommand']);
    expect(calls[1]!.sentAt < calls[0]!.answeredAt, 'the two reads are sent together').toBe(true);
  });

  it('answers 409 OUTSIDE_BUSINESS_HOURS naming when the business next opens, unless the rule ignores hours', async () => {
    const { client } = await api.organization();
    const { office, emergency } = await rules(client);
    await client.patch('/v1/organization', { timezone: 'UTC', businessHours: OPEN_ALL_DAY, closedDates: [utcDate(0), utcDate(1)] });
    const closed = await client.post(`/v1/transfers/${office}/resolve`, call);
    expect(closed.status).toBe(409);
    expect(closed.body.error).toMatchObject({ code: 'OUTSIDE_BUSINESS_HOURS', details: [{ path: 'nextOpenAt', message: `${utcDate(2)}T00:00:00.000Z` }] });
    expect((await client.post(`/v1/transfers/${emergency}/resolve`, call)).status).toBe(200);
  });

  it('answers 409 TRANSFER_DISABLED for a disabled rule, 404 for an unknown one, 400 naming a missing field', async () => {
    const { client } = await api.organization();
    const { office, disabled } = await rules(client);
    expect((await client.post(`/v1/transfers/${disabled}/resolve`, call)).body.error.code).toBe('TRANSFER_DISABLED');
    expect((await client.post('/v1/transfers/999/resolve', call)).status).toBe(404);
    const missing = await client.post(`/v1/transfers/${office}/resolve`, { name: 'Olivia', topic: 'a leak' });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].path).toBe('summary');
  });
});
