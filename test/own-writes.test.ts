import { DeleteCommand, GetCommand, PutCommand, TransactWriteCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { asAttempt, WRITE_TOKEN_ATTRIBUTE } from '#shared/own-writes';
import { useTestApi } from './support/api';

/**
 * The write tokens of a request with an Idempotency-Key (shared/own-writes.ts): each conditional write of it has its
 * own, the same in every attempt, and a retried transaction is taken for its earlier attempt's only when every item it
 * puts is that attempt's.
 */
const api = useTestApi();

const FAULT = 'ownWritesFault';
afterEach(() => void dynamo.middlewareStack.remove(FAULT));

const timeout = () => Object.assign(new Error('Connection timed out after 3000 ms'), { name: 'TimeoutError', $metadata: {} });
type Put = { TableName: string; Item: Record<string, any>; ConditionExpression?: string };
const keyOf = ({ Item }: Put) => ({ pk: Item.pk, sk: Item.sk });
const stored = async (put: Put) => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keyOf(put), ConsistentRead: true }))).Item;

/** A web form's inquiry from a sender no lead has: the lead and the inquiry are written by the one request. */
const newLeadForm = (email: string, phone: string) => ({
  source: 'WEBFORM',
  lead: { name: 'Dee Park', email, phone },
  data: { formName: 'Contact us', fields: [{ name: 'message', label: 'Message', value: 'Leaking tap' }], submittedAt: new Date().toISOString(), pageUrl: 'https://example.com/contact' },
});

describe('the write tokens of a request with an Idempotency-Key', () => {
  it('differ between its writes: a keyed web form from a new sender makes its lead and inquiry, and a retry replays it', async () => {
    const { client } = await api.organization();
    const headers = { 'Idempotency-Key': 'form-new-lead' };
    const form = newLeadForm('dee@example.com', '+61412345671');
    const first = await client.post('/v1/inquiries', form, { headers });
    expect(first.status).toBe(201);
    const again = await client.post('/v1/inquiries', form, { headers });
    expect([again.status, again.headers.get('idempotent-replayed')]).toEqual([first.status, 'true']);
    expect(again.body).toEqual(first.body);
    const { leads } = (await client.get('/v1/leads')).body;
    expect(leads.map((lead: { id: string }) => lead.id)).toEqual([first.body.inquiry.leadId]);
    expect((await client.get('/v1/inquiries')).body.totalCount).toBe(1);
    // Another key, another sender: written as well, with tokens of its own.
    const other = await client.post('/v1/inquiries', newLeadForm('eli@example.com', '+61412345672'), { headers: { 'Idempotency-Key': 'form-new-lead-2' } });
    expect(other.status).toBe(201);
    expect(other.body.inquiry.leadId).not.toBe(first.body.inquiry.leadId);
  });
});

describe('a retried transaction whose items were written before', () => {
  it('gives each item a keyed create puts on a condition a token of its own; a retry that finds one gone answers the lead its first attempt wrote', async () => {
    const { client } = await api.organization();
    await client.get('/v1/leads');
    const body = { name: 'Eve Ng', email: 'eve@example.com', phone: '+61412345690' };
    const headers = { 'Idempotency-Key': 'lead-put-missing' };
    // The create's transaction lands and its answer is lost: the request answers 503.
    const puts: Put[] = [];
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        const input = args.input as { TransactItems?: Array<{ Put?: Put }> };
        if (puts.length > 0 || context.commandName !== 'TransactWriteItemsCommand' || !JSON.stringify(input).includes(body.email)) return next(args);
        await next(args);
        puts.push(...input.TransactItems!.flatMap((item) => (item.Put ? [item.Put] : [])));
        throw timeout();
      },
      { step: 'initialize', name: FAULT },
    );
    expect((await client.post('/v1/leads', body, { headers })).status).toBe(503);
    dynamo.middlewareStack.remove(FAULT);
    // Every item it put on a condition holds a token of its own; then one of them (its activity) is removed.
    const conditional = puts.filter((put) => put.ConditionExpression);
    const tokens = await Promise.all(conditional.map(async (put) => (await stored(put))?.[WRITE_TOKEN_ATTRIBUTE]));
    expect(new Set(tokens).size).toBe(conditional.length);
    expect(tokens.every((token) => typeof token === 'string')).toBe(true);
    const activity = conditional.find((put) => String(put.Item.sk).startsWith('ACTIVITY#'))!;
    await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: keyOf(activity) }));

    const retried = await client.post('/v1/leads', body, { headers });
    const missing = (await Promise.all(puts.map(async (put) => ((await stored(put)) ? [] : [put.Item.sk])))).flat();
    expect(missing).toEqual([activity.Item.sk]);
    // Its own writes are not all there, so the write tokens do not call it applied; the lead's store then finds the
    // contacts held by the lead id every attempt of the request shares, and answers that lead, written once.
    expect([retried.status, retried.body.lead?.id]).toEqual([201, (await stored(puts.find((put) => String(put.Item.sk).startsWith('LEAD#'))!))?.id]);
  });
});

describe('a conditional write sent again by a later attempt of its request', () => {
  const pk = `TEST#OWN#${Date.now()}`;
  const key = (sk: string) => ({ pk, sk });
  const attempt = <T>(seed: string, work: () => Promise<T>) => asAttempt({ seed, startedAtMs: Date.now(), timeAtMs: Date.now(), draws: {} }, work);
  const putNew = (sk: string) => ({ Put: { TableName: config.tableName, Item: { ...key(sk), n: 1 }, ConditionExpression: 'attribute_not_exists(pk)' } });
  // An update whose expression sets after another clause: the token is set within its SET.
  const bump = (sk: string) => ({ Update: { TableName: config.tableName, Key: key(sk), UpdateExpression: 'ADD #n :one SET #at = :at', ConditionExpression: 'attribute_exists(pk)', ExpressionAttributeNames: { '#n': 'n', '#at': 'at' }, ExpressionAttributeValues: { ':one': 1, ':at': 'now' } } });
  const transaction = (...items: Record<string, unknown>[]) => dynamo.send(new TransactWriteCommand({ TransactItems: items as never }));

  it('in a transaction is its own earlier attempt only when every failed condition met that attempt’s own items', async () => {
    await dynamo.send(new PutCommand({ TableName: config.tableName, Item: key('BUMPED') }));
    // A put with no condition rides along untagged.
    const first = () => transaction(putNew('A'), bump('BUMPED'), { Put: { TableName: config.tableName, Item: key('PLAIN') } });
    await attempt('request-1', first);
    // The same request again: every condition meets its own items, so it was applied.
    await expect(attempt('request-1', first)).resolves.toBeDefined();
    expect((await dynamo.send(new GetCommand({ TableName: config.tableName, Key: key('BUMPED'), ConsistentRead: true }))).Item).toMatchObject({ n: 1, at: 'now' });
    // Another request sending the same items meets items that are not its own.
    await expect(attempt('request-2', first)).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    // The same request, but a condition failing on an item it never wrote (a check of an item that is not there).
    const check = { ConditionCheck: { TableName: config.tableName, Key: key('ABSENT'), ConditionExpression: 'attribute_exists(pk)' } };
    await expect(attempt('request-1', () => transaction(putNew('A'), bump('BUMPED'), check))).rejects.toMatchObject({ name: 'TransactionCanceledException' });
  });

  it('in a transaction is no earlier attempt of its own when one of the items that attempt put is gone', async () => {
    const both = () => transaction(putNew('KEPT'), putNew('GONE'));
    await attempt('request-gone', both);
    await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: key('GONE') }));
    // Its one failed condition met its own item, but the other put went through: the first attempt is not all there.
    await expect(attempt('request-gone', both)).rejects.toMatchObject({ name: 'TransactionCanceledException' });
    expect((await dynamo.send(new GetCommand({ TableName: config.tableName, Key: key('GONE'), ConsistentRead: true }))).Item).toBeUndefined();
  });

  it('alone answers what the write would have, the item as it stands when asked for', async () => {
    const update = (returnValues?: 'ALL_NEW' | 'NONE') => () =>
      dynamo.send(new UpdateCommand({ ...bump('SINGLE').Update, ReturnValues: returnValues }));
    await dynamo.send(new PutCommand({ TableName: config.tableName, Item: key('SINGLE') }));
    expect((await attempt('single-1', update('ALL_NEW'))).Attributes).toMatchObject({ n: 1, at: 'now' });
    // Sent again by the same request: applied before, and answered with the item, not counted twice.
    expect((await attempt('single-1', update('ALL_NEW'))).Attributes).toMatchObject({ n: 1, at: 'now' });
    expect((await attempt('single-1', update('NONE'))).Attributes).toBeUndefined();
    expect((await attempt('single-1', update())).Attributes).toBeUndefined();
    await expect(attempt('single-2', update('ALL_NEW'))).resolves.toMatchObject({ Attributes: { n: 2 } });
  });
});
