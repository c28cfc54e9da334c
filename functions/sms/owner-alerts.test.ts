import { DeleteCommand, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { leadKeys } from '../leads/entity';
import { sentLocally } from './local-provider';
import { webhookKeys } from '../webhooks/entity';
import type { Event } from '../events/schema';
import { useTestApi, type Client } from '../../test/support/api';
import { organizationKeys } from '../organization/entity';
import { createMember } from '../organization/member-rules';
import { alertOwners } from './owner-alerts';
import { sourceKeyOf, sourceLimitKeys } from '#shared/limits/per-source';
import { INBOUND_SOURCE_SHARE } from '../inbound-endpoints/source-limits';
import { endpoint } from '../../test/support/call-platforms';
import { requestFrom } from '../../test/support/from-address';

/** Owner alerts: a subscription the service disables texts the organization's admins, once each. */

const api = useTestApi({ events: true });

let numbers = 0;
/** An organization with an SMS number of its own, two admins with phones, one without, a manager and a member. */
async function organizationWithAdmins() {
  const { client, organizationId } = await api.organization();
  const senderId = `+6129999${String(7000 + ++numbers)}`;
  expect((await client.patch('/v1/organization', { smsSenderId: senderId })).status).toBe(200);
  const member = (role: 'ADMIN' | 'MANAGER' | 'MEMBER', name: string, phone: string | null) => createMember(organizationId, { role, firstName: name, lastName: 'Ng', email: `${name.toLowerCase()}@example.com`, phone });
  const base = 412_300_000 + numbers * 10;
  const phones = [1, 2, 3, 4].map((n) => `+61${base + n}`);
  const admins = [await member('ADMIN', 'Ava', phones[0]!), await member('ADMIN', 'Ben', phones[1]!)];
  await member('ADMIN', 'Cal', null);
  await member('MANAGER', 'Dee', phones[2]!);
  await member('MEMBER', 'Eli', phones[3]!);
  return { client, organizationId, senderId, admins, phones };
}

/** Subscribes, then has the subscription's expiresAt pass and its expiry item removed, as DynamoDB's TTL does: the service disables it, EXPIRED. */
async function expiredSubscription(client: Client, organizationId: string): Promise<Event> {
  const expiresAt = new Date(Date.now() + 3_600_000).toISOString();
  const webhook = (await client.post('/v1/webhooks', { url: 'https://hooks.example.com/n8n/webhook/1', events: ['lead.created'], expiresAt })).body.webhook;
  const past = new Date(Date.now() - 60_000).toISOString();
  await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: webhookKeys.webhook(organizationId, webhook.id), UpdateExpression: 'SET expiresAt = :at', ExpressionAttributeValues: { ':at': past } }));
  await dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: webhookKeys.webhookExpiry(organizationId, webhook.id), UpdateExpression: 'SET expiresAt = :at', ExpressionAttributeValues: { ':at': past } }));
  await dynamo.send(new DeleteCommand({ TableName: config.tableName, Key: webhookKeys.webhookExpiry(organizationId, webhook.id) }));
  await api.eventsCaughtUp();
  const { events } = (await client.get('/v1/events?type=webhook.disabled')).body;
  expect(events).toHaveLength(1);
  return events[0];
}

const textsTo = (phones: string[]) => sentLocally.filter((sms) => phones.includes(sms.to) && sms.body.includes('webhook'));

describe('owner alerts of a webhook the service disabled', () => {
  it('texts each admin with a phone once, from the organization’s number, and no manager or member', async () => {
    const { client, organizationId, senderId, phones } = await organizationWithAdmins();
    const event = await expiredSubscription(client, organizationId);
    const texts = textsTo(phones);
    expect(texts.map((sms) => sms.to).sort()).toEqual([phones[0], phones[1]]);
    expect(texts.every((sms) => sms.from === senderId)).toBe(true);
    expect(texts[0]!.body).toContain('hooks.example.com');
    expect(texts[0]!.body).toContain('its expiresAt passed');
    expect(texts[0]!.body).not.toContain('/n8n/webhook/1');
    // The same event handed again, twice at once: still one text each.
    await Promise.all([alertOwners([event]), alertOwners([event])]);
    await alertOwners([event]);
    expect(textsTo(phones)).toHaveLength(2);
  });

  it('texts no one while ownerAlertsSms is off, and refuses a setting that is no boolean', async () => {
    const { client, organizationId, phones } = await organizationWithAdmins();
    expect((await client.get('/v1/organization')).body.organization.ownerAlertsSms).toBe(true);
    const off = await client.patch('/v1/organization', { ownerAlertsSms: false });
    expect([off.status, off.body.organization.ownerAlertsSms]).toEqual([200, false]);
    await expiredSubscription(client, organizationId);
    expect(textsTo(phones)).toEqual([]);
    expect((await client.patch('/v1/organization', { ownerAlertsSms: 'no' })).body.error.details[0].path).toBe('ownerAlertsSms');
  });

  it('texts no admin whose phone said STOP, and no one from an organization with no SMS number, recording why', async () => {
    const { client, organizationId, admins, phones } = await organizationWithAdmins();
    await dynamo.send(new PutCommand({ TableName: config.tableName, Item: { ...leadKeys.smsOptOut(organizationId, phones[0]!), entity: 'SMS_OPT_OUT', phone: phones[0], optedOutAt: new Date().toISOString() } }));
    const event = await expiredSubscription(client, organizationId);
    expect(textsTo(phones).map((sms) => sms.to)).toEqual([phones[1]]);
    const marker = async (memberId: number) => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.ownerAlert(organizationId, event.id, memberId), ConsistentRead: true }))).Item;
    // Each marker expires as a member notification's does, 30 days on: far past any replay of the event.
    const in30Days = Math.floor(Date.now() / 1000) + 30 * 86_400;
    expect(await marker(admins[0]!.id)).toMatchObject({ status: 'SKIPPED', reason: 'OPTED_OUT', expiresAtEpoch: expect.closeTo(in30Days, -2) });
    expect(await marker(admins[1]!.id)).toMatchObject({ status: 'SENT', expiresAtEpoch: expect.closeTo(in30Days, -2) });

    const other = await organizationWithAdmins();
    await other.client.patch('/v1/organization', { smsSenderId: null });
    const unsent = await expiredSubscription(other.client, other.organizationId);
    expect(textsTo(other.phones)).toEqual([]);
    const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.ownerAlert(other.organizationId, unsent.id, other.admins[0]!.id), ConsistentRead: true }));
    expect(Item).toMatchObject({ status: 'SKIPPED', reason: 'NO_SMS_NUMBER' });
  });

  it('texts no one for a subscription its owner disabled: the owner knows', async () => {
    const { client, phones } = await organizationWithAdmins();
    const webhook = (await client.post('/v1/webhooks', { url: 'https://hooks.example.com/own', events: ['lead.created'] })).body.webhook;
    await client.patch(`/v1/webhooks/${webhook.id}`, { isEnabled: false });
    await api.eventsCaughtUp();
    expect(textsTo(phones)).toEqual([]);
  });
});

describe('owner alerts of an inbound source refused', () => {
  it('texts each admin with a phone once when one address has posted its share of the inbound day, naming it and until when', async () => {
    const { client, organizationId, senderId, phones } = await organizationWithAdmins();
    const { url } = await endpoint(client, { source: 'WEBFORM' });
    // The address has posted all but one of its share today (the inbound floods' own tests send the posts themselves).
    const DAY = 86_400_000;
    const dayStart = Math.floor(Date.now() / DAY) * DAY;
    const counter = sourceLimitKeys.sourceWindow(INBOUND_SOURCE_SHARE.name, sourceKeyOf(`${organizationId}/127.0.0.41`), dayStart);
    await dynamo.send(new PutCommand({ TableName: config.tableName, Item: { ...counter, count: INBOUND_SOURCE_SHARE.limit - 1 } }));
    const post = () => requestFrom('127.0.0.41', 'POST', url, JSON.stringify({ email: 'bot@example.com', name: 'Bot', message: 'Hi' }), { 'content-type': 'application/json' });
    expect((await post()).status).toBe(201);
    expect([(await post()).status, (await post()).status]).toEqual([401, 401]);
    await api.eventsCaughtUp();
    const texts = sentLocally.filter((sms) => phones.includes(sms.to) && sms.body.includes('inbound'));
    expect(texts.map((sms) => sms.to).sort()).toEqual([phones[0], phones[1]]);
    expect(texts.every((sms) => sms.from === senderId)).toBe(true);
    expect(texts[0]!.body).toBe(`Sales Pipeline: 127.0.0.41 sent ${INBOUND_SOURCE_SHARE.limit} posts to your inbound URLs today; its posts are refused until 00:00 UTC. Other senders still get through.`);
  });
});
