import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { queryAll } from '#shared/store/query-page';
import { useTestApi } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { createService, ISO_MS } from '../../test/support/fixtures';

const api = useTestApi();
const CONTINUE_CALL = { type: 'continueCall', property1: null, property2: null };

const blockedDrain = {
  name: 'Blocked drain clearing',
  description: 'Clearing blocked sinks, toilets and stormwater drains',
  followUpQuestions: ['Which drain is blocked?', 'Is water overflowing right now?'],
  duration: 90,
  durationUnit: 'MINUTES',
  tradeCategoryId: 1,
  pricingType: 'NONE',
};

/** Every item of the organization's partition except id sequences, to show what a request wrote. */
async function storedItems(organizationId: string) {
  const items = await queryAll({ pk: `ORG#${organizationId}` });
  return items.filter((item) => !String(item.sk).startsWith('SEQ#') && !String(item.sk).startsWith('KEY#'));
}

describe('POST /v1/services', () => {
  it('answers 201 with every Service field and the nested scenario summary', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/services', blockedDrain);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      service: {
        id: 1,
        name: 'Blocked drain clearing',
        description: 'Clearing blocked sinks, toilets and stormwater drains',
        duration: 90,
        durationUnit: 'MINUTES',
        followUpQuestions: ['Which drain is blocked?', 'Is water overflowing right now?'],
        tradeCategoryId: 1,
        pricingType: 'NONE',
        price: null,
        hourlyRate: null,
        callOutFee: null,
        minPrice: null,
        maxPrice: null,
        plusGST: false,
        plusMaterials: false,
        isCustomPriceResponseActive: false,
        customPriceResponse: null,
        isDisclosePrice: false,
        isActive: true,
        teamAssignmentMethod: 'PRIORITY_ORDER',
        memberIds: [],
        scenario: {
          id: 1,
          response: expect.stringContaining('Blocked drain clearing'),
          questions: [
            { question: 'Which drain is blocked?', answerOptions: [] },
            { question: 'Is water overflowing right now?', answerOptions: [] },
          ],
          outcome: CONTINUE_CALL,
        },
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: res.body.service.createdAt,
      },
    });
  });

  it('echoes the pricing mode and every optional field it was given', async () => {
    const { client } = await api.organization();
    const body = {
      name: 'Switchboard upgrade',
      description: 'New board with RCDs',
      followUpQuestions: [],
      duration: 1,
      durationUnit: 'DAYS',
      tradeCategoryId: 2,
      pricingType: 'RANGE',
      minPrice: 1800,
      maxPrice: 3500.5,
      callOutFee: 0,
      plusGST: true,
      plusMaterials: true,
      isCustomPriceResponseActive: true,
      customPriceResponse: 'Every board is different; we quote after a site visit.',
      isDisclosePrice: true,
      isActive: false,
      teamAssignmentMethod: 'ROUND_ROBIN',
    };
    const res = await client.post('/v1/services', body);
    expect(res.status).toBe(201);
    const { scenario, id, createdAt, updatedAt, ...rest } = res.body.service;
    expect(rest).toEqual({ ...body, price: null, hourlyRate: null, memberIds: [] });
    expect(scenario).toEqual({ id: 1, response: expect.any(String), questions: [], outcome: CONTINUE_CALL });
  });

  it.each([
    ['FIXED', { price: 180 }],
    ['HOURLY', { hourlyRate: 135 }],
    ['CALL_OUT', { callOutFee: 99 }],
  ])('accepts pricingType %s with its price and echoes both', async (pricingType, price) => {
    const { client } = await api.organization();
    const res = await client.post('/v1/services', { ...blockedDrain, pricingType, ...price });
    expect(res.status).toBe(201);
    expect(res.body.service).toMatchObject({ pricingType, ...price });
  });

  it('needs only name, duration, durationUnit and tradeCategoryId, and fills the defaults', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/services', { name: '  Power point installation  ', duration: 1, durationUnit: 'HOURS', tradeCategoryId: 2 });
    expect(res.status).toBe(201);
    expect(res.body.service).toMatchObject({
      name: 'Power point installation',
      description: '',
      followUpQuestions: [],
      pricingType: 'NONE',
      isActive: true,
      teamAssignmentMethod: 'PRIORITY_ORDER',
      scenario: { questions: [], outcome: CONTINUE_CALL },
    });
  });

  it.each([
    ['a missing name', { name: undefined }, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a name of the wrong type', { name: 42 }, 'name'],
    ['tradeCategoryId 0', { tradeCategoryId: 0 }, 'tradeCategoryId'],
    ['tradeCategoryId 13', { tradeCategoryId: 13 }, 'tradeCategoryId'],
    ['tradeCategoryId "x"', { tradeCategoryId: 'x' }, 'tradeCategoryId'],
    ['tradeCategoryId as a numeric string', { tradeCategoryId: '1' }, 'tradeCategoryId'],
    ['a missing tradeCategoryId', { tradeCategoryId: undefined }, 'tradeCategoryId'],
    ['a non-integer duration', { duration: 1.5 }, 'duration'],
    ['a duration given as a string', { duration: '90' }, 'duration'],
    ['a missing duration', { duration: undefined }, 'duration'],
    ['a zero duration', { duration: 0 }, 'duration'],
    ['an unknown durationUnit', { durationUnit: 'WEEKS' }, 'durationUnit'],
    ['an unknown pricingType', { pricingType: 'FREE' }, 'pricingType'],
    ['followUpQuestions that is not an array', { followUpQuestions: 'Which drain?' }, 'followUpQuestions'],
    ['a follow-up question that is not a string', { followUpQuestions: ['ok', 7] }, 'followUpQuestions.1'],
    ['an unknown field', { colour: 'blue' }, 'colour'],
    ['a negative price', { pricingType: 'FIXED', price: -5 }, 'price'],
    ['a price given as a string', { hourlyRate: '120' }, 'hourlyRate'],
    ['FIXED without price', { pricingType: 'FIXED' }, 'price'],
    ['HOURLY without hourlyRate', { pricingType: 'HOURLY' }, 'hourlyRate'],
    ['CALL_OUT without callOutFee', { pricingType: 'CALL_OUT' }, 'callOutFee'],
    ['RANGE without maxPrice', { pricingType: 'RANGE', minPrice: 100 }, 'maxPrice'],
    ['RANGE with minPrice above maxPrice', { pricingType: 'RANGE', minPrice: 500, maxPrice: 100 }, 'maxPrice'],
    ['a boolean of the wrong type', { isActive: 'yes' }, 'isActive'],
    ['an unknown teamAssignmentMethod', { teamAssignmentMethod: 'RANDOM' }, 'teamAssignmentMethod'],
    ['an active custom price response without its text', { isCustomPriceResponseActive: true }, 'customPriceResponse'],
  ])('answers 400 naming the field for %s, and writes nothing', async (_, change, field) => {
    const { client, organizationId } = await api.organization();
    const res = await client.post('/v1/services', { ...blockedDrain, ...change });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ success: false, error: { status: 400, code: 'VALIDATION_ERROR' } });
    expect(res.body.message).toContain(field);
    expect(res.body.error.details[0].path).toBe(field);
    expect(await storedItems(organizationId)).toEqual([
      expect.objectContaining({ sk: 'ORGANIZATION' }),
    ]);
  });

  it('answers 400 for a malformed or missing body', async () => {
    const { client } = await api.organization();
    expect((await client.post('/v1/services', undefined, { rawBody: '{"name":', headers: { 'content-type': 'application/json' } })).status).toBe(400);
    expect((await client.post('/v1/services')).status).toBe(400);
  });

  it.each([
    ['the same name', 'Blocked drain clearing'],
    ['a name differing only in case', 'BLOCKED DRAIN CLEARING'],
    ['a name differing only in surrounding and inner space', '  Blocked   drain clearing '],
  ])('answers 409 for %s, and writes no service and no scenario', async (_, name) => {
    const { client, organizationId } = await api.organization();
    const first = await createService(client, blockedDrain);
    const before = await storedItems(organizationId);
    const res = await client.post('/v1/services', { ...blockedDrain, name, tradeCategoryId: 2 });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      message: `A service named "${name.trim()}" already exists`,
      error: { status: 409, message: `A service named "${name.trim()}" already exists`, code: 'CONFLICT' },
    });
    expect(await storedItems(organizationId)).toEqual(before);
    expect(before.filter((item) => String(item.sk).startsWith('SCENARIO#'))).toHaveLength(1);
    expect((await client.get('/v1/organization/services')).body).toMatchObject({ totalCategories: 1, totalServices: 1 });
    expect((await client.get('/v1/scenarios/2')).status).toBe(404);
    expect((await client.get('/v1/services/2')).status).toBe(404);
    expect((await client.get(`/v1/services/${first.id}`)).body.service.tradeCategoryId).toBe(1);
  });

  it('refuses a price finer than a cent, naming the field, instead of failing to store it', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/services', { ...blockedDrain, pricingType: 'HOURLY', hourlyRate: 2.5e-323 });
    expect(res.status).toBe(400);
    expect(res.body.error.details).toEqual([{ path: 'hourlyRate', message: 'hourlyRate must have at most 2 decimal places' }]);
    const cents = await client.post('/v1/services', { ...blockedDrain, pricingType: 'HOURLY', hourlyRate: 135.45 });
    expect(cents.status).toBe(201);
    expect(cents.body.service.hourlyRate).toBe(135.45);
  });

  it('lets two organizations use the same service name', async () => {
    const one = await api.organization();
    const two = await api.organization();
    expect((await one.client.post('/v1/services', blockedDrain)).status).toBe(201);
    const res = await two.client.post('/v1/services', blockedDrain);
    expect(res.status).toBe(201);
    expect(res.body.service.id).toBe(1);
  });

  it('costs the two id reservations and one transaction', async () => {
    const { client } = await api.organization();
    const calls = await countDynamoCalls(() => client.post('/v1/services', blockedDrain));
    expect(calls).toEqual(['UpdateItemCommand', 'UpdateItemCommand', 'TransactWriteItemsCommand']);
  });
});

describe('GET /v1/trade-categories', () => {
  it('answers the whole catalog in its order, as docs/trade-categories.md lists it, with no DynamoDB call', async () => {
    const { client } = await api.organization();
    let res: Awaited<ReturnType<typeof client.get>> | undefined;
    expect(await countDynamoCalls(async () => void (res = await client.get('/v1/trade-categories')))).toEqual([]);
    expect(res!.status).toBe(200);
    const table = [...readFileSync('docs/trade-categories.md', 'utf8').matchAll(/^\| (\d+) \| ([^|]+) \| (\w+) \|$/gm)].map(([, id, name, type]) => ({ id: Number(id), name: name!.trim(), type }));
    expect(table).toHaveLength(12);
    expect(res!.body).toEqual({ tradeCategories: table, totalCount: table.length });
    // Each one is a tradeCategoryId a service takes.
    const last = table.at(-1)!;
    expect((await client.post('/v1/services', { ...blockedDrain, tradeCategoryId: last.id })).status).toBe(201);
    const beyond = await client.post('/v1/services', { ...blockedDrain, name: 'Next', tradeCategoryId: last.id + 1 });
    expect(beyond.status).toBe(400);
    // The refusal names what a caller can act on: the valid ids and the route that lists them, not a file of the repository.
    expect(beyond.body.error.details).toEqual([{ path: 'tradeCategoryId', message: `tradeCategoryId must be a trade category id, ${table[0]!.id} to ${last.id}: GET /v1/trade-categories lists them` }]);
  });

  it('answers 401 without an API key', async () => {
    expect((await api.anonymous.get('/v1/trade-categories')).status).toBe(401);
  });
});

describe('a service’s memberIds', () => {
  it('keeps the members it is given, in order, and PATCH replaces them', async () => {
    const { client } = await api.organization();
    const [kate, dan] = [(await client.post('/v1/organization/members', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' })).body.member, (await client.post('/v1/organization/members', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo' })).body.member];
    const res = await client.post('/v1/services', { ...blockedDrain, memberIds: [dan.id, kate.id] });
    expect(res.status).toBe(201);
    expect(res.body.service.memberIds).toEqual([dan.id, kate.id]);
    expect((await client.get(`/v1/services/${res.body.service.id}`)).body.service.memberIds).toEqual([dan.id, kate.id]);
    const patched = await client.patch(`/v1/services/${res.body.service.id}`, { memberIds: [kate.id] });
    expect(patched.status).toBe(200);
    expect(patched.body.service.memberIds).toEqual([kate.id]);
    expect((await client.get(`/v1/services/${res.body.service.id}`)).body.service.memberIds).toEqual([kate.id]);
  });

  it("answers 400 naming each id that is no member of the organization's, on create and on update, and writes nothing", async () => {
    const { client } = await api.organization();
    const other = await api.organization();
    for (const n of [1, 2, 3]) await other.client.post('/v1/organization/members', { email: `other${n}@example.com`, firstName: 'Other', lastName: `Person${n}` });
    const kate = (await client.post('/v1/organization/members', { email: 'kate@example.com', firstName: 'Kate', lastName: 'Ng' })).body.member;
    const refused = await client.post('/v1/services', { ...blockedDrain, memberIds: [kate.id, 3, 2] });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details).toEqual([
      { path: 'memberIds.1', message: 'memberIds.1: 3 is not a member of the organization' },
      { path: 'memberIds.2', message: 'memberIds.2: 2 is not a member of the organization' },
    ]);
    expect((await client.get('/v1/services')).body.totalCount).toBe(0);
    const service = (await client.post('/v1/services', blockedDrain)).body.service;
    expect(service.id).toBe(1);
    const patched = await client.patch(`/v1/services/${service.id}`, { memberIds: [2], name: 'Renamed' });
    expect(patched.status).toBe(400);
    expect(patched.body.error.details).toEqual([{ path: 'memberIds.0', message: 'memberIds.0: 2 is not a member of the organization' }]);
    expect((await client.get(`/v1/services/${service.id}`)).body.service).toEqual(service);
  });

  it.each([
    ['a repeated member', { memberIds: [1, 1] }, 'memberIds'],
    ['an id that is not an integer', { memberIds: [1.5] }, 'memberIds.0'],
    ['a list that is not an array', { memberIds: 1 }, 'memberIds'],
    // Each member named anew is checked in the write's own transaction, whose 100 items hold 90 of them and the service's writes.
    ['more than 90 members', { memberIds: Array.from({ length: 91 }, (_, i) => i + 1) }, 'memberIds'],
  ])('answers 400 for %s, naming it', async (_, fields, path) => {
    const { client } = await api.organization();
    const res = await client.post('/v1/services', { ...blockedDrain, ...fields });
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(path);
  });
});

describe('GET /v1/services/{serviceId}', () => {
  it('answers the service as created, with its scenario summary', async () => {
    const { client } = await api.organization();
    const created = await client.post('/v1/services', { ...blockedDrain, pricingType: 'FIXED', price: 220 });
    const res = await client.get(`/v1/services/${created.body.service.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
  });

  it('reads the demo services with one GetItem', async () => {
    const { client, demo } = await api.demoOrganization();
    const [serviceId] = demo?.serviceIds as number[];
    const calls = await countDynamoCalls(async () => {
      const res = await client.get(`/v1/services/${serviceId}`);
      expect(res.status).toBe(200);
      expect(res.body.service.scenario.id).toBe((demo?.scenarioIds as number[])[0]);
    });
    expect(calls).toEqual(['GetItemCommand']);
  });

  it.each(['abc', '1.5', '0', '-1'])('answers the service id %s as an unknown service: 404', async (id) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/services/${id}`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Service not found');
  });

  it('answers 404 for an unknown service', async () => {
    const { client } = await api.demoOrganization();
    const res = await client.get('/v1/services/999');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Service not found', error: { status: 404, message: 'Service not found', code: 'NOT_FOUND' } });
  });

  it("answers 404 for a service of another organization", async () => {
    const owner = await api.organization();
    const other = await api.organization();
    const service = await createService(owner.client, blockedDrain);
    expect((await other.client.get(`/v1/services/${service.id}`)).status).toBe(404);
    expect((await owner.client.get(`/v1/services/${service.id}`)).status).toBe(200);
  });
});

describe('GET /v1/scenarios/{scenarioId}', () => {
  it('answers the full scenario linked to its service', async () => {
    const { client } = await api.organization();
    await createService(client, { name: 'Gutter clean', duration: 2, durationUnit: 'HOURS', tradeCategoryId: 5 });
    const service = await createService(client, blockedDrain);
    const res = await client.get(`/v1/scenarios/${service.scenario.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      scenario: {
        id: 2,
        name: 'Blocked drain clearing',
        prompt: expect.stringContaining('Blocked drain clearing'),
        response: service.scenario.response,
        isActive: true,
        questions: service.scenario.questions,
        outcome: CONTINUE_CALL,
        tradeServiceId: service.id,
        createdAt: service.createdAt,
        updatedAt: service.createdAt,
      },
    });
    expect(service.id).toBe(2);
  });

  it('reads with one GetItem', async () => {
    const { client, demo } = await api.demoOrganization();
    const calls = await countDynamoCalls(() => client.get(`/v1/scenarios/${(demo?.scenarioIds as number[])[0]}`));
    expect(calls).toEqual(['GetItemCommand']);
  });

  it.each(['abc', '2.0', '0'])('answers the scenario id %s as an unknown scenario: 404', async (id) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/scenarios/${id}`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Scenario not found');
  });

  it('answers 404 for an unknown scenario', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/scenarios/1');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Scenario not found', error: { status: 404, message: 'Scenario not found', code: 'NOT_FOUND' } });
  });

  it('answers 404 for a scenario of another organization', async () => {
    const owner = await api.demoOrganization();
    const other = await api.organization();
    const scenarioId = (owner.demo?.scenarioIds as number[])[0];
    expect((await other.client.get(`/v1/scenarios/${scenarioId}`)).status).toBe(404);
    expect((await owner.client.get(`/v1/scenarios/${scenarioId}`)).status).toBe(200);
  });
});

describe('GET /v1/organization/services', () => {
  it('groups the demo services under the trade categories that have services, in catalog order', async () => {
    const { client } = await api.demoOrganization();
    const res = await client.get('/v1/organization/services');
    expect(res.status).toBe(200);
    expect(res.body.totalCategories).toBe(3);
    expect(res.body.totalServices).toBe(5);
    expect(
      res.body.categories.map((category: { id: number; name: string; type: string; services: Array<{ name: string }> }) => [
        category.id,
        category.name,
        category.type,
        category.services.map((service) => service.name),
      ]),
    ).toEqual([
      [1, 'Plumbing', 'SERVICE', ['Hot water system repair', 'Blocked drain clearing']],
      [2, 'Electrical', 'SERVICE', ['Power point installation', 'Switchboard upgrade']],
      [5, 'Roofing', 'SERVICE', ['Roof leak inspection']],
    ]);
  });

  it('shows each service with exactly the listing fields: the spec’s, then its duration unit and pricing', async () => {
    const { client } = await api.organization();
    const service = await createService(client, { ...blockedDrain, isActive: false, pricingType: 'CALL_OUT', callOutFee: 99, hourlyRate: 145, plusGST: true, isDisclosePrice: true });
    const res = await client.get('/v1/organization/services');
    expect(res.body).toEqual({
      categories: [
        {
          id: 1,
          name: 'Plumbing',
          type: 'SERVICE',
          services: [
            {
              id: service.id,
              name: 'Blocked drain clearing',
              description: 'Clearing blocked sinks, toilets and stormwater drains',
              duration: 90,
              followUpQuestions: ['Which drain is blocked?', 'Is water overflowing right now?'],
              tradeCategoryId: 1,
              createdAt: service.createdAt,
              isActive: false,
              durationUnit: 'MINUTES',
              pricingType: 'CALL_OUT',
              price: null,
              hourlyRate: 145,
              callOutFee: 99,
              minPrice: null,
              maxPrice: null,
              plusGST: true,
              plusMaterials: false,
              isCustomPriceResponseActive: false,
              customPriceResponse: null,
              isDisclosePrice: true,
            },
          ],
        },
      ],
      totalCategories: 1,
      totalServices: 1,
    });
  });

  it('answers no categories for an organization with no services', async () => {
    const { client } = await api.organization();
    const res = await client.get('/v1/organization/services');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ categories: [], totalCategories: 0, totalServices: 0 });
  });

  it("never lists another organization's services", async () => {
    const mine = await api.organization();
    await api.demoOrganization();
    await createService(mine.client, { name: 'Pest inspection', duration: 1, durationUnit: 'HOURS', tradeCategoryId: 9 });
    const res = await mine.client.get('/v1/organization/services');
    expect(res.body).toMatchObject({ totalCategories: 1, totalServices: 1 });
    expect(res.body.categories[0]).toMatchObject({ id: 9, name: 'Pest control', services: [{ name: 'Pest inspection' }] });
  });

  it('reads every service with one Query', async () => {
    const { client } = await api.demoOrganization();
    expect(await countDynamoCalls(() => client.get('/v1/organization/services'))).toEqual(['QueryCommand']);
  });
});

const hotWater = { name: 'Hot water system repair', duration: 2, durationUnit: 'HOURS', tradeCategoryId: 1, pricingType: 'HOURLY', hourlyRate: 135 };
const switchboard = { name: 'Switchboard upgrade', duration: 1, durationUnit: 'DAYS', tradeCategoryId: 2, pricingType: 'RANGE', minPrice: 1800, maxPrice: 3500, isActive: false };

describe('GET /v1/services', () => {
  it('lists every service in full, newest first, with the page fields, from one Query', async () => {
    const { client } = await api.organization();
    const first = await createService(client, blockedDrain);
    const second = await createService(client, hotWater);
    let res: any;
    expect(await countDynamoCalls(async () => (res = await client.get('/v1/services')))).toEqual(['QueryCommand']);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ services: [second, first], totalPages: 1, currentPage: 1, totalCount: 2, nextCursor: null });
  });

  it('filters by tradeCategoryId and isActive, counting exactly what passes the filters', async () => {
    const { client } = await api.organization();
    const drain = await createService(client, blockedDrain);
    const water = await createService(client, hotWater);
    const board = await createService(client, switchboard);
    const names = (body: { services: Array<{ name: string }> }) => body.services.map((service) => service.name);
    const plumbing = (await client.get('/v1/services?tradeCategoryId=1')).body;
    expect([names(plumbing), plumbing.totalCount]).toEqual([[water.name, drain.name], 2]);
    const inactive = (await client.get('/v1/services?isActive=false')).body;
    expect([names(inactive), inactive.totalCount]).toEqual([[board.name], 1]);
    const activeElectrical = (await client.get('/v1/services?tradeCategoryId=2&isActive=true')).body;
    expect(activeElectrical).toMatchObject({ services: [], totalCount: 0, totalPages: 0 });
  });

  it('walks the filtered list by page and by cursor, and refuses a cursor of other filters', async () => {
    const { client } = await api.organization();
    for (const [i, name] of ['Tap washer', 'Toilet cistern', 'Gutter guard', 'Burst pipe'].entries()) {
      await createService(client, { ...blockedDrain, name, tradeCategoryId: i === 2 ? 5 : 1 });
    }
    const page1 = (await client.get('/v1/services?tradeCategoryId=1&limit=2')).body;
    expect(page1).toMatchObject({ totalCount: 3, totalPages: 2, currentPage: 1 });
    expect(page1.services.map((s: { name: string }) => s.name)).toEqual(['Burst pipe', 'Toilet cistern']);
    const page2 = (await client.get('/v1/services?tradeCategoryId=1&limit=2&page=2')).body;
    expect(page2.services.map((s: { name: string }) => s.name)).toEqual(['Tap washer']);
    expect(page2.nextCursor).toBeNull();
    const next = (await client.get(`/v1/services?tradeCategoryId=1&limit=2&cursor=${page1.nextCursor}`)).body;
    expect(next.services).toEqual(page2.services);
    const other = await client.get(`/v1/services?limit=2&cursor=${page1.nextCursor}`);
    expect(other.status).toBe(400);
    expect(other.body.error.code).toBe('INVALID_CURSOR');
  });

  it.each([
    ['tradeCategoryId=abc', 'tradeCategoryId'],
    ['tradeCategoryId=999', 'tradeCategoryId'],
    ['isActive=yes', 'isActive'],
    ['isActive=1', 'isActive'],
    ['limit=0', 'limit'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/services?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(name);
  });

  it("never lists another organization's services", async () => {
    const mine = await api.organization();
    await api.demoOrganization();
    const res = await mine.client.get('/v1/services');
    expect(res.body).toMatchObject({ services: [], totalCount: 0 });
  });
});

describe('PATCH /v1/services/{serviceId}', () => {
  it('changes the fields sent, pricing included, and reads back the change; the scenario stays as it was', async () => {
    const { client } = await api.organization();
    const service = await createService(client, blockedDrain);
    const res = await client.patch(`/v1/services/${service.id}`, { description: 'Drains, jetted', pricingType: 'CALL_OUT', callOutFee: 99, hourlyRate: 145, plusGST: true, teamAssignmentMethod: 'ROUND_ROBIN' });
    expect(res.status).toBe(200);
    expect(res.body.service).toEqual({
      ...service,
      description: 'Drains, jetted',
      pricingType: 'CALL_OUT',
      callOutFee: 99,
      hourlyRate: 145,
      plusGST: true,
      teamAssignmentMethod: 'ROUND_ROBIN',
      updatedAt: expect.stringMatching(ISO_MS),
    });
    expect(res.body.service.updatedAt >= service.updatedAt).toBe(true);
    expect((await client.get(`/v1/services/${service.id}`)).body.service).toEqual(res.body.service);
  });

  it('checks the merged record as a create checks its body', async () => {
    const { client } = await api.organization();
    const service = await createService(client, { ...blockedDrain, hourlyRate: 120 });
    // The rate stored already satisfies HOURLY.
    expect((await client.patch(`/v1/services/${service.id}`, { pricingType: 'HOURLY' })).body.service).toMatchObject({ pricingType: 'HOURLY', hourlyRate: 120 });
    for (const [body, field] of [
      [{ pricingType: 'FIXED' }, 'price'],
      [{ hourlyRate: null }, 'hourlyRate'],
      [{ pricingType: 'RANGE', minPrice: 500 }, 'maxPrice'],
      [{ pricingType: 'RANGE', minPrice: 500, maxPrice: 400 }, 'maxPrice'],
      [{ isCustomPriceResponseActive: true }, 'customPriceResponse'],
    ] as const) {
      const res = await client.patch(`/v1/services/${service.id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.details[0].path).toBe(field);
    }
    expect((await client.get(`/v1/services/${service.id}`)).body.service).toMatchObject({ pricingType: 'HOURLY', hourlyRate: 120, minPrice: null });
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['an unknown field', { colour: 'blue' }, 'colour'],
    ['a blank name', { name: '  ' }, 'name'],
    ['a duration of 0', { duration: 0 }, 'duration'],
    ['an unknown durationUnit', { durationUnit: 'WEEKS' }, 'durationUnit'],
    ['an unknown tradeCategoryId', { tradeCategoryId: 999 }, 'tradeCategoryId'],
    ['a negative price', { price: -1 }, 'price'],
    ['a string price', { hourlyRate: '120' }, 'hourlyRate'],
    ['a null flag', { plusGST: null }, 'plusGST'],
    ['a null pricingType', { pricingType: null }, 'pricingType'],
  ])('answers 400 naming the field for %s', async (_, body, field) => {
    const { client } = await api.organization();
    const service = await createService(client, blockedDrain);
    const res = await client.patch(`/v1/services/${service.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
  });

  it('answers 409 for a name another service has, ignoring case and spacing; a rename frees the old name', async () => {
    const { client } = await api.organization();
    const drain = await createService(client, blockedDrain);
    await createService(client, hotWater);
    const taken = await client.patch(`/v1/services/${drain.id}`, { name: '  hot WATER   system repair ' });
    expect(taken.status).toBe(409);
    expect((await client.patch(`/v1/services/${drain.id}`, { name: 'BLOCKED drain clearing' })).body.service.name).toBe('BLOCKED drain clearing');
    expect((await client.patch(`/v1/services/${drain.id}`, { name: 'Drain jetting' })).status).toBe(200);
    expect((await client.post('/v1/services', blockedDrain)).status).toBe(201);
    expect((await client.post('/v1/services', { ...blockedDrain, name: 'drain jetting' })).status).toBe(409);
  });

  it("answers 404 for an unknown service and for another organization's, leaving it unchanged", async () => {
    const owner = await api.organization();
    const service = await createService(owner.client, blockedDrain);
    const { client } = await api.organization();
    for (const id of [service.id, 999]) {
      const res = await client.patch(`/v1/services/${id}`, { isActive: false });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Service not found');
    }
    expect((await owner.client.get(`/v1/services/${service.id}`)).body.service).toEqual(service);
  });

  it('costs one read and one conditional Put, and a transaction instead for a rename', async () => {
    const { client } = await api.organization();
    const service = await createService(client, blockedDrain);
    expect(await countDynamoCalls(() => client.patch(`/v1/services/${service.id}`, { isActive: false }))).toEqual(['GetItemCommand', 'PutItemCommand']);
    expect(await countDynamoCalls(() => client.patch(`/v1/services/${service.id}`, { name: 'Drain jetting' }))).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  });

  it('loses no change when updates of the same service race', async () => {
    const { client } = await api.organization();
    const service = await createService(client, blockedDrain);
    const answers = await Promise.all([
      client.patch(`/v1/services/${service.id}`, { description: 'First' }),
      client.patch(`/v1/services/${service.id}`, { duration: 45 }),
      client.patch(`/v1/services/${service.id}`, { plusGST: true }),
    ]);
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    expect((await client.get(`/v1/services/${service.id}`)).body.service).toMatchObject({ description: 'First', duration: 45, plusGST: true });
  });
});

describe('DELETE /v1/services/{serviceId}', () => {
  it('removes the service, its scenario, its name and its count, and answers its id', async () => {
    const { client, organizationId } = await api.organization();
    const kept = await createService(client, hotWater);
    const service = await createService(client, blockedDrain);
    let res: any;
    expect(await countDynamoCalls(async () => (res = await client.delete(`/v1/services/${service.id}`)))).toEqual(['GetItemCommand', 'QueryCommand', 'TransactWriteItemsCommand']);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: service.id });
    expect((await client.get(`/v1/services/${service.id}`)).status).toBe(404);
    expect((await client.get(`/v1/scenarios/${service.scenario.id}`)).status).toBe(404);
    expect((await client.get('/v1/organization')).body.organization.counts.services).toBe(1);
    expect((await client.get('/v1/services')).body).toMatchObject({ services: [kept], totalCount: 1 });
    const left = (await storedItems(organizationId)).map((item) => String(item.sk)).filter((sk) => /^(SERVICE|SCENARIO)/.test(sk));
    expect(left.sort()).toEqual([`SCENARIO#${String(kept.scenario.id).padStart(10, '0')}`, `SERVICE#${String(kept.id).padStart(10, '0')}`, 'SERVICENAME#hot water system repair'].sort());
    expect((await client.post('/v1/services', blockedDrain)).status).toBe(201);
  });

  it('sets scenarioId to null on every transfer rule that named the scenario, in the same transaction', async () => {
    const { client } = await api.organization();
    const drain = await createService(client, blockedDrain);
    const water = await createService(client, hotWater);
    const rule = { method: 'COLD', destinationType: 'DEPARTMENT', destination: 'Office', conditions: 'Always' };
    const linked = [(await client.post('/v1/transfers', { ...rule, label: 'A', scenarioId: drain.scenario.id })).body.transfer, (await client.post('/v1/transfers', { ...rule, label: 'B', scenarioId: drain.scenario.id })).body.transfer];
    const other = (await client.post('/v1/transfers', { ...rule, label: 'C', scenarioId: water.scenario.id })).body.transfer;
    // A rule pointed elsewhere before the delete keeps its new scenario.
    const moved = (await client.post('/v1/transfers', { ...rule, label: 'D', scenarioId: drain.scenario.id })).body.transfer;
    await client.patch(`/v1/transfers/${moved.id}`, { scenarioId: water.scenario.id });
    const calls = await countDynamoCalls(() => client.delete(`/v1/services/${drain.id}`));
    expect(calls).toEqual(['GetItemCommand', 'QueryCommand', 'TransactWriteItemsCommand']);
    for (const transfer of linked) {
      const after = (await client.get(`/v1/transfers/${transfer.id}`)).body.transfer;
      expect(after).toEqual({ ...transfer, scenarioId: null, updatedAt: expect.stringMatching(ISO_MS) });
    }
    expect((await client.get(`/v1/transfers/${other.id}`)).body.transfer.scenarioId).toBe(water.scenario.id);
    expect((await client.get(`/v1/transfers/${moved.id}`)).body.transfer.scenarioId).toBe(water.scenario.id);
    // The deleted scenario can no longer be linked.
    const refused = await client.post('/v1/transfers', { ...rule, label: 'E', scenarioId: drain.scenario.id });
    expect(refused.status).toBe(400);
    expect(refused.body.error.details[0].path).toBe('scenarioId');
  });

  it("answers 404 for an unknown service, one deleted already and another organization's, deleting nothing", async () => {
    const owner = await api.organization();
    const service = await createService(owner.client, blockedDrain);
    const { client } = await api.organization();
    expect((await client.delete(`/v1/services/${service.id}`)).status).toBe(404);
    expect((await owner.client.get(`/v1/services/${service.id}`)).status).toBe(200);
    expect((await owner.client.delete(`/v1/services/${service.id}`)).status).toBe(200);
    const again = await owner.client.delete(`/v1/services/${service.id}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Service not found');
  });
});

/** Free text with a NUL and a BEL in it: never part of text a person wrote. */
const WITH_CONTROL = 'Replaces the tap washer\u0000\u0007';

describe('the free-text rule on descriptions and receptionist texts', () => {
  it('refuses control characters in a service’s description and its scenario’s prompt and response, naming the field', async () => {
    const { client } = await api.organization();
    const service = await createService(client, { name: 'Blocked drain', duration: 60, durationUnit: 'MINUTES', tradeCategoryId: 1 });
    const create = await client.post('/v1/services', { name: 'Hot water', description: WITH_CONTROL, duration: 2, durationUnit: 'HOURS', tradeCategoryId: 1 });
    expect(create.status, JSON.stringify(create.body)).toBe(400);
    expect(create.body.error.details[0].path).toBe('description');
    const patch = await client.patch(`/v1/services/${service.id}`, { description: WITH_CONTROL });
    expect(patch.status, JSON.stringify(patch.body)).toBe(400);
    for (const field of ['prompt', 'response']) {
      const res = await client.patch(`/v1/scenarios/${service.scenario.id}`, { [field]: WITH_CONTROL });
      expect(res.status, `${field}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.details[0].path).toBe(field);
    }
  });
});
