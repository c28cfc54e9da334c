import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { serviceKeys } from '../services/entity';
import { queryAll } from '#shared/store/query-page';
import { useTestApi } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { createTransfer, ISO_MS, storedTransfer } from '../../test/support/fixtures';

const api = useTestApi();

const emergency = {
  label: 'Emergency plumbing',
  method: 'WARM',
  destinationType: 'PHONE_NUMBER',
  destination: '+61298765432',
  conditions: 'The caller reports a burst pipe, flooding or a gas smell.',
};

/** A scenario row, as POST /v1/services would leave one; transfers only need it to exist. */
async function putScenario(organizationId: string, id: number) {
  await dynamo.send(new PutCommand({ TableName: config.tableName, Item: { ...serviceKeys.scenario(organizationId, id), entity: 'SCENARIO', id } }));
}

describe('POST /v1/transfers', () => {
  it('answers 201 with every Transfer field, filling name, summaryFormat, settings, isEnabled and scenarioId', async () => {
    const { client } = await api.organization();
    const res = await client.post('/v1/transfers', emergency);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      transfer: {
        id: 1,
        label: 'Emergency plumbing',
        name: 'Emergency plumbing',
        method: 'WARM',
        destinationType: 'PHONE_NUMBER',
        destination: '+61298765432',
        conditions: emergency.conditions,
        summaryFormat: 'Caller {name} is calling about {topic}. Summary: {summary}',
        settings: { ignore_business_hours: false },
        isEnabled: true,
        scenarioId: null,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      },
    });
  });

  it('keeps the optional fields it is given, including a scenario of the organization', async () => {
    const { client, organizationId } = await api.organization();
    await putScenario(organizationId, 3);
    const transfer = await createTransfer(client, {
      label: 'Quotes',
      name: 'Quotes to the office',
      method: 'COLD',
      destinationType: 'DEPARTMENT',
      destination: 'Sales',
      conditions: 'The caller wants a written quote.',
      summaryFormat: '{name}: {summary}',
      settings: { ignore_business_hours: true },
      isEnabled: false,
      scenarioId: 3,
    });
    expect(transfer).toMatchObject({
      name: 'Quotes to the office',
      method: 'COLD',
      summaryFormat: '{name}: {summary}',
      settings: { ignore_business_hours: true },
      isEnabled: false,
      scenarioId: 3,
    });
  });

  it.each([
    ['a missing label', { ...emergency, label: undefined }, 'label'],
    ['a blank label', { ...emergency, label: '  ' }, 'label'],
    ['a missing conditions', { ...emergency, conditions: undefined }, 'conditions'],
    ['conditions that are not a string', { ...emergency, conditions: ['burst pipe'] }, 'conditions'],
    ['an unknown method', { ...emergency, method: 'HOT' }, 'method'],
    ['an unknown destinationType', { ...emergency, destinationType: 'EMAIL' }, 'destinationType'],
    ['a missing destination', { ...emergency, destination: undefined }, 'destination'],
    ['a PHONE_NUMBER destination that is no valid number', { ...emergency, destination: '02 9876' }, 'destination'],
    ['an unknown placeholder in summaryFormat', { ...emergency, summaryFormat: 'Call from {caller}' }, 'summaryFormat'],
    ['settings without ignore_business_hours', { ...emergency, settings: {} }, 'settings.ignore_business_hours'],
    ['an unknown setting', { ...emergency, settings: { ignore_business_hours: true, afterHours: 1 } }, 'settings.afterHours'],
    ['isEnabled that is not a boolean', { ...emergency, isEnabled: 'yes' }, 'isEnabled'],
    ['a scenarioId that is not an integer', { ...emergency, scenarioId: '3' }, 'scenarioId'],
    ['an unknown field', { ...emergency, priority: 1 }, 'priority'],
  ])('answers 400 for %s, naming the field', async (_, body, field) => {
    const { client } = await api.organization();
    const res = await client.post('/v1/transfers', body);
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(res.body.error.details[0].path).toBe(field);
    expect(res.body.message).toContain(field);
  });

  it("answers 400 for a scenarioId of no scenario, or of another organization's scenario, and frees the label", async () => {
    const { client } = await api.organization();
    const other = await api.organization();
    await putScenario(other.organizationId, 5);
    for (const scenarioId of [404, 5]) {
      const res = await client.post('/v1/transfers', { ...emergency, scenarioId });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe(`scenarioId ${scenarioId} does not match any scenario of the organization`);
    }
    expect((await client.post('/v1/transfers', emergency)).status).toBe(201);
  });

  it("answers 400 naming destination for a MEMBER destination that is no member of the organization's, and reserves nothing", async () => {
    const { client } = await api.organization();
    const other = await api.organization();
    for (const n of [1, 2]) await other.client.post('/v1/organization/members', { email: `stranger${n}@example.com`, firstName: 'Sam', lastName: `Stranger${n}` });
    const member = (await client.post('/v1/organization/members', { email: 'tom@example.com', firstName: 'Tom', lastName: 'Walsh' })).body.member;
    expect(member.id).toBe(1);
    // 2: a member of the other organization only.
    for (const destination of ['2', 'Tom Walsh', member.user.id, '0', '01']) {
      const res = await client.post('/v1/transfers', { ...emergency, destinationType: 'MEMBER', destination });
      expect(res.status).toBe(400);
      expect(res.body.error.details).toEqual([{ path: 'destination', message: `destination ${destination} is not the id of a member of the organization (GET /v1/organization/members), as destinationType MEMBER needs` }]);
    }
    const res = await client.post('/v1/transfers', { ...emergency, destinationType: 'MEMBER', destination: '1' });
    expect(res.status).toBe(201);
    expect(res.body.transfer).toMatchObject({ id: 1, destinationType: 'MEMBER', destination: '1' });
  });

  it('answers 409 for a label that exists already, ignoring case and surrounding space', async () => {
    const { client } = await api.organization();
    await createTransfer(client, emergency);
    const res = await client.post('/v1/transfers', { ...emergency, label: ' EMERGENCY plumbing ', destinationType: 'DEPARTMENT', destination: 'Dispatch' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({
      success: false,
      message: 'A transfer rule labelled "EMERGENCY plumbing" already exists',
      error: { status: 409, message: 'A transfer rule labelled "EMERGENCY plumbing" already exists', code: 'CONFLICT' },
    });
  });

  it('lets two organizations use the same label', async () => {
    await createTransfer((await api.organization()).client, emergency);
    await createTransfer((await api.organization()).client, emergency);
  });

  it('costs one sequence update and one transaction', async () => {
    const { client } = await api.organization();
    expect(await countDynamoCalls(() => client.post('/v1/transfers', emergency))).toEqual(['UpdateItemCommand', 'TransactWriteItemsCommand']);
  });
});

describe('PUT /v1/transfers/{transferId}', () => {
  it('changes only the fields sent and keeps the others', async () => {
    const { client, organizationId } = await api.organization();
    const before = await createTransfer(client, emergency);
    const res = await client.put(`/v1/transfers/${before.id}`, { conditions: 'Any gas smell.', settings: { ignore_business_hours: true } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      transfer: { ...before, conditions: 'Any gas smell.', settings: { ignore_business_hours: true }, updatedAt: expect.stringMatching(ISO_MS) },
    });
    expect(await storedTransfer(organizationId, before.id)).toEqual(res.body.transfer);
  });

  it('keeps name when the label changes', async () => {
    const { client } = await api.organization();
    const { id } = await createTransfer(client, emergency);
    const res = await client.put(`/v1/transfers/${id}`, { label: 'Urgent plumbing' });
    expect(res.body.transfer).toMatchObject({ label: 'Urgent plumbing', name: 'Emergency plumbing' });
  });

  it('checks the merged destination: switching to PHONE_NUMBER needs a phone number as destination', async () => {
    const { client } = await api.organization();
    const { id } = await createTransfer(client, { ...emergency, destinationType: 'DEPARTMENT', destination: 'Dispatch' });
    const bad = await client.put(`/v1/transfers/${id}`, { destinationType: 'PHONE_NUMBER' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('destination');
    const good = await client.put(`/v1/transfers/${id}`, { destinationType: 'PHONE_NUMBER', destination: '+61400111222' });
    expect(good.status).toBe(200);
    // Typed as people type it, read in the organization's country (Australia by default) and kept in E.164.
    const national = await client.put(`/v1/transfers/${id}`, { destination: '(02) 9555 1234' });
    expect([national.status, national.body.transfer.destination]).toEqual([200, '+61295551234']);
  });

  it('checks a MEMBER destination the update sets, and lets a rule whose member left change other fields', async () => {
    const { client } = await api.organization();
    const member = (await client.post('/v1/organization/members', { email: 'tom@example.com', firstName: 'Tom', lastName: 'Walsh' })).body.member;
    const { id } = await createTransfer(client, { ...emergency, destinationType: 'DEPARTMENT', destination: 'Dispatch' });
    const bad = await client.patch(`/v1/transfers/${id}`, { destinationType: 'MEMBER' });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details[0].path).toBe('destination');
    expect((await client.patch(`/v1/transfers/${id}`, { destinationType: 'MEMBER', destination: String(member.id + 1) })).status).toBe(400);
    expect((await client.get(`/v1/transfers/${id}`)).body.transfer).toMatchObject({ destinationType: 'DEPARTMENT', destination: 'Dispatch' });
    expect((await client.patch(`/v1/transfers/${id}`, { destinationType: 'MEMBER', destination: String(member.id) })).status).toBe(200);
    expect((await client.delete(`/v1/organization/members/${member.id}`)).status).toBe(200);
    expect((await client.patch(`/v1/transfers/${id}`, { isEnabled: false })).status).toBe(200);
  });

  it('links and unlinks a scenario, refusing one that does not exist', async () => {
    const { client, organizationId } = await api.organization();
    await putScenario(organizationId, 2);
    const { id } = await createTransfer(client, emergency);
    expect((await client.put(`/v1/transfers/${id}`, { scenarioId: 2 })).body.transfer.scenarioId).toBe(2);
    const missing = await client.put(`/v1/transfers/${id}`, { scenarioId: 9 });
    expect(missing.status).toBe(400);
    expect(missing.body.error.details[0].path).toBe('scenarioId');
    expect((await client.put(`/v1/transfers/${id}`, { scenarioId: null })).body.transfer.scenarioId).toBeNull();
  });

  it.each([
    ['an empty body', {}, 'body'],
    ['an unknown field', { priority: 2 }, 'priority'],
    ['a read-only field', { id: 9 }, 'id'],
    ['a blank label', { label: '' }, 'label'],
    ['an unknown method', { method: 'LUKEWARM' }, 'method'],
  ])('answers 400 for %s', async (_, body, field) => {
    const { client } = await api.organization();
    const { id } = await createTransfer(client, emergency);
    const res = await client.put(`/v1/transfers/${id}`, body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
  });

  it.each(['abc', '2.5', '0'])('answers the transfer id %s as an unknown transfer rule: 404', async (transferId) => {
    const { client } = await api.organization();
    const res = await client.put(`/v1/transfers/${transferId}`, { isEnabled: false });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe('Transfer rule not found');
  });

  it('answers 404 for an unknown transfer rule', async () => {
    const { client } = await api.organization();
    const res = await client.put('/v1/transfers/31', { isEnabled: false });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ success: false, message: 'Transfer rule not found', error: { status: 404, message: 'Transfer rule not found', code: 'NOT_FOUND' } });
  });

  it("answers 404 for another organization's transfer rule and leaves it unchanged", async () => {
    const owner = await api.organization();
    const other = await api.organization();
    const transfer = await createTransfer(owner.client, emergency);
    expect((await other.client.put(`/v1/transfers/${transfer.id}`, { isEnabled: false })).status).toBe(404);
    expect(await storedTransfer(owner.organizationId, transfer.id)).toEqual(transfer);
  });

  describe('relabelling', () => {
    it('answers 409 for a label another rule has, and changes nothing', async () => {
      const { client, organizationId } = await api.organization();
      await createTransfer(client, emergency);
      const after = await createTransfer(client, { ...emergency, label: 'After hours' });
      const res = await client.put(`/v1/transfers/${after.id}`, { label: 'emergency PLUMBING', isEnabled: false });
      expect(res.status).toBe(409);
      expect(res.body.error.code).toBe('CONFLICT');
      expect(await storedTransfer(organizationId, after.id)).toEqual(after);
    });

    it('allows a rule to take its own label in different case', async () => {
      const { client } = await api.organization();
      const { id } = await createTransfer(client, emergency);
      const res = await client.put(`/v1/transfers/${id}`, { label: 'EMERGENCY PLUMBING' });
      expect(res.status).toBe(200);
      expect(res.body.transfer.label).toBe('EMERGENCY PLUMBING');
    });

    it('frees the old label for reuse and holds the new one', async () => {
      const { client } = await api.organization();
      const { id } = await createTransfer(client, emergency);
      expect((await client.put(`/v1/transfers/${id}`, { label: 'Urgent plumbing' })).status).toBe(200);
      expect((await client.post('/v1/transfers', emergency)).status).toBe(201);
      expect((await client.post('/v1/transfers', { ...emergency, label: 'urgent plumbing' })).status).toBe(409);
    });
  });

  it('costs one read and one conditional write, and one transaction instead for a relabel', async () => {
    const { client } = await api.organization();
    const { id } = await createTransfer(client, emergency);
    expect(await countDynamoCalls(() => client.put(`/v1/transfers/${id}`, { isEnabled: false }))).toEqual(['GetItemCommand', 'PutItemCommand']);
    expect(await countDynamoCalls(() => client.put(`/v1/transfers/${id}`, { label: 'Relabelled' }))).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
  });

  it('loses no change when updates of the same rule race', async () => {
    const { client, organizationId } = await api.organization();
    const { id } = await createTransfer(client, emergency);
    const responses = await Promise.all([
      client.put(`/v1/transfers/${id}`, { conditions: 'Raced conditions' }),
      client.put(`/v1/transfers/${id}`, { isEnabled: false }),
      client.put(`/v1/transfers/${id}`, { label: 'Raced label' }),
    ]);
    expect(responses.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(await storedTransfer(organizationId, id)).toMatchObject({ conditions: 'Raced conditions', isEnabled: false, label: 'Raced label' });
  });
});

describe('demo transfer rules', () => {
  it('hold their labels, and one is linked to a scenario of the organization', async () => {
    const { client, organizationId, demo } = await api.organization({ demo: true });
    const ids = demo!.transferIds as number[];
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const transfers = await Promise.all(ids.map((id) => storedTransfer(organizationId, id)));
    const linked = transfers.find((transfer) => transfer?.scenarioId !== null);
    expect(demo!.scenarioIds).toContain(linked?.scenarioId);
    expect((await client.post('/v1/transfers', { ...emergency, label: 'EMERGENCY PLUMBING' })).status).toBe(409);
    expect((await client.put(`/v1/transfers/${ids[1]}`, { isEnabled: false })).status).toBe(200);
  });
});

const quotes = { label: 'Quotes', method: 'COLD', destinationType: 'DEPARTMENT', destination: 'Office', conditions: 'The caller wants a written quote.' };

describe('GET /v1/transfers', () => {
  it('lists every transfer rule, newest first, with the page fields, from one Query', async () => {
    const { client } = await api.organization();
    const first = await createTransfer(client, emergency);
    const second = await createTransfer(client, quotes);
    let res: any;
    expect(await countDynamoCalls(async () => (res = await client.get('/v1/transfers')))).toEqual(['QueryCommand']);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ transfers: [second, first], totalPages: 1, currentPage: 1, totalCount: 2, nextCursor: null });
  });

  it('filters by isEnabled and scenarioId, counting exactly what passes, and walks the pages by cursor', async () => {
    const { client, organizationId } = await api.organization();
    await putScenario(organizationId, 7);
    const labels = ['A', 'B', 'C', 'D', 'E'];
    for (const [i, label] of labels.entries()) await createTransfer(client, { ...quotes, label, isEnabled: i !== 1, scenarioId: i % 2 === 0 ? 7 : null });
    const names = (body: { transfers: Array<{ label: string }> }) => body.transfers.map((transfer) => transfer.label);
    const linked = (await client.get('/v1/transfers?scenarioId=7')).body;
    expect([names(linked), linked.totalCount]).toEqual([['E', 'C', 'A'], 3]);
    const disabled = (await client.get('/v1/transfers?isEnabled=false')).body;
    expect([names(disabled), disabled.totalCount]).toEqual([['B'], 1]);
    const enabled = (await client.get('/v1/transfers?isEnabled=true&limit=2')).body;
    expect(enabled).toMatchObject({ totalCount: 4, totalPages: 2 });
    expect(names(enabled)).toEqual(['E', 'D']);
    const rest = (await client.get(`/v1/transfers?isEnabled=true&limit=2&cursor=${enabled.nextCursor}`)).body;
    expect([names(rest), rest.nextCursor]).toEqual([['C', 'A'], null]);
    expect((await client.get(`/v1/transfers?limit=2&cursor=${enabled.nextCursor}`)).status).toBe(400);
    expect((await client.get('/v1/transfers?scenarioId=8')).body).toMatchObject({ transfers: [], totalCount: 0 });
  });

  it.each([
    ['isEnabled=yes', 'isEnabled'],
    ['scenarioId=abc', 'scenarioId'],
    ['scenarioId=0', 'scenarioId'],
    ['page=0', 'page'],
  ])('answers 400 naming the parameter for %s', async (query, name) => {
    const { client } = await api.organization();
    const res = await client.get(`/v1/transfers?${query}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe(name);
  });
});

describe('GET /v1/transfers/{transferId}', () => {
  it('answers the rule with one GetItem', async () => {
    const { client } = await api.organization();
    const transfer = await createTransfer(client, emergency);
    let res: any;
    expect(await countDynamoCalls(async () => (res = await client.get(`/v1/transfers/${transfer.id}`)))).toEqual(['GetItemCommand']);
    expect(res.body).toEqual({ transfer });
  });

  it("answers 404 for an unknown rule and for another organization's", async () => {
    const owner = await api.organization();
    const transfer = await createTransfer(owner.client, emergency);
    const { client } = await api.organization();
    for (const id of [transfer.id, 999]) {
      const res = await client.get(`/v1/transfers/${id}`);
      expect(res.status).toBe(404);
      expect(res.body.message).toBe('Transfer rule not found');
    }
  });
});

describe('DELETE /v1/transfers/{transferId}', () => {
  it('removes the rule and frees its label, answering its id', async () => {
    const { client, organizationId } = await api.organization();
    const transfer = await createTransfer(client, emergency);
    let res: any;
    expect(await countDynamoCalls(async () => (res = await client.delete(`/v1/transfers/${transfer.id}`)))).toEqual(['GetItemCommand', 'TransactWriteItemsCommand']);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ success: true, id: transfer.id });
    expect((await client.get(`/v1/transfers/${transfer.id}`)).status).toBe(404);
    expect(await storedTransfer(organizationId, transfer.id)).toBeUndefined();
    expect((await client.post('/v1/transfers', { ...emergency, label: ' emergency PLUMBING ' })).status).toBe(201);
  });

  it('unlinks its scenario: the link item goes and the scenario counts one link fewer', async () => {
    const { client, organizationId } = await api.organization();
    await putScenario(organizationId, 4);
    const kept = await createTransfer(client, { ...quotes, scenarioId: 4 });
    const gone = await createTransfer(client, { ...emergency, scenarioId: 4 });
    await client.delete(`/v1/transfers/${gone.id}`);
    const items = await queryAll({ pk: `ORG#${organizationId}` });
    expect(items.filter((item) => String(item.sk).startsWith('SCENARIOLINK#')).map((item) => item.sk)).toEqual([`SCENARIOLINK#0000000004#TRANSFER#${String(kept.id).padStart(10, '0')}`]);
    expect(items.find((item) => item.sk === 'SCENARIO#0000000004')?.links).toBe(1);
  });

  it("answers 404 for an unknown rule, one deleted already and another organization's, deleting nothing", async () => {
    const owner = await api.organization();
    const transfer = await createTransfer(owner.client, emergency);
    const { client } = await api.organization();
    expect((await client.delete(`/v1/transfers/${transfer.id}`)).status).toBe(404);
    expect((await owner.client.get(`/v1/transfers/${transfer.id}`)).status).toBe(200);
    expect((await owner.client.delete(`/v1/transfers/${transfer.id}`)).status).toBe(200);
    const again = await owner.client.delete(`/v1/transfers/${transfer.id}`);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe('Transfer rule not found');
  });
});
