import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMember } from '../organization/member-rules';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '#shared/dynamo';
import { config } from '#shared/config';
import { keys } from '#shared/store/keys';
import { logger } from '#shared/observability';
import { localReceiptsApplied, sentLocally } from './local-provider';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { sentAsAClientRetries, useTestApi, type Client } from '../../test/support/api';

/**
 * How POST /v1/sms records its message when the store is slow or busy: a write whose answer is lost may have
 * committed, and sends to one lead contend for it. Faults are put into the shared DynamoDB client, as a timed-out or
 * throttled table would answer.
 */
const api = useTestApi();

const FAULT = 'smsRecordFault';
afterEach(() => {
  dynamo.middlewareStack.remove(FAULT);
  dynamo.middlewareStack.remove('failAbandonMark');
  dynamo.middlewareStack.remove(TRIES);
  vi.restoreAllMocks();
});

let phones = 0;

/** An organization with one member and one lead whose phone no other test texts. */
async function sender(): Promise<{ client: Client; organizationId: string; userId: string; leadId: string; phone: string }> {
  const { client, organizationId } = await api.organization();
  const member = await createMember(organizationId, { role: 'MEMBER', firstName: 'Priya', lastName: 'Sharma', email: 'priya@example.com.au' });
  const phone = `+614123460${String(++phones).padStart(2, '0')}`;
  const lead = await client.post('/v1/leads', { name: 'Olivia Nguyen', phone });
  return { client, organizationId, userId: member.user.id, leadId: lead.body.lead.id, phone };
}

/** What the SDK throws when DynamoDB does not answer within the request timeout (after its own attempts). */
const timeout = () => Object.assign(new Error('Connection timed out after 3000 ms'), { name: 'TimeoutError' });

/** The cancellation DynamoDB answers a transaction that met another one writing the same item: nothing was written. */
const conflict = (items: number) =>
  new TransactionCanceledException({
    message: 'Transaction cancelled, please refer cancellation reasons for specific reasons [TransactionConflict]',
    $metadata: {},
    CancellationReasons: Array.from({ length: items }, (_, i) => ({ Code: i === 0 ? 'TransactionConflict' : 'None' })),
  });

type Fault = 'after-commit' | 'before-commit' | 'conflict' | 'held';

/**
 * Faults the transaction that records a message (it holds the message's body; its status moves later do not), as
 * `faultOf` says for that body and the how-many-th time it is written: the write lands and its answer is lost, or it
 * never reaches the table, or it meets another transaction, or it is held on its way (the send times out) until the
 * test lets it go on: answers the writes held.
 */
function faultRecording(faultOf: (body: string, time: number) => Fault | undefined): Array<() => Promise<unknown>> {
  const held: Array<() => Promise<unknown>> = [];
  const times = new Map<string, number>();
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const input = JSON.stringify(args.input);
      const body = context.commandName === 'TransactWriteItemsCommand' && input.includes('"QUEUED"') ? /"body":(?:\{"S":)?"([^"]*)"/.exec(input)?.[1] : undefined;
      if (body === undefined) return next(args);
      const time = (times.get(body) ?? 0) + 1;
      times.set(body, time);
      const fault = faultOf(body, time);
      if (fault === 'before-commit') throw timeout();
      if (fault === 'conflict') throw conflict((args.input as { TransactItems: unknown[] }).TransactItems.length);
      if (fault === 'held') {
        held.push(() => next(args));
        throw timeout();
      }
      const result = await next(args);
      if (fault === 'after-commit') throw timeout();
      return result;
    },
    { step: 'initialize', name: FAULT },
  );
  return held;
}

const TRIES = 'smsRecordTries';

/** How often each message is written, by its body: each transaction putting a message of that status (QUEUED: a send's, RECEIVED: a reply's). */
function countRecordings(status: 'QUEUED' | 'RECEIVED'): Map<string, number> & { calls: Map<string, number> } {
  const tries = Object.assign(new Map<string, number>(), { calls: new Map<string, number>() });
  dynamo.middlewareStack.add(
    (next, context) => async (args) => {
      const input = JSON.stringify(args.input);
      const body = context.commandName === 'TransactWriteItemsCommand' && input.includes(`"${status}"`) ? /"body":(?:\{"S":)?"([^"]*)"/.exec(input)?.[1] : undefined;
      if (body !== undefined) tries.set(body, (tries.get(body) ?? 0) + 1);
      const command = String(context.commandName);
      tries.calls.set(command, (tries.calls.get(command) ?? 0) + 1);
      return next(args);
    },
    { step: 'initialize', name: TRIES },
  );
  return tries;
}

const sentWith = (body: string) => sentLocally.filter((sms) => sms.body === body);

describe('POST /v1/sms when the write that records the message times out', () => {
  it('answers the recorded message when the write committed and only its answer was lost, and a retry with the same Idempotency-Key sends nothing again', async () => {
    const { client, userId, leadId } = await sender();
    const message = `Committed, answer lost ${leadId}`;
    faultRecording((body, time) => (body === message && time === 1 ? 'after-commit' : undefined));
    const key = { headers: { 'Idempotency-Key': `lost-answer-${leadId}` } };

    const first = await client.post('/v1/sms', { userId, leadId, message }, key);
    expect(first.status).toBe(201);
    expect(first.body.sms).toMatchObject({ body: message, leadId, status: expect.stringMatching(/^(QUEUED|SENT|DELIVERED)$/) });
    expect(sentWith(message)).toHaveLength(1);
    expect((await client.get(`/v1/sms/${first.body.sms.id}`)).status).toBe(200);
    expect((await client.get(`/v1/inquiries?leadId=${leadId}`)).body.totalCount).toBe(1);

    const retried = await client.post('/v1/sms', { userId, leadId, message }, key);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body.sms.id).toBe(first.body.sms.id);
    expect(sentWith(message)).toHaveLength(1);
    expect((await client.get(`/v1/sms?leadId=${leadId}`)).body.totalCount).toBe(1);
  });

  it('writes again a message whose write never reached the table, and sends it once', async () => {
    const { client, userId, leadId } = await sender();
    const message = `Lost before the table ${leadId}`;
    faultRecording((body, time) => (body === message && time === 1 ? 'before-commit' : undefined));
    const res = await client.post('/v1/sms', { userId, leadId, message });
    expect(res.status).toBe(201);
    expect(sentWith(message)).toHaveLength(1);
    expect((await client.get(`/v1/sms?leadId=${leadId}`)).body.messages.map((sms: { id: string }) => sms.id)).toEqual([res.body.sms.id]);
  });

  it('answers 503 with Retry-After, having recorded and sent nothing, while the table never answers; the retry with the same Idempotency-Key sends it once', async () => {
    const { client, userId, leadId } = await sender();
    const message = `Table down ${leadId}`;
    let down = true;
    faultRecording((body) => (body === message && down ? 'before-commit' : undefined));
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const key = { headers: { 'Idempotency-Key': `table-down-${leadId}` } };

    const refused = await client.post('/v1/sms', { userId, leadId, message }, key);
    expect(refused.status).toBe(503);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.body.error).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE' });
    expect(sentWith(message)).toEqual([]);
    expect((await client.get(`/v1/inquiries?leadId=${leadId}`)).body.totalCount).toBe(0);

    down = false;
    const retried = await client.post('/v1/sms', { userId, leadId, message }, key);
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(sentWith(message)).toHaveLength(1);
    expect((await client.get(`/v1/inquiries?leadId=${leadId}`)).body.totalCount).toBe(1);
  });

  it('never lets a write of a message answered 503 land later: a write still on its way when the send gave up records nothing', async () => {
    const { client, userId, leadId } = await sender();
    const message = `Still on its way ${leadId}`;
    const held = faultRecording((body) => (body === message ? 'held' : undefined));
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);

    const refused = await client.post('/v1/sms', { userId, leadId, message });
    expect(refused.status).toBe(503);
    expect(held.length).toBeGreaterThan(0);
    // Every try the send made reaches the table only now, after its answer: none of them lands.
    const landed = await Promise.allSettled(held.map((write) => write()));
    expect(landed.map((outcome) => outcome.status)).toEqual(held.map(() => 'rejected'));
    expect((await client.get(`/v1/inquiries?leadId=${leadId}`)).body.totalCount).toBe(0);
    expect((await client.get(`/v1/sms?leadId=${leadId}`)).body.totalCount).toBe(0);
    expect(sentWith(message)).toEqual([]);
  });

  it('records and sends once when a later attempt of a send it gave up (its Idempotency-Key’s claim left behind, so the same ids) meets the mark that gave it up', async () => {
    const { client, userId, leadId, organizationId } = await sender();
    const message = `Given up, claim kept ${leadId}`;
    const idempotencyKey = `claim-kept-${leadId}`;
    let down = true;
    faultRecording((body) => (body === message && down ? 'before-commit' : undefined));
    // The key's release is not written either: its claim stays until its lock runs out.
    let releasing = true;
    let releases = 0;
    dynamo.middlewareStack.add(
      (next, context) => async (args) => {
        if (String(context.commandName).startsWith('Delete') && JSON.stringify(args.input).includes(`IDEMPOTENCY#${idempotencyKey}`)) {
          releases++;
          if (releasing) throw timeout();
        }
        return next(args);
      },
      { step: 'initialize', name: 'failAbandonMark' },
    );
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    vi.spyOn(logger, 'warn').mockImplementation(() => undefined);
    const key = { headers: { 'Idempotency-Key': idempotencyKey } };

    const refused = await client.post('/v1/sms', { userId, leadId, message }, key);
    expect([refused.status, refused.body.error.code]).toEqual([503, 'SERVICE_UNAVAILABLE']);
    expect(releases).toBe(1);
    [down, releasing] = [false, false];
    // The claim's lock runs out (its 30 s, as if passed).
    await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: keys.idempotency(organizationId, idempotencyKey), UpdateExpression: 'SET lockedUntil = :past', ExpressionAttributeValues: { ':past': 0 } }));

    const retried = await client.post('/v1/sms', { userId, leadId, message }, key);
    expect(retried.status).toBe(201);
    expect(sentWith(message)).toHaveLength(1);
    expect((await client.get(`/v1/inquiries?leadId=${leadId}`)).body.totalCount).toBe(1);
    expect((await client.get(`/v1/sms?leadId=${leadId}`)).body.messages.map((sms: { id: string }) => sms.id)).toEqual([retried.body.sms.id]);
  });

  it('answers 503 STORE_UNAVAILABLE when the store takes neither the message nor the mark that gives it up; a try that lands after is met by the retry with the same Idempotency-Key, one inquiry, sent once', async () => {
    const { client, userId, leadId } = await sender();
    const message = `Unmarked ${leadId}`;
    const held = faultRecording((body) => (body === message ? 'held' : undefined));
    // The mark that would keep a late try from landing is not written either.
    let marking = true;
    dynamo.middlewareStack.add(
      (next) => async (args) => {
        if (marking && JSON.stringify(args.input).includes('ABANDONED_SMS')) throw timeout();
        return next(args);
      },
      { step: 'initialize', name: 'failAbandonMark' },
    );
    vi.spyOn(logger, 'error').mockImplementation(() => undefined);
    const key = { headers: { 'Idempotency-Key': `unmarked-${leadId}` } };

    const refused = await client.post('/v1/sms', { userId, leadId, message }, key);
    expect([refused.status, refused.body.error.code]).toEqual([503, 'STORE_UNAVAILABLE']);
    expect(sentWith(message)).toEqual([]);
    // Its tries reach the table only now: the first lands, the rest meet it.
    dynamo.middlewareStack.remove(FAULT);
    marking = false;
    const landed = await Promise.allSettled(held.map((write) => write()));
    expect(landed.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
    expect((await client.get(`/v1/inquiries?leadId=${leadId}`)).body.totalCount).toBe(1);

    const retried = await client.post('/v1/sms', { userId, leadId, message }, key);
    expect(retried.status).toBe(201);
    expect((await client.get(`/v1/inquiries?leadId=${leadId}`)).body.totalCount).toBe(1);
    expect((await client.get(`/v1/sms?leadId=${leadId}`)).body.messages.map((sms: { id: string }) => sms.id)).toEqual([retried.body.sms.id]);
    expect(sentWith(message)).toHaveLength(1);
  });

  it('queues a send behind writes to its lead that conflict longer than the store retries a transaction, rather than refuse it', async () => {
    const { client, userId, leadId } = await sender();
    const message = `Busy lead ${leadId}`;
    // One more conflict than a transaction is retried for on its own (shared/store/transact.ts).
    faultRecording((body, time) => (body === message && time <= 6 ? 'conflict' : undefined));
    const res = await client.post('/v1/sms', { userId, leadId, message });
    expect(res.status).toBe(201);
    expect(sentWith(message)).toHaveLength(1);
  });
});

describe('POST /v1/sms: 30 sends at once opening threads with one new lead', () => {
  it('answers each 201, every one waiting its turn on the lead, and records each once, in a thread and SMS inquiry of its own, sent once', async () => {
    const { client, userId, leadId, phone } = await sender();
    const bodies = Array.from({ length: 30 }, (_, i) => `Opening ${i} of 30 to ${leadId}`);
    // A third of the writes land and lose their answer, a third never reach the table on their first try: as under a
    // loaded table, on top of the thirty contending for the one lead.
    faultRecording((body, time) => {
      const i = bodies.indexOf(body);
      if (i < 0 || time > 1) return undefined;
      return i % 3 === 0 ? 'after-commit' : i % 3 === 1 ? 'before-commit' : undefined;
    });

    // Each as a client sends it: with its Idempotency-Key, again after a 503 (a send that could not take its turn on the
    // busy lead within its time, having recorded and sent nothing).
    const answers = await Promise.all(bodies.map((message, i) => sentAsAClientRetries(() => client.post('/v1/sms', { userId, leadId, message }, { headers: { 'Idempotency-Key': `opening-${i}-${leadId}` } }))));
    expect(answers.map((res) => res.status)).toEqual(bodies.map(() => 201));
    const sent = answers.map((res) => res.body.sms);

    // Every message is stored once, and is the only one of its thread and SMS inquiry.
    const listed = (await client.get(`/v1/sms?leadId=${leadId}&limit=100`)).body;
    expect(listed.messages.map((sms: { id: string }) => sms.id).sort()).toEqual(sent.map((sms) => sms.id).sort());
    expect(listed.totalCount).toBe(30);
    expect(new Set(sent.map((sms) => sms.messageThreadId)).size).toBe(30);
    const inquiries = (await client.get(`/v1/inquiries?leadId=${leadId}&limit=100`)).body;
    expect(inquiries.totalCount).toBe(30);
    expect(inquiries.inquiries.map((inquiry: { id: string }) => inquiry.id).sort()).toEqual(sent.map((sms) => sms.inquiryId).sort());
    expect(inquiries.inquiries.filter((inquiry: { isFirstInquiry: boolean }) => inquiry.isFirstInquiry)).toHaveLength(1);
    for (const sms of sent) {
      const thread = (await client.get(`/v1/sms?messageThreadId=${sms.messageThreadId}`)).body;
      expect(thread.messages.map((message: { id: string }) => message.id)).toEqual([sms.id]);
    }
    expect((await client.get(`/v1/leads/${leadId}`)).body.lead.lastInquiryId).toBe(inquiries.inquiries[0].id);
    // Each was handed to the provider exactly once.
    expect(sentLocally.filter((sms) => sms.to === phone).map((sms) => sms.messageId).sort()).toEqual(sent.map((sms) => sms.id).sort());
  });

  it('writes each message at most three times however many sends share the lead: on what it read, after the first inquiry landed, after a later one did', async () => {
    const { client, userId, leadId } = await sender();
    const bodies = Array.from({ length: 30 }, (_, i) => `Turn ${i} of 30 to ${leadId}`);
    const tries = countRecordings('QUEUED');
    let answers: Awaited<ReturnType<Client['post']>>[] = [];
    // How many times the client sent each: again after a 503, as a client does (the bound is per request).
    const sends = new Map<string, number>();
    const calls = await countDynamoCalls(async () => {
      answers = await Promise.all(
        bodies.map((message, i) =>
          sentAsAClientRetries(() => {
            sends.set(message, (sends.get(message) ?? 0) + 1);
            return client.post('/v1/sms', { userId, leadId, message }, { headers: { 'Idempotency-Key': `turn-${i}-${leadId}` } });
          }),
        ),
      );
    });
    expect(answers.map((res) => res.status)).toEqual(bodies.map(() => 201));
    expect(bodies.map((body) => tries.get(body) ?? 0).filter((count, i) => count < 1 || count > 3 * sends.get(bodies[i]!)!)).toEqual([]);
    // Its reads: the parties' BatchGetItem, at most two reads of the lead between its writes, and a read back of a
    // message a receipt moved before its SENT mark. (Its other writes, the SENT mark and the carrier's receipt, meet
    // no other send.)
    const requests = [...sends.values()].reduce((sum, count) => sum + count, 0);
    const per = (command: string) => calls.filter((call) => call === command).length / requests;
    expect(per('BatchGetItemCommand')).toBe(1);
    expect(per('GetItemCommand')).toBeLessThanOrEqual(3);
    expect(per('QueryCommand')).toBe(0);
    const inquiries = (await client.get(`/v1/inquiries?leadId=${leadId}&limit=100`)).body;
    expect(inquiries.totalCount).toBe(30);
    expect(inquiries.inquiries.filter((inquiry: { isFirstInquiry: boolean }) => inquiry.isFirstInquiry)).toHaveLength(1);
    expect((await client.get(`/v1/leads/${leadId}`)).body.lead.lastInquiryId).toBe(inquiries.inquiries[0].id);
  });
});

describe('texts from one lead at once, as the provider delivers them', () => {
  it('records all 30 in the lead’s thread, in the provider’s order, in its one inquiry, each written at most twice', async () => {
    const { client, userId, leadId, phone } = await sender();
    const number = `+6129999${String(++phones).padStart(4, '0')}`;
    expect((await client.patch('/v1/organization', { smsSenderId: number })).status).toBe(200);
    const opened = await client.post('/v1/sms', { userId, leadId, message: 'Can we come at 10?' });
    await localReceiptsApplied([opened.body.sms.id]);
    const bodies = Array.from({ length: 30 }, (_, i) => `Reply ${i} of 30 from ${leadId}`);
    const tries = countRecordings('RECEIVED');

    const answers = await Promise.all(
      bodies.map((body) => fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: phone, to: number, body }) })),
    );
    expect(answers.map((res) => res.status)).toEqual(bodies.map(() => 202));
    // The first reply makes the read thread unread; the others meet that once at most, and then write as they are.
    expect(bodies.map((body) => tries.get(body) ?? 0).filter((count) => count < 1 || count > 2)).toEqual([]);
    // Per text: the number's claim, and for each of its (at most two) writes the phone's claim and its lead, and the
    // lead's latest thread.
    const per = (command: string) => (tries.calls.get(command) ?? 0) / bodies.length;
    expect(per('GetItemCommand')).toBeLessThanOrEqual(1 + 2 * 2);
    expect(per('QueryCommand')).toBeLessThanOrEqual(2);
    expect([...tries.calls.keys()].sort()).toEqual(['GetItemCommand', 'QueryCommand', 'TransactWriteItemsCommand']);

    const inquiries = (await client.get(`/v1/inquiries?leadId=${leadId}`)).body;
    expect(inquiries.totalCount).toBe(1);
    const messages: Array<{ id: string; body: string; createdAt: string; direction: string }> = (await client.get(`/v1/inquiries/${opened.body.sms.inquiryId}`)).body.data.messages;
    expect(messages).toHaveLength(31);
    expect(messages[0]!.id).toBe(opened.body.sms.id);
    expect(messages.slice(1).map((message) => message.body).sort()).toEqual([...bodies].sort());
    // In the provider's order: by the time it received each, ties by id.
    const byTime = [...messages].sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    expect(messages.map((message) => message.id)).toEqual(byTime.map((message) => message.id));
    expect((await client.get(`/v1/sms?messageThreadId=${opened.body.sms.messageThreadId}&limit=100`)).body.totalCount).toBe(31);
    expect((await client.get(`/v1/leads/${leadId}`)).body.lead.unreadSMS).toBe(1);
    // The thread its member opened was read; the replies moved it to the unread lists once.
    const unread = (await client.get('/v1/inquiries?isRead=false&source=SMS')).body;
    expect([unread.totalCount, idsOf(unread)]).toEqual([1, [opened.body.sms.inquiryId]]);
    expect((await client.get('/v1/inquiries?isRead=true')).body).toMatchObject({ inquiries: [], totalCount: 0 });
  });
});

const idsOf = (body: { inquiries: Array<{ id: string }> }) => body.inquiries.map((inquiry) => inquiry.id);
