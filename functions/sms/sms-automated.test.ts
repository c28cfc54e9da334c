import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { newId } from '#shared/ids';
import { requireExisting, type TransactWrite } from '#shared/store/transact';
import { AUTOMATED_SMS_ACCESS, notifyMember, sendAutomatedSms, type AutomatedSms } from './automated';
import { automationWorkers } from '../automations/engine/channels';
import { applyReceipt } from './receipts';
import { providerContext } from './provider-context';
import { smsKeys } from './entity';
import { localReceiptsApplied, sentLocally } from './local-provider';
import { SmsDeliveryError } from './delivery-error';
import { setSmsSender, type SmsSender } from './sender';
import { abandonSms } from './store';
import { setPhoneOptOut } from './reply-store';
import { TTL_ATTRIBUTE } from '#shared/table';
import { useTestApi, type Client } from '../../test/support/api';
import { senderOrganizations } from '../../test/support/sms';
import { withSilentProvider } from '../../test/support/silent-sms';

/**
 * An automation's SMS to a lead (functions/sms/automated.ts), called as the automation's step calls it, against the
 * local API's table: recorded once under the id its step derives, sent through the organization's sender as POST
 * /v1/sms sends, with the step's own writes in the record's transaction.
 */
const api = useTestApi();
const organizationWithSender = senderOrganizations(api);

let phones = 0;
/** An organization with a member, and a lead whose phone no other test of this file texts. */
async function organizationWithLead() {
  const phone = `+614123470${String(++phones).padStart(2, '0')}`;
  return { ...(await organizationWithSender(phone)), phone };
}

const sentTo = (phone: string) => sentLocally.filter((sms) => sms.to === phone);

const automated = (organizationId: string, leadId: string, fields: Partial<AutomatedSms> = {}): AutomatedSms => ({
  organizationId,
  leadId,
  messageId: newId('message'),
  body: 'Sorry we missed your call, Olivia. Reply here and we will call you back.',
  automationRunId: newId('run'),
  ...fields,
});

async function messagesOf(client: Client, leadId: string) {
  return (await client.get(`/v1/sms?leadId=${leadId}&limit=100`)).body;
}

/** A count the step keeps beside the message (as the daily cap does): ADD 1 while it is below `cap`. */
const countBelow = (organizationId: string, name: string, cap: number): TransactWrite => ({
  item: {
    Update: {
      TableName: config.tableName,
      Key: { pk: `ORG#${organizationId}#TESTCOUNT`, sk: name },
      UpdateExpression: 'ADD #count :one',
      ConditionExpression: 'attribute_not_exists(#count) OR #count < :cap',
      ExpressionAttributeNames: { '#count': 'count' },
      ExpressionAttributeValues: { ':one': 1, ':cap': cap },
    },
  },
});

async function countOf(organizationId: string, name: string) {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: { pk: `ORG#${organizationId}#TESTCOUNT`, sk: name }, ConsistentRead: true }));
  return Item?.count;
}

/** Puts a sender in for the test; `afterEach` puts the previous one back. */
const senders: SmsSender[] = [];
const useSender = (sender: SmsSender) => senders.push(setSmsSender(sender));
afterEach(() => senders.splice(0).reverse().forEach((previous) => setSmsSender(previous)));

describe('sendAutomatedSms', () => {
  it('records the message once under its id, with no user and the run that sent it, and sends it to the lead from the organization’s sender', async () => {
    const { client, organizationId, leadId, phone } = await organizationWithLead();
    expect((await client.patch('/v1/organization', { smsSenderId: 'Plumbers' })).status).toBe(200);
    const sms = automated(organizationId, leadId);

    const outcome = await sendAutomatedSms(sms);
    expect(outcome).toEqual({ sent: true, smsId: sms.messageId, status: expect.stringMatching(/^(SENT|DELIVERED)$/) });
    expect(sentTo(phone)).toMatchObject([{ messageId: sms.messageId, body: sms.body, from: 'Plumbers', userId: null }]);
    await localReceiptsApplied([sms.messageId]);

    const shown = (await client.get(`/v1/sms/${sms.messageId}`)).body.sms;
    expect(shown).toMatchObject({ id: sms.messageId, direction: 'OUTBOUND', status: 'DELIVERED', body: sms.body, leadId, userId: null, automationRunId: sms.automationRunId });
    // A lead without a thread gets one: an SMS inquiry holding the message, as POST /v1/sms opens.
    const inquiries = (await client.get(`/v1/inquiries?leadId=${leadId}`)).body.inquiries;
    expect(inquiries).toMatchObject([{ id: shown.inquiryId, source: 'SMS', sourceId: shown.messageThreadId }]);
  });

  it('joins the lead’s latest thread, where their replies go, rather than open another', async () => {
    const { client, organizationId, userId, leadId } = await organizationWithLead();
    const first = (await client.post('/v1/sms', { userId, leadId, message: 'We can come Tuesday at 9.' })).body.sms;
    const sms = automated(organizationId, leadId);

    expect(await sendAutomatedSms(sms)).toMatchObject({ sent: true, smsId: sms.messageId });
    const listed = await messagesOf(client, leadId);
    expect(listed.messages.map((message: { id: string; messageThreadId: string; userId: string | null }) => [message.id, message.messageThreadId, message.userId])).toEqual([
      [sms.messageId, first.messageThreadId, null],
      [first.id, first.messageThreadId, userId],
    ]);
    expect((await client.get(`/v1/inquiries?leadId=${leadId}`)).body.totalCount).toBe(1);
  });

  it('called again with the same id answers the message as it stands and does not send it again', async () => {
    const { client, organizationId, leadId, phone } = await organizationWithLead();
    const sms = automated(organizationId, leadId);

    const first = await sendAutomatedSms(sms);
    await localReceiptsApplied([sms.messageId]);
    const again = await sendAutomatedSms(sms);
    expect(first).toMatchObject({ sent: true, smsId: sms.messageId });
    expect(again).toEqual({ sent: true, smsId: sms.messageId, status: 'DELIVERED' });
    expect(sentTo(phone).map((sent) => sent.messageId)).toEqual([sms.messageId]);
    expect((await messagesOf(client, leadId)).totalCount).toBe(1);
  });

  it('sends once when two calls with one id run at once, both joining the lead’s thread', async () => {
    const { client, organizationId, userId, leadId, phone } = await organizationWithLead();
    const opened = (await client.post('/v1/sms', { userId, leadId, message: 'We can come Tuesday at 9.' })).body.sms;
    const sms = automated(organizationId, leadId);

    const outcomes = await Promise.all([sendAutomatedSms(sms), sendAutomatedSms(sms)]);
    expect(outcomes.map((outcome) => outcome.smsId)).toEqual([sms.messageId, sms.messageId]);
    expect(outcomes.filter((outcome) => outcome.sent)).not.toHaveLength(0);
    expect(sentTo(phone).map((sent) => sent.messageId)).toEqual([opened.id, sms.messageId]);
    expect((await messagesOf(client, leadId)).totalCount).toBe(2);
  });

  it('refuses a lead who replied STOP: nothing recorded, nothing sent', async () => {
    const { client, organizationId, leadId, phone } = await organizationWithLead();
    const number = `+612999910${String(phones).padStart(2, '0')}`;
    expect((await client.patch('/v1/organization', { smsSenderId: number })).status).toBe(200);
    const stop = await fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from: phone, to: number, body: 'STOP' }) });
    expect(stop.status).toBe(202);
    const sentBefore = sentTo(phone).length;

    expect(await sendAutomatedSms(automated(organizationId, leadId))).toEqual({ sent: false, refusal: 'OPTED_OUT' });
    expect(sentTo(phone)).toHaveLength(sentBefore);
    expect((await messagesOf(client, leadId)).messages.map((message: { direction: string }) => message.direction)).toEqual(['INBOUND']);
  });

  it('refuses a phone opted out after its lead was read (the record’s transaction checks it): nothing recorded, nothing sent', async () => {
    const { client, organizationId, leadId, phone } = await organizationWithLead();
    // The phone's opt-out alone, as a STOP landing between the lead's read and the record's write leaves it.
    await setPhoneOptOut(organizationId, phone, true, new Date().toISOString());

    expect(await sendAutomatedSms(automated(organizationId, leadId))).toEqual({ sent: false, refusal: 'OPTED_OUT' });
    expect(sentTo(phone)).toEqual([]);
    expect((await messagesOf(client, leadId)).totalCount).toBe(0);
  });

  it('writes the step’s own writes in the record’s transaction, and a failed condition answers its refusal with nothing recorded or sent', async () => {
    const { client, organizationId, leadId, phone } = await organizationWithLead();
    const capped = (refusal: string) => ({ write: countBelow(organizationId, leadId, 1), refusal });

    const first = automated(organizationId, leadId, { also: [capped('DAILY_CAP_REACHED')] });
    expect(await sendAutomatedSms(first)).toMatchObject({ sent: true, smsId: first.messageId });
    expect(await countOf(organizationId, leadId)).toBe(1);

    const second = automated(organizationId, leadId, { also: [capped('DAILY_CAP_REACHED')] });
    expect(await sendAutomatedSms(second)).toEqual({ sent: false, refusal: 'DAILY_CAP_REACHED' });
    const run = automated(organizationId, leadId, { also: [{ write: requireExisting({ pk: `ORG#${organizationId}#RUN#run_gone`, sk: 'RUN' }, () => new Error('unused')), refusal: 'RUN_ENDED' }] });
    expect(await sendAutomatedSms(run)).toEqual({ sent: false, refusal: 'RUN_ENDED' });

    expect(await countOf(organizationId, leadId)).toBe(1);
    expect(sentTo(phone).map((sent) => sent.messageId)).toEqual([first.messageId]);
    expect((await messagesOf(client, leadId)).messages.map((message: { id: string }) => message.id)).toEqual([first.messageId]);
    // Nothing of the refused ones is kept: their ids are free.
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: smsKeys.automatedSms(organizationId, second.messageId), ConsistentRead: true }));
    expect(Item).toBeUndefined();
  });

  it('records a message the provider refused FAILED, and a second call does not try the provider again', async () => {
    const { client, organizationId, leadId } = await organizationWithLead();
    let tries = 0;
    useSender({
      name: 'refusing',
      send: async () => {
        tries++;
        throw new SmsDeliveryError('SMS provider refused the message: ValidationException');
      },
    });
    const sms = automated(organizationId, leadId);

    expect(await sendAutomatedSms(sms)).toEqual({ sent: false, refusal: 'FAILED', smsId: sms.messageId });
    expect(await sendAutomatedSms(sms)).toEqual({ sent: false, refusal: 'FAILED', smsId: sms.messageId });
    expect(tries).toBe(1);
    expect((await client.get(`/v1/sms/${sms.messageId}`)).body.sms).toMatchObject({ status: 'FAILED', automationRunId: sms.automationRunId });
  });

  it('takes back an id given up a minute or more ago (the store did not take its record in time), and refuses one given up just now', async () => {
    const { client, organizationId, leadId, phone } = await organizationWithLead();
    const recent = automated(organizationId, leadId);
    await abandonSms(organizationId, recent.messageId);
    expect(await sendAutomatedSms(recent)).toEqual({ sent: false, refusal: 'NOT_RECORDED' });
    expect(sentTo(phone)).toEqual([]);

    const earlier = automated(organizationId, leadId);
    const givenUpAt = Math.floor(Date.now() / 1000) - 61;
    await dynamo.send(new PutCommand({ TableName: config.tableName, Item: { ...smsKeys.abandonedSms(organizationId, earlier.messageId), entity: 'ABANDONED_SMS', [TTL_ATTRIBUTE]: givenUpAt + 86_400 } }));
    expect(await sendAutomatedSms(earlier)).toMatchObject({ sent: true, smsId: earlier.messageId });
    expect(sentTo(phone).map((sent) => sent.messageId)).toEqual([earlier.messageId]);
    expect((await messagesOf(client, leadId)).messages.map((message: { id: string }) => message.id)).toEqual([earlier.messageId]);
  });

  it('refuses a lead that does not exist, and one without a phone', async () => {
    const { client, organizationId } = await organizationWithLead();
    const noPhone = (await client.post('/v1/leads', { name: 'Jack Wilson', email: 'jack@example.com.au' })).body.lead.id;
    expect(await sendAutomatedSms(automated(organizationId, 'lead_01HZZZZZZZZZZZZZZZZZZZZZZZ'))).toEqual({ sent: false, refusal: 'LEAD_NOT_FOUND' });
    expect(await sendAutomatedSms(automated(organizationId, noPhone))).toEqual({ sent: false, refusal: 'NO_PHONE' });
  });
});

describe('notifyMember', () => {
  let members = 0;
  /** An organization with its sender id and a member with a phone no other test texts. */
  async function organizationWithMember() {
    const { client, organizationId } = await api.organization();
    expect((await client.patch('/v1/organization', { smsSenderId: 'Plumbers' })).status).toBe(200);
    const phone = `0412 348 ${String(++members).padStart(3, '0')}`;
    const member = (await client.post('/v1/organization/members', { email: 'dan@example.com', firstName: 'Dan', lastName: 'Russo', phone })).body.member;
    const notification = { organizationId, memberId: member.id as number, body: 'Missed call from Olivia Nguyen, 0412 345 001', markerKey: { pk: `ORG#${organizationId}#RUN#${newId('run')}`, sk: 'STEP#00' } };
    return { client, organizationId, member, phone: member.phone as string, notification };
  }

  it('texts the member from the organization’s sender at most once per marker, and a second call answers as the first', async () => {
    const { client, member, phone, notification } = await organizationWithMember();

    const first = await notifyMember(notification);
    expect(first).toEqual({ sent: true, smsId: expect.stringMatching(/^message_/), status: 'SENT' });
    expect(await notifyMember(notification)).toEqual(first);
    expect(await notifyMember({ ...notification, body: 'Another text under the same marker' })).toEqual(first);
    expect(sentTo(phone)).toMatchObject([{ memberId: member.id, from: 'Plumbers', body: notification.body, userId: null }]);

    // Another marker is another notification.
    expect(await notifyMember({ ...notification, markerKey: { ...notification.markerKey, sk: 'STEP#01' } })).toMatchObject({ sent: true });
    expect(sentTo(phone)).toHaveLength(2);
    // No lead's message: nothing in the SMS records.
    expect((await client.get('/v1/sms')).body.totalCount).toBe(0);
  });

  it('never texts again under a marker left SENDING: a call stopped between taking it and the provider’s answer', async () => {
    const { phone, notification } = await organizationWithMember();
    await dynamo.send(new PutCommand({ TableName: config.tableName, Item: { ...notification.markerKey, entity: 'MEMBER_NOTIFICATION', status: 'SENDING', messageId: 'message_01HZZZZZZZZZZZZZZZZZZZZZZZ' } }));

    expect(await notifyMember(notification)).toEqual({ sent: false, refusal: 'NOT_CONFIRMED', smsId: 'message_01HZZZZZZZZZZZZZZZZZZZZZZZ' });
    expect(sentTo(phone)).toEqual([]);
  });

  it('answers a provider that never confirmed NOT_CONFIRMED, and one that refused FAILED, trying it once either way', async () => {
    const { phone, notification } = await organizationWithMember();
    let tries = 0;
    const provider = (unconfirmed: boolean): SmsSender => ({
      name: 'failing',
      send: async () => {
        tries++;
        throw new SmsDeliveryError('SMS provider did not answer', unconfirmed);
      },
    });
    useSender(provider(true));
    const unconfirmed = { ...notification, markerKey: { ...notification.markerKey, sk: 'STEP#00' } };
    expect(await notifyMember(unconfirmed)).toMatchObject({ sent: false, refusal: 'NOT_CONFIRMED' });
    expect(await notifyMember(unconfirmed)).toMatchObject({ sent: false, refusal: 'NOT_CONFIRMED' });
    useSender(provider(false));
    const refusedOutright = { ...notification, markerKey: { ...notification.markerKey, sk: 'STEP#01' } };
    expect(await notifyMember(refusedOutright)).toMatchObject({ sent: false, refusal: 'FAILED' });
    expect(await notifyMember(refusedOutright)).toMatchObject({ sent: false, refusal: 'FAILED' });
    expect(tries).toBe(2);
    expect(sentTo(phone)).toEqual([]);
  });

  it('has its delivery receipts ignored: they name no lead’s message', async () => {
    const { client, organizationId, phone, notification } = await organizationWithMember();
    const { smsId } = await notifyMember(notification);
    await localReceiptsApplied([smsId!]);
    const [sent] = sentTo(phone);
    const receipt = { eventType: 'TEXT_DELIVERED', messageId: `eum-${smsId}`, context: providerContext(sent!) };
    expect(receipt.context).toEqual({ organizationId, kind: 'member', messageId: smsId });
    expect(await applyReceipt(receipt)).toBe(false);
    // The kind decides, whatever ids it carries: one naming a lead's message sent from the same number moves nothing.
    const lead = (await client.post('/v1/leads', { name: 'Olivia Nguyen', phone: '+61412348500' })).body.lead;
    const leadSms = automated(organizationId, lead.id);
    await withSilentProvider(() => sendAutomatedSms(leadSms));
    const before = (await client.get(`/v1/sms/${leadSms.messageId}`)).body.sms;
    const { inquiryId } = before;
    expect(before.status).toBe('SENT');
    expect(await applyReceipt({ eventType: 'TEXT_CARRIER_UNREACHABLE', context: { organizationId, kind: 'member', inquiryId, messageId: leadSms.messageId } })).toBe(false);
    expect((await client.get(`/v1/sms/${leadSms.messageId}`)).body.sms).toEqual(before);
  });

  it('refuses a member without a phone, a disabled one and one that does not exist, texting no one', async () => {
    const { client, notification } = await organizationWithMember();
    const noPhone = (await client.post('/v1/organization/members', { email: 'priya@example.com', firstName: 'Priya', lastName: 'Sharma' })).body.member;
    const disabled = (await client.post('/v1/organization/members', { email: 'sam@example.com', firstName: 'Sam', lastName: 'Lee', phone: '0412 348 999' })).body.member;
    expect((await client.patch(`/v1/organization/members/${disabled.id}`, { isDisabled: true })).status).toBe(200);
    const sentBefore = sentLocally.length;

    expect(await notifyMember({ ...notification, memberId: noPhone.id })).toEqual({ sent: false, refusal: 'NO_PHONE' });
    expect(await notifyMember({ ...notification, memberId: disabled.id })).toEqual({ sent: false, refusal: 'MEMBER_DISABLED' });
    expect(await notifyMember({ ...notification, memberId: 999 })).toEqual({ sent: false, refusal: 'MEMBER_NOT_FOUND' });
    expect(sentLocally.length).toBe(sentBefore);
  });
});

describe('the function that sends automations’ SMS', () => {
  it('is granted what they read and write, and may text', () => {
    const runner = automationWorkers.find((worker) => worker.name === 'RunAutomationSteps')!;
    expect(runner.dynamodb).toEqual(expect.arrayContaining(AUTOMATED_SMS_ACCESS.dynamodb));
    expect(runner.indexes).toEqual(expect.arrayContaining(AUTOMATED_SMS_ACCESS.indexes));
    expect(runner.capabilities?.map((capability) => capability.name)).toContain('smsSender');
  });
});
