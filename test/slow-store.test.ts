import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { writeAlone } from '#shared/store/transact';
import { WRITE_TOKEN_ATTRIBUTE } from '#shared/own-writes';
import { createOrganizationWithKey } from '../infra/demo/organization';
import { organizationKeys } from '../functions/organization/entity';
import { keys } from '#shared/store/keys';
import { useTestApi } from './support/api';
import { tourRoutes, type TourClient } from './support/route-tour';

/**
 * A store that does not answer in time: faults are put into the shared DynamoDB client as a timed-out table answers.
 * A write can land and its answer still be lost; the SDK then sends it again, and a client retries the request.
 */
// The authorizer's answers are cached, as API Gateway caches them, so a fault meets the route's own calls.
const api = useTestApi({ authorizerCacheTtlMs: 60_000 });

const FAULT = 'slowStoreFault';
afterEach(() => void dynamo.middlewareStack.remove(FAULT));

/** What the SDK throws when DynamoDB does not answer within the request timeout; the SDK retries it. */
const timeout = () => Object.assign(new Error('Connection timed out after 3000 ms'), { name: 'TimeoutError', $metadata: {} });

type Step = 'initialize' | 'deserialize';

/**
 * For the calls `matches` picks, the write lands and its answer is lost, `times` times. At `deserialize` the loss is
 * inside the SDK's own retries (the SDK sends the same call again); at `initialize` it is after them (the request fails).
 */
function loseAnswers(matches: (command: string, input: string) => boolean, { step, times = 1 }: { step: Step; times?: number }) {
  const lost: string[] = [];
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const command = String(context.commandName);
      // Inside the SDK's retries the call is its serialized request; before them, its input.
      const { request } = args as { request?: { body?: unknown } };
      const input = request ? String(request.body) : JSON.stringify(args.input);
      if (lost.length >= times || !matches(command, input)) return next(args);
      const result = await next(args);
      lost.push(command);
      throw timeout();
    },
    { step: step as 'initialize', name: FAULT },
  );
  return lost;
}

/** Every call fails as a table that does not answer, before it reaches the table. */
function storeDown() {
  dynamo.middlewareStack.add(
    () => async () => {
      throw timeout();
    },
    { step: 'initialize', name: FAULT },
  );
}

describe('a conditional write the SDK sends again after its answer was lost', () => {
  it('creates an organization whose first Put landed unanswered, rather than failing its own condition', async () => {
    const lost = loseAnswers((command, input) => command === 'PutItemCommand' && input.includes('Slow Store Plumbing'), { step: 'deserialize' });
    const made = await createOrganizationWithKey('Slow Store Plumbing');
    expect(lost).toEqual(['PutItemCommand']);
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.organization(made.organizationId) }));
    expect(Item).toMatchObject({ name: 'Slow Store Plumbing', [WRITE_TOKEN_ATTRIBUTE]: expect.any(String) });
    expect((await api.as(made.apiKey).get('/v1/organization')).body.organization.name).toBe('Slow Store Plumbing');
  });

  it('claims an Idempotency-Key whose claim landed unanswered, rather than answering that the request is still in progress', async () => {
    const { client } = await api.organization();
    await client.get('/v1/companies');
    const lost = loseAnswers((command, input) => command === 'PutItemCommand' && input.includes('IDEMPOTENCY'), { step: 'deserialize' });
    const created = await client.post('/v1/companies', { name: 'Harbour Electrical' }, { headers: { 'Idempotency-Key': 'company-claim-lost' } });
    expect(lost).toEqual(['PutItemCommand']);
    expect(created.status).toBe(201);
    const again = await client.post('/v1/companies', { name: 'Harbour Electrical' }, { headers: { 'Idempotency-Key': 'company-claim-lost' } });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(created.body);
    expect((await client.get('/v1/companies')).body.companies).toHaveLength(1);
  });

  it('counts a limited increment once when its first attempt landed unanswered', async () => {
    const { organizationId } = await api.organization();
    const key = { pk: organizationKeys.organization(organizationId).pk, sk: 'TEST#INCREMENT' };
    const increment = () =>
      writeAlone({
        item: {
          Update: {
            TableName: config.tableName,
            Key: key,
            UpdateExpression: 'ADD #count :one',
            ConditionExpression: 'attribute_not_exists(#count) OR #count < :max',
            ExpressionAttributeNames: { '#count': 'count' },
            ExpressionAttributeValues: { ':one': 1, ':max': 3 },
          },
        },
      });
    const lost = loseAnswers((command, input) => command === 'UpdateItemCommand' && input.includes('TEST#INCREMENT'), { step: 'deserialize' });
    await increment();
    expect(lost).toEqual(['UpdateItemCommand']);
    await increment();
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: true }));
    expect(Item?.count).toBe(2);
  });

  it('still fails a condition another write made false', async () => {
    const { organizationId } = await api.organization();
    const key = { pk: organizationKeys.organization(organizationId).pk, sk: 'TEST#GUARDED' };
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: key, UpdateExpression: 'SET #count = :three', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':three': 3 } }));
    const write = writeAlone({
      item: { Update: { TableName: config.tableName, Key: key, UpdateExpression: 'ADD #count :one', ConditionExpression: '#count < :max', ExpressionAttributeNames: { '#count': 'count' }, ExpressionAttributeValues: { ':one': 1, ':max': 3 } } },
      onConditionFailed: () => new Error('limit reached'),
    });
    await expect(write).rejects.toThrow('limit reached');
  });
});

describe('a transaction DynamoDB cancels because one of its items was throttled', () => {
  /** What the SDK throws for DynamoDB's answer: the transaction cancelled, each item's reason in order, `None` for those that were fine. */
  const cancelled = (codes: string[]) =>
    new TransactionCanceledException({
      message: `Transaction cancelled, please refer cancellation reasons for specific reasons [${codes.join(', ')}]`,
      $metadata: { httpStatusCode: 400 },
      CancellationReasons: codes.map((Code) => ({ Code, ...(Code === 'None' ? {} : { Message: `${Code} on this item` }) })),
    });
  /** The next transaction that writes `marker` is cancelled before it reaches the table, its second item (or its only one) for `code`. */
  function cancelNext(marker: string, code: string) {
    const met: string[] = [];
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const items = (args.input as { TransactItems?: unknown[] }).TransactItems ?? [];
        if (met.length > 0 || context.commandName !== 'TransactWriteItemsCommand' || !JSON.stringify(items).includes(marker)) return next(args);
        met.push(marker);
        throw cancelled(items.map((_, index) => (index === Math.min(1, items.length - 1) ? code : 'None')));
      },
      { step: 'initialize', name: FAULT },
    );
    return met;
  }

  it.each(['ThrottlingError', 'ProvisionedThroughputExceeded', 'RequestLimitExceeded'])('answers 503 STORE_UNAVAILABLE with Retry-After for %s, never 500, and a retry with the same key creates the lead once', async (code) => {
    const { client } = await api.organization();
    await client.get('/v1/leads');
    const headers = { 'Idempotency-Key': `throttled-${code}` };
    const body = { name: 'Noah Park', email: `noah.${code.toLowerCase()}@example.com` };
    // One item throttled among items that were fine.
    const met = cancelNext(body.email, code);
    const first = await client.post('/v1/leads', body, { headers });
    expect(met).toHaveLength(1);
    expect(first.status).toBe(503);
    expect(first.body.error).toMatchObject({ status: 503, code: 'STORE_UNAVAILABLE' });
    expect(Number(first.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    const retried = await client.post('/v1/leads', body, { headers });
    expect(retried.status).toBe(201);
    expect((await client.get('/v1/leads')).body.leads.map((lead: { id: string }) => lead.id)).toEqual([retried.body.lead.id]);
  });

  it('is no 503 when no item was throttled: a transaction cancelled for a conflict with another is tried again and creates the lead', async () => {
    const { client } = await api.organization();
    await client.get('/v1/leads');
    const body = { name: 'Noah Park', email: 'noah.conflict@example.com' };
    const met = cancelNext(body.email, 'TransactionConflict');
    const answer = await client.post('/v1/leads', body);
    expect(met).toHaveLength(1);
    expect(answer.status).toBe(201);
    expect((await client.get('/v1/leads')).body.leads.map((lead: { id: string }) => lead.id)).toEqual([answer.body.lead.id]);
  });
});

describe('a store that does not answer in time', () => {
  it('answers 503 STORE_UNAVAILABLE with Retry-After, never 500, for a read and for a write', async () => {
    const { client } = await api.organization();
    await client.get('/v1/leads');
    storeDown();
    // The retry names the Idempotency-Key only where the route takes one: not on a read.
    for (const [answer, retry] of [[await client.get('/v1/leads'), /outcome is unknown; retry after Retry-After$/], [await client.post('/v1/leads', { name: 'Mia Chen', email: 'mia@example.com' }), /outcome is unknown.*same Idempotency-Key/]] as const) {
      expect(answer.status).toBe(503);
      expect(answer.body.error).toMatchObject({ status: 503, code: 'STORE_UNAVAILABLE' });
      expect(answer.body.message).toMatch(retry);
      expect(Number(answer.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    }
  });

  it('answers the first outcome to a retry with the same Idempotency-Key when the create landed but its answer was lost', async () => {
    const { client } = await api.organization();
    await client.get('/v1/leads');
    const headers = { 'Idempotency-Key': 'lead-answer-lost' };
    const lost = loseAnswers((command, input) => command === 'TransactWriteItemsCommand' && input.includes('Mia'), { step: 'initialize' });
    const first = await client.post('/v1/leads', { name: 'Mia Chen', email: 'mia@example.com' }, { headers });
    expect(lost).toEqual(['TransactWriteItemsCommand']);
    expect(first.status).toBe(503);
    expect(first.body.error.code).toBe('STORE_UNAVAILABLE');

    const retried = await client.post('/v1/leads', { name: 'Mia Chen', email: 'mia@example.com' }, { headers });
    expect(retried.status).toBe(201);
    const list = await client.get('/v1/leads');
    expect(list.body.leads.map((lead: { id: string }) => lead.id)).toEqual([retried.body.lead.id]);
    expect((await client.get(`/v1/leads/${retried.body.lead.id}`)).body.lead).toEqual(retried.body.lead);
    // Kept now: a third send replays it.
    const third = await client.post('/v1/leads', { name: 'Mia Chen', email: 'mia@example.com' }, { headers });
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(third.body).toEqual(retried.body);
  });

  it('answers a lead create retried long after its lost answer with the lead it wrote, not with its own contacts taken', async () => {
    const { client } = await api.organization();
    await client.get('/v1/leads');
    const headers = { 'Idempotency-Key': 'lead-answer-lost-late' };
    const body = { name: 'Noah Patel', email: 'noah@example.com', phone: '+61412345678' };
    loseAnswers((command, input) => command === 'TransactWriteItemsCommand' && input.includes('Noah'), { step: 'initialize' });
    expect((await client.post('/v1/leads', body, { headers })).status).toBe(503);
    const [written] = (await client.get('/v1/leads')).body.leads;
    // Retried a minute on (a store that froze): the retry's records take its own time, its activity another key.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + 60_000);
      const retried = await client.post('/v1/leads', body, { headers });
      expect([retried.status, retried.body.error?.code]).toEqual([201, undefined]);
      expect(retried.body.lead).toEqual((await client.get(`/v1/leads/${written.id}`)).body.lead);
    } finally {
      vi.useRealTimers();
    }
    expect((await client.get('/v1/leads')).body.totalCount).toBe(1);
    expect((await client.get(`/v1/leads/${written.id}/activities`)).body.totalCount).toBe(1);
  });

  it('answers a product create retried after a lost answer with the product, not with its own name taken', async () => {
    const { client } = await api.organization();
    await client.get('/v1/products');
    const headers = { 'Idempotency-Key': 'product-answer-lost' };
    const body = { name: 'Hot water system service', tradeCategoryId: 1, pricingType: 'FIXED', price: 189 };
    loseAnswers((command, input) => command === 'TransactWriteItemsCommand' && input.includes('Hot water system service'), { step: 'initialize' });
    expect((await client.post('/v1/products', body, { headers })).status).toBe(503);
    const retried = await client.post('/v1/products', body, { headers });
    expect(retried.status).toBe(201);
    const list = await client.get('/v1/products');
    expect(list.body.totalCount).toBe(1);
    expect(list.body.products[0].id).toBe(retried.body.product.id);
  });

  it('takes over a claim whose attempt crashed after its draw with the id that attempt drew, and answers the record it wrote', async () => {
    const { client, organizationId } = await api.organization();
    await client.get('/v1/products');
    const key = 'product-attempt-crashed';
    const body = { name: 'Gas heater service', tradeCategoryId: 1, pricingType: 'FIXED', price: 149 };
    // The attempt draws the product's id, its write lands, and then it dies: no answer, and its key's record is never
    // finished (the UNKNOWN mark fails with it), so the claim stays IN_PROGRESS until its lock runs out.
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const input = JSON.stringify(args.input);
        if (context.commandName === 'UpdateItemCommand' && input.includes(':unknown')) throw timeout();
        if (context.commandName !== 'TransactWriteItemsCommand' || !input.includes(body.name)) return next(args);
        await next(args);
        throw timeout();
      },
      { step: 'initialize', name: FAULT },
    );
    expect((await client.post('/v1/products', body, { headers: { 'Idempotency-Key': key } })).status).toBe(503);
    dynamo.middlewareStack.remove(FAULT);
    const claim = { TableName: config.tableName, Key: keys.idempotency(organizationId, key), ConsistentRead: true };
    expect((await dynamo.send(new GetCommand(claim))).Item).toMatchObject({ status: 'IN_PROGRESS' });
    const [written] = (await client.get('/v1/products')).body.products;
    // Another create draws the next id meanwhile, so a retry drawing afresh would take a later one.
    expect((await client.post('/v1/products', { ...body, name: 'Boiler flush' })).body.product.id).toBe(written.id + 1);
    // Its lock runs out, as 30 s after the crash.
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: claim.Key, UpdateExpression: 'SET lockedUntil = :past', ExpressionAttributeValues: { ':past': Date.now() - 1 } }));

    const retried = await client.post('/v1/products', body, { headers: { 'Idempotency-Key': key } });
    expect(retried.status).toBe(201);
    expect(retried.body.product.id).toBe(written.id);
    expect(retried.body.product).toEqual(written);
    expect((await client.get('/v1/products')).body.totalCount).toBe(2);
  });

  it('writes the create once on a retry when the first attempt never reached the table', async () => {
    const { client } = await api.organization();
    await client.get('/v1/companies');
    const headers = { 'Idempotency-Key': 'company-never-written' };
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (context.commandName === 'TransactWriteItemsCommand') throw timeout();
        return next(args);
      },
      { step: 'initialize', name: FAULT },
    );
    expect((await client.post('/v1/companies', { name: 'Ridge Roofing' }, { headers })).status).toBe(503);
    dynamo.middlewareStack.remove(FAULT);
    const retried = await client.post('/v1/companies', { name: 'Ridge Roofing' }, { headers });
    expect(retried.status).toBe(201);
    expect((await client.get(`/v1/companies/${retried.body.company.id}`)).body.company).toEqual(retried.body.company);
    expect((await client.get('/v1/companies')).body.companies).toHaveLength(1);
  });

  it('answers no route 500 while every store call times out', async () => {
    // Every request is sent twice, faster than a starter plan lets through.
    const { client } = await api.organization({ usagePlan: 'internal' });
    const under: string[] = [];
    // Each request is sent first with the store down, then as the tour needs it, so every route meets the fault.
    const faulted = async (send: () => Promise<{ status: number; body: any; headers?: Headers }>, label: string) => {
      storeDown();
      const answer = await send().finally(() => dynamo.middlewareStack.remove(FAULT));
      if (answer.status >= 500) under.push(`${label} ${answer.status} ${answer.body?.error?.code ?? answer.body?.message}`);
      return send();
    };
    const tour: TourClient = {
      get: (path, options) => faulted(() => client.get(path, options), `GET ${path}`),
      post: (path, body, options) => faulted(() => client.post(path, body, options), `POST ${path}`),
      put: (path, body, options) => faulted(() => client.put(path, body, options), `PUT ${path}`),
      patch: (path, body, options) => faulted(() => client.patch(path, body, options), `PATCH ${path}`),
      delete: (path, options) => faulted(() => client.delete(path, options), `DELETE ${path}`),
      queuesIdle: api.queuesIdle,
    };
    await tourRoutes(tour);
    // POST /v1/sms answers its own 503 when its message could not be recorded: nothing recorded, nothing sent.
    const unexpected = under.filter((line) => !/ 503 (STORE_UNAVAILABLE|AUTHORIZER_UNAVAILABLE)$/.test(line) && line !== 'POST /v1/sms 503 SERVICE_UNAVAILABLE');
    expect(unexpected).toEqual([]);
    // The fault was met: most routes touch the table.
    expect(under.length).toBeGreaterThan(50);
  });
});
