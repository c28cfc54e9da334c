import { Webhook as StandardWebhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GetCommand, ScanCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Key } from '#shared/store/keys';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { useTestApi, type Client } from '../../test/support/api';
import { startReceiver, type Receiver } from '../../test/support/receiver';
import { asRead, partsIn, tableAsRead } from '../../test/support/secrets-in-items';
import { senderOrganizations } from '../../test/support/sms';
import { automationKeys } from './entity';

/**
 * The secret an automation's webhook steps sign with, in the table: sealed in the automation's item and every version
 * (as a webhook's and an inbound endpoint's secrets are), opened only by the step that signs a post.
 */
const api = useTestApi({ events: true, clock: 'manual' });
const organizationWithSender = senderOrganizations(api);
const ALWAYS = { allowedFrom: '00:00', allowedUntil: '24:00' };
const BY_HAND = { event: 'lead.status_changed', filter: { to: 'LOST' } };

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

const rawItem = async (key: Key) => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: true }))).Item!;
const setSecret = (key: Key, value: string | Uint8Array) => dynamo.send(new UpdateCommand({ TableName: config.tableName, Key: key, UpdateExpression: 'SET signingSecret = :s', ExpressionAttributeValues: { ':s': value } }));

async function webhookAutomation(client: Client) {
  const created = await client.post('/v1/automations', { name: 'CRM sync', trigger: BY_HAND, steps: [{ type: 'webhook', url: receiver.url }], quietHours: ALWAYS });
  expect(created.status).toBe(201);
  return created.body as { automation: { id: string }; signingSecret: string };
}

/** The one post a run of the automation for the lead makes, once every message due now is handled. */
async function postOfRun(client: Client, automationId: string, leadId: string) {
  receiver.received.length = 0;
  expect((await client.post(`/v1/automations/${automationId}/runs`, { leadId })).status).toBe(201);
  await api.advanceTime('PT0S');
  expect(receiver.received).toHaveLength(1);
  const [post] = receiver.received;
  return post!;
}
const verifiedWith = (secret: string, post: Receiver['received'][number]) => new StandardWebhook(secret).verify(post.body, post.headers as Record<string, string>) as { type: string };

describe("an automation's webhook signing secret", () => {
  it('is sealed in the automation and each of its versions: a scan of the table finds no part of it, and the step’s post verifies with it', async () => {
    const { client, organizationId, leadId } = await organizationWithSender();
    const { automation, signingSecret } = await webhookAutomation(client);
    expect(signingSecret).toMatch(/^whsec_/);
    expect((await client.patch(`/v1/automations/${automation.id}`, { name: 'CRM sync, renamed' })).body.signingSecret).toBeUndefined();
    expect((await client.patch(`/v1/automations/${automation.id}`, { steps: [{ type: 'webhook', url: `${receiver.url}?v=3` }] })).status).toBe(200);
    expect(partsIn(await tableAsRead(), signingSecret)).toEqual([]);
    const { Items = [] } = await dynamo.send(new ScanCommand({ TableName: config.tableName, ConsistentRead: true }));
    const holding = Items.filter((item) => String(item.pk).startsWith(`ORG#${organizationId}`) && 'signingSecret' in item);
    expect(holding.map((item) => [item.entity, item.signingSecret instanceof Uint8Array]).sort()).toEqual([['AUTOMATION', true], ['AUTOMATION_VERSION', true], ['AUTOMATION_VERSION', true], ['AUTOMATION_VERSION', true]]);
    expect(verifiedWith(signingSecret, await postOfRun(client, automation.id, leadId))).toMatchObject({ type: 'automation_run.step' });
  });

  it('written before sealing is read as it is, and sealed by the next change, which answers no secret', async () => {
    const { client, organizationId, leadId } = await organizationWithSender();
    const { automation } = await webhookAutomation(client);
    const plain = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    const itemKey = automationKeys.automation(organizationId, automation.id);
    await setSecret(itemKey, plain);
    await setSecret(automationKeys.automationVersion(organizationId, automation.id, 1), plain);
    expect(verifiedWith(plain, await postOfRun(client, automation.id, leadId))).toMatchObject({ type: 'automation_run.step' });
    const changed = await client.patch(`/v1/automations/${automation.id}`, { name: 'CRM sync, sealed' });
    expect([changed.status, changed.body.signingSecret]).toEqual([200, undefined]);
    const [item, version] = [await rawItem(itemKey), await rawItem(automationKeys.automationVersion(organizationId, automation.id, 2))];
    expect([item.signingSecret instanceof Uint8Array, version.signingSecret instanceof Uint8Array]).toEqual([true, true]);
    expect(partsIn([item, version].map(asRead).join('\n'), plain)).toEqual([]);
    expect(verifiedWith(plain, await postOfRun(client, automation.id, leadId))).toMatchObject({ type: 'automation_run.step' });
  });

  it("copied into another organization's automation opens to nothing there: its post is signed by no secret", async () => {
    const a = await organizationWithSender();
    const b = await organizationWithSender();
    const theirs = await webhookAutomation(a.client);
    const { automation } = await webhookAutomation(b.client);
    const sealed = (await rawItem(automationKeys.automationVersion(a.organizationId, theirs.automation.id, 1))).signingSecret as Uint8Array;
    const version = automationKeys.automationVersion(b.organizationId, automation.id, 1);
    await setSecret(version, sealed);
    const post = await postOfRun(b.client, automation.id, b.leadId);
    expect(() => verifiedWith(theirs.signingSecret, post)).toThrow();
  });
});
