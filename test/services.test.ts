import { describe, expect, it } from 'vitest';
import { queryAll } from '../shared/store/query-page';
import { useTestApi } from './support/api';
import { countDynamoCalls } from './support/dynamo-calls';
import { createService, ISO_MS } from './support/fixtures';

const api = useTestApi();
const CONTINUE_CALL = { type: 'continueCall', property1: null, property2: null };

const blockedDrain = {
  name: 'Blocked drain clearing',
  description: 'Clearing blocked sinks, toilets and stormwater drains',
  followUpQuestions: ['Which drain is blocked?', 'Is water overflowing right now?'],
  duration: 90,
  durationUnit: 'MINUTES',
  tradeCategoryId: 1,
  pricingMode: 'NONE',
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
        pricingMode: 'NONE',
        fixedPrice: null,
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
      pricingMode: 'RANGE',
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
    expect(rest).toEqual({ ...body, fixedPrice: null, hourlyRate: null });
    expect(scenario).toEqual({ id: 1, response: expect.any(String), questions: [], outcome: CONTINUE_CALL });
  });

  it.each([
    ['FIXED', { fixedPrice: 180 }],
    ['HOURLY', { hourlyRate: 135 }],
    ['CALL_OUT', { callOutFee: 99 }],
  ])('accepts pricingMode %s with its price and echoes both', async (pricingMode, price) => {
    const { client } = await api.organization();
    const res = await client.post('/v1/services', { ...blockedDrain, pricingMode, ...price });
    expect(res.status).toBe(201);
    expect(res.body.service).toMatchObject({ pricingMode, ...price });
  });

  it('needs only name, duration, durationUnit and tradeCategoryId, and fills the defaults', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/services', { name: '  Power point installation  ', duration: 1, durationUnit: 'HOURS', tradeCategoryId: 2 });
    expect(res.status).toBe(201);
    expect(res.body.service).toMatchObject({
      name: 'Power point installation',
      description: '',
      followUpQuestions: [],
      pricingMode: 'NONE',
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
    ['an unknown pricingMode', { pricingMode: 'FREE' }, 'pricingMode'],
    ['followUpQuestions that is not an array', { followUpQuestions: 'Which drain?' }, 'followUpQuestions'],
    ['a follow-up question that is not a string', { followUpQuestions: ['ok', 7] }, 'followUpQuestions.1'],
    ['an unknown field', { colour: 'blue' }, 'colour'],
    ['a negative price', { pricingMode: 'FIXED', fixedPrice: -5 }, 'fixedPrice'],
    ['a price given as a string', { hourlyRate: '120' }, 'hourlyRate'],
    ['FIXED without fixedPrice', { pricingMode: 'FIXED' }, 'fixedPrice'],
    ['HOURLY without hourlyRate', { pricingMode: 'HOURLY' }, 'hourlyRate'],
    ['CALL_OUT without callOutFee', { pricingMode: 'CALL_OUT' }, 'callOutFee'],
    ['RANGE without maxPrice', { pricingMode: 'RANGE', minPrice: 100 }, 'maxPrice'],
    ['RANGE with minPrice above maxPrice', { pricingMode: 'RANGE', minPrice: 500, maxPrice: 100 }, 'maxPrice'],
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
    expect((await client.post('/v1/services', undefined, { rawBody: '{"name":' })).status).toBe(400);
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

describe('GET /v1/services/{serviceId}', () => {
  it('answers the service as created, with its scenario summary', async () => {
    const { client } = await api.organization();
    const created = await client.post('/v1/services', { ...blockedDrain, pricingMode: 'FIXED', fixedPrice: 220 });
    const res = await client.get(`/v1/services/${created.body.service.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
  });

  it('reads the demo services with one GetItem', async () => {
    const { client, demo } = await api.organization({ demo: true });
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
    const { client } = await api.organization({ demo: true });
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
    const { client, demo } = await api.organization({ demo: true });
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
    const owner = await api.organization({ demo: true });
    const other = await api.organization();
    const scenarioId = (owner.demo?.scenarioIds as number[])[0];
    expect((await other.client.get(`/v1/scenarios/${scenarioId}`)).status).toBe(404);
    expect((await owner.client.get(`/v1/scenarios/${scenarioId}`)).status).toBe(200);
  });
});

describe('GET /v1/organization/services', () => {
  it('groups the demo services under the trade categories that have services, in catalog order', async () => {
    const { client } = await api.organization({ demo: true });
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

  it('shows each service with exactly the listing fields', async () => {
    const { client } = await api.organization();
    const service = await createService(client, { ...blockedDrain, isActive: false });
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
    await api.organization({ demo: true });
    await createService(mine.client, { name: 'Pest inspection', duration: 1, durationUnit: 'HOURS', tradeCategoryId: 9 });
    const res = await mine.client.get('/v1/organization/services');
    expect(res.body).toMatchObject({ totalCategories: 1, totalServices: 1 });
    expect(res.body.categories[0]).toMatchObject({ id: 9, name: 'Pest control', services: [{ name: 'Pest inspection' }] });
  });

  it('reads every service with one Query', async () => {
    const { client } = await api.organization({ demo: true });
    expect(await countDynamoCalls(() => client.get('/v1/organization/services'))).toEqual(['QueryCommand']);
  });
});
