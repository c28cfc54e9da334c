import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { useTestApi } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { serviceKeys } from './entity';
import { createService, createTransfer, ISO_MS } from '../../test/support/fixtures';

const api = useTestApi({ events: true });

const blockedDrain = { name: 'Blocked drain clearing', followUpQuestions: ['Which drain is blocked?'], duration: 90, durationUnit: 'MINUTES', tradeCategoryId: 1 };
const hotWater = { name: 'Hot water system repair', duration: 2, durationUnit: 'HOURS', tradeCategoryId: 1 };

const questions = [
  {
    question: 'Is water overflowing right now?',
    answerOptions: [
      { answer: 'Yes', followUps: [{ question: 'Can you turn off the water at the meter?' }] },
      { answer: 'No', followUps: [] },
    ],
  },
];

/** The organization's events of the given types, oldest first, once the stream consumer has caught up. */
async function eventsOf(client: { get: (path: string) => Promise<{ body: any }> }, ...types: string[]) {
  await api.eventsCaughtUp();
  const { events } = (await client.get('/v1/events?limit=100')).body as { events: Array<{ type: string; data: any }> };
  return events.filter((event) => types.includes(event.type)).reverse();
}

describe('GET /v1/scenarios', () => {
  it('lists every scenario in full, newest first, from one Query, filtered by isActive and tradeServiceId', async () => {
    const { client } = await api.organization();
    const drain = await createService(client, blockedDrain);
    const water = await createService(client, hotWater);
    await client.patch(`/v1/scenarios/${drain.scenario.id}`, { isActive: false });
    let res: any;
    expect(await countDynamoCalls(async () => (res = await client.get('/v1/scenarios')))).toEqual(['QueryCommand']);
    expect(res.body).toMatchObject({ totalCount: 2, totalPages: 1, currentPage: 1, nextCursor: null });
    expect(res.body.scenarios).toEqual([(await client.get(`/v1/scenarios/${water.scenario.id}`)).body.scenario, (await client.get(`/v1/scenarios/${drain.scenario.id}`)).body.scenario]);
    const inactive = (await client.get('/v1/scenarios?isActive=false')).body;
    expect([inactive.scenarios.map((s: { id: number }) => s.id), inactive.totalCount]).toEqual([[drain.scenario.id], 1]);
    const ofWater = (await client.get(`/v1/scenarios?tradeServiceId=${water.id}&isActive=true`)).body;
    expect([ofWater.scenarios.map((s: { tradeServiceId: number }) => s.tradeServiceId), ofWater.totalCount]).toEqual([[water.id], 1]);
    expect((await client.get('/v1/scenarios?tradeServiceId=99')).body).toMatchObject({ scenarios: [], totalCount: 0 });
  });

  it.each([
    ['isActive=TRUE', 'isActive'],
    ['tradeServiceId=x', 'tradeServiceId'],
    ['cursor=nope', 'cursor'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/scenarios?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(name);
  });
});

describe('PATCH /v1/scenarios/{scenarioId}', () => {
  it('answers the scenario in full, and the service’s nested summary shows the change at once', async () => {
    const { client } = await api.organization();
    const service = await createService(client, blockedDrain);
    const before = (await client.get(`/v1/scenarios/${service.scenario.id}`)).body.scenario;
    const change = { name: 'Blocked drains', prompt: 'Use for any blocked drain.', response: 'We can clear that today.', questions, outcome: { type: 'transferCall', property1: 'Emergency plumbing' } };
    let res: any;
    expect(await countDynamoCalls(async () => (res = await client.patch(`/v1/scenarios/${service.scenario.id}`, change)))).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
    expect(res.status).toBe(200);
    expect(res.body.scenario).toEqual({ ...before, ...change, outcome: { type: 'transferCall', property1: 'Emergency plumbing', property2: null }, updatedAt: expect.stringMatching(ISO_MS) });
    expect((await client.get(`/v1/scenarios/${service.scenario.id}`)).body.scenario).toEqual(res.body.scenario);
    const read = (await client.get(`/v1/services/${service.id}`)).body.service;
    // The service shows its scenario's summary, so it changed with it: its updatedAt is the scenario's.
    expect(read).toEqual({ ...service, scenario: { id: service.scenario.id, response: change.response, questions, outcome: res.body.scenario.outcome }, updatedAt: res.body.scenario.updatedAt });
  });

  it('keeps the fields not sent, and fills answerOptions and followUps left out', async () => {
    const { client } = await api.organization();
    const service = await createService(client, blockedDrain);
    const res = await client.patch(`/v1/scenarios/${service.scenario.id}`, { questions: [{ question: 'Where is the drain?', answerOptions: [{ answer: 'Outside' }] }, { question: 'Since when?' }] });
    expect(res.body.scenario.questions).toEqual([
      { question: 'Where is the drain?', answerOptions: [{ answer: 'Outside', followUps: [] }] },
      { question: 'Since when?', answerOptions: [] },
    ]);
    expect(res.body.scenario).toMatchObject({ name: 'Blocked drain clearing', isActive: true });
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['an unknown field', { tradeServiceId: 2 }, 'tradeServiceId'],
    ['a blank name', { name: ' ' }, 'name'],
    ['a prompt that is not text', { prompt: 5 }, 'prompt'],
    ['a question without its text', { questions: [{ answerOptions: [] }] }, 'questions.0.question'],
    ['a blank answer', { questions: [{ question: 'Where?', answerOptions: [{ answer: '' }] }] }, 'questions.0.answerOptions.0.answer'],
    ['a follow-up with an unknown field', { questions: [{ question: 'Where?', answerOptions: [{ answer: 'Out', followUps: [{ question: 'Q', extra: 1 }] }] }] }, 'questions.0.answerOptions.0.followUps.0.extra'],
    ['an outcome without a type', { outcome: { property1: 'x' } }, 'outcome.type'],
    ['an outcome of a type the agent does not know', { outcome: { type: 'callBack' } }, 'outcome.type'],
    ['questions that are not a list', { questions: 'Where?' }, 'questions'],
  ])('answers 400 naming the field for %s', async (_, body, field) => {
    const { client } = await api.organization();
    const service = await createService(client, blockedDrain);
    const res = await client.patch(`/v1/scenarios/${service.scenario.id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(field);
  });

  it("answers 404 for an unknown scenario and for another organization's, leaving it unchanged", async () => {
    const owner = await api.organization();
    const service = await createService(owner.client, blockedDrain);
    const before = (await owner.client.get(`/v1/scenarios/${service.scenario.id}`)).body.scenario;
    const { client } = await api.organization();
    for (const id of [service.scenario.id, 999]) {
      const res = await client.patch(`/v1/scenarios/${id}`, { isActive: false });
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Scenario not found');
    }
    expect((await owner.client.get(`/v1/scenarios/${service.scenario.id}`)).body.scenario).toEqual(before);
  });

  it('loses neither change when the service and its scenario are changed at the same time', async () => {
    const { client } = await api.organization();
    const service = await createService(client, blockedDrain);
    const answers = await Promise.all([
      client.patch(`/v1/services/${service.id}`, { description: 'Jetting included' }),
      client.patch(`/v1/scenarios/${service.scenario.id}`, { response: 'First response' }),
      client.patch(`/v1/services/${service.id}`, { duration: 60 }),
      client.patch(`/v1/scenarios/${service.scenario.id}`, { prompt: 'Second prompt' }),
    ]);
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200, 200]);
    const read = (await client.get(`/v1/services/${service.id}`)).body.service;
    expect(read).toMatchObject({ description: 'Jetting included', duration: 60, scenario: { response: 'First response' } });
    expect((await client.get(`/v1/scenarios/${service.scenario.id}`)).body.scenario).toMatchObject({ response: 'First response', prompt: 'Second prompt' });
  });
});

describe('events of services, scenarios and transfer rules', () => {
  it('emits service.updated, scenario.updated, and on a delete service.deleted, scenario.deleted and transfer.updated for each unlinked rule', async () => {
    const { client } = await api.organization();
    const service = await createService(client, blockedDrain);
    const transfer = await createTransfer(client, { label: 'Urgent', method: 'WARM', destinationType: 'DEPARTMENT', destination: 'Office', conditions: 'Flooding', scenarioId: service.scenario.id });
    await client.patch(`/v1/services/${service.id}`, { isActive: false });
    await client.patch(`/v1/scenarios/${service.scenario.id}`, { response: 'Changed' });
    await client.delete(`/v1/services/${service.id}`);
    const events = await eventsOf(client, 'service.created', 'service.updated', 'service.deleted', 'scenario.created', 'scenario.updated', 'scenario.deleted', 'transfer.updated');
    const seen = events.map((event) => `${event.type} ${event.data.id}`);
    expect(seen).toEqual(
      expect.arrayContaining([
        `service.created ${service.id}`,
        `scenario.created ${service.scenario.id}`,
        `service.updated ${service.id}`,
        `scenario.updated ${service.scenario.id}`,
        `service.deleted ${service.id}`,
        `scenario.deleted ${service.scenario.id}`,
        `transfer.updated ${transfer.id}`,
      ]),
    );
    // The service PATCH, then the scenario PATCH (which changes the service's summary too): two service.updated.
    expect(seen.filter((line) => line.startsWith('service.updated'))).toHaveLength(2);
    expect(events.find((event) => event.type === 'service.updated')!.data.isActive).toBe(false);
    expect(events.find((event) => event.type === 'scenario.updated')!.data.response).toBe('Changed');
    expect(events.find((event) => event.type === 'transfer.updated')!.data.scenarioId).toBeNull();
    // Linking the transfer moved the scenario's count of links, which is no change of the scenario.
    expect(seen.filter((line) => line.startsWith('scenario.updated'))).toHaveLength(1);
  });

  it('emits transfer.deleted with the rule as it was', async () => {
    const { client } = await api.organization();
    const transfer = await createTransfer(client, { label: 'Urgent', method: 'WARM', destinationType: 'DEPARTMENT', destination: 'Office', conditions: 'Flooding' });
    await client.delete(`/v1/transfers/${transfer.id}`);
    const [deleted] = await eventsOf(client, 'transfer.deleted');
    expect(deleted!.data).toEqual(transfer);
  });
});

describe('outcome.type', () => {
  it('is one of the documented types, each with its meaning, and a type stored before they were fixed still reads', async () => {
    const { client, organizationId } = await api.organization();
    const service = await createService(client, blockedDrain);
    const refused = await client.patch(`/v1/scenarios/${service.scenario.id}`, { outcome: { type: 'callBack' } });
    expect(refused.body.error.details).toEqual([{ path: 'outcome.type', message: 'outcome.type must be one of continueCall, transferCall, bookAppointment, takeMessage, endCall' }]);
    for (const type of ['continueCall', 'transferCall', 'bookAppointment', 'takeMessage', 'endCall']) {
      expect((await client.patch(`/v1/scenarios/${service.scenario.id}`, { outcome: { type } })).body.scenario.outcome.type).toBe(type);
    }
    const document = (await api.anonymous.get('/openapi')).body;
    const described = JSON.stringify(document.components.schemas.ScenarioOutcome.properties.type);
    for (const meaning of ['`transferCall`: hand the call over by a transfer rule', '`bookAppointment`: offer the caller a slot']) expect(described).toContain(meaning);
    // A scenario written when outcome.type was free text answers it as stored.
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: serviceKeys.scenario(organizationId, service.scenario.id), UpdateExpression: 'SET outcome.#type = :type', ExpressionAttributeNames: { '#type': 'type' }, ExpressionAttributeValues: { ':type': 'sendQuote' } }));
    const read = await client.get(`/v1/scenarios/${service.scenario.id}`);
    expect(read.status).toBe(200);
    expect(read.body.scenario.outcome.type).toBe('sendQuote');
  });
});
