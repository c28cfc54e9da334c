import { createDecipheriv, createECDH, createPublicKey, hkdfSync, randomBytes, verify, type ECDH } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useTestApi } from '../../test/support/api';
import { memberSession, type SessionClient } from '../../test/support/member-session';
import { startReceiver, type Receiver } from '../../test/support/receiver';
import { webhookSettings } from '../webhooks/settings';
import { MAX_SUBSCRIPTIONS_PER_MEMBER } from './schema';
import { fullPrivateKey, SEALED_FOR } from './store';
import { PUSH_KEYS_ENTITY, pushKeys } from './entity';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { seal } from '#shared/envelope-encryption';

/**
 * Push notifications through the API as the console uses them: a member's session subscribes a "browser" (a P-256 key
 * pair and an authentication secret made here, as a browser's PushManager makes them) whose push service is a local
 * receiver; the stream consumer pushes a customer's reply and a missed call to it, and the test decrypts each push as
 * the browser would (RFC 8291, written here from the RFC, not with the library that encrypted it) and checks its VAPID
 * signature against the organization's application server key (RFC 8292).
 */
const api = useTestApi({ events: true });

let receiver: Receiver;
beforeAll(async () => {
  receiver = await startReceiver();
});
afterAll(() => receiver.close());

/** A browser's push subscription: its own key pair and secret, at an endpoint of the local push service. */
function newBrowser(endpoint = `${receiver.url}/${randomBytes(6).toString('hex')}`) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, auth, endpoint, json: { endpoint, expirationTime: null, keys: { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') } } };
}
type Browser = ReturnType<typeof newBrowser>;

/** RFC 8291 §3.4 and RFC 8188: the one record of an aes128gcm push, opened with the browser's private key and secret. */
function decrypt(body: Buffer, { ecdh, auth }: { ecdh: ECDH; auth: Buffer }): string {
  const salt = body.subarray(0, 16);
  const idLength = body[20]!;
  const serverPublic = body.subarray(21, 21 + idLength);
  const ciphertext = body.subarray(21 + idLength);
  const shared = ecdh.computeSecret(serverPublic);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), ecdh.getPublicKey(), serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', shared, auth, keyInfo, 32));
  const key = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', key, nonce);
  decipher.setAuthTag(ciphertext.subarray(-16));
  const padded = Buffer.concat([decipher.update(ciphertext.subarray(0, -16)), decipher.final()]);
  // The last record's delimiter (2), then its padding of zeros.
  return padded.subarray(0, padded.lastIndexOf(2)).toString('utf8');
}

/** The VAPID claims of a push, verified against the organization's application server key (ES256 JWT, RFC 8292 §2). */
function vapidClaims(authorization: string, applicationServerKey: string): Record<string, unknown> {
  const [, token, key] = /^vapid t=([^,]+), k=(\S+)$/.exec(authorization) ?? [];
  expect(key).toBe(applicationServerKey);
  const [header, claims, signature] = token!.split('.') as [string, string, string];
  const point = Buffer.from(applicationServerKey, 'base64url');
  const publicKey = createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: point.subarray(1, 33).toString('base64url'), y: point.subarray(33).toString('base64url') }, format: 'jwk' });
  expect(verify('sha256', Buffer.from(`${header}.${claims}`), { key: publicKey, dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'))).toBe(true);
  expect(JSON.parse(Buffer.from(header, 'base64url').toString())).toMatchObject({ alg: 'ES256', typ: 'JWT' });
  return JSON.parse(Buffer.from(claims, 'base64url').toString());
}

/** What the local push service got for one browser, oldest first. */
const pushesTo = (browser: Browser) => receiver.received.filter((push) => push.path === new URL(browser.endpoint).pathname);

async function subscribed(session: SessionClient, browser: Browser, notify?: string[]) {
  await session.post('/v1/me/push-subscription-options', {});
  const res = await session.post('/v1/me/push-subscriptions', { ...browser.json, ...(notify ? { notify } : {}) });
  expect(res.status).toBe(201);
  return res.body.subscription;
}

let numbers = 0;
/** An organization with an SMS number of its own, so its customers' texts reach it, and an ADMIN signed in. */
async function organizationWithNumber() {
  const organization = await api.organization();
  const number = `+612888801${String(++numbers).padStart(2, '0')}`;
  expect((await organization.client.patch('/v1/organization', { smsSenderId: number })).status).toBe(200);
  return { ...organization, number, admin: await memberSession(api, organization.organizationId) };
}

/** An organization with a number, its ADMIN's browser subscribed, and a lead of `name` who can text it. */
async function subscribedWithLead(name: string, phone: string) {
  const organization = await organizationWithNumber();
  const browser = newBrowser();
  await subscribed(organization.admin, browser);
  expect((await organization.client.post('/v1/leads', { name, phone })).status).toBe(201);
  return { ...organization, browser };
}

/** A text from a customer, as the provider delivers it, and what the stream made of it. */
async function customerTexts(from: string, to: string, body: string) {
  const res = await fetch(`${api.url}/local/sms/inbound`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ from, to, body }) });
  expect(res.status).toBe(202);
  await api.eventsCaughtUp();
}

/** The organization's key pair as stored, written here: as a pair made before keys were kept whole, or one that is no key. */
async function storedKeyPair(organizationId: string, publicKey: string, privateKey: string) {
  const item = { ...pushKeys.applicationServerKeys(organizationId), entity: PUSH_KEYS_ENTITY, publicKey, privateKey: await seal(privateKey, SEALED_FOR(organizationId)), createdAt: new Date().toISOString() };
  await dynamo.send(new PutCommand({ TableName: config.tableName, Item: item }));
}

/** The event the stream consumer derives when the delivery worker disables a subscription, as `pushNotices` takes it. */
const webhookDisabled = (organizationId: string, id: string, disabledReason: string) =>
  ({ id, type: 'webhook.disabled', occurredAt: new Date().toISOString(), organizationId, data: { id: 'wh_1', url: 'https://hooks.example.com/in', disabledReason } }) as never;

describe('the application server key', () => {
  it('is the organization’s own P-256 public key, made at the first ask and the same at every ask after, also two at once', async () => {
    const { organizationId } = await api.organization();
    const [first, second] = await Promise.all([memberSession(api, organizationId), memberSession(api, organizationId, { role: 'MEMBER' })]);
    const [a, b] = await Promise.all([first.post('/v1/me/push-subscription-options', {}), second.post('/v1/me/push-subscription-options', {})]);
    expect([a.status, b.status]).toEqual([200, 200]);
    const key = Buffer.from(a.body.applicationServerKey, 'base64url');
    expect([key.length, key[0]]).toEqual([65, 4]);
    expect(b.body.applicationServerKey).toBe(a.body.applicationServerKey);
    expect((await first.post('/v1/me/push-subscription-options', {})).body.applicationServerKey).toBe(a.body.applicationServerKey);
    const other = await api.organization();
    const theirs = await (await memberSession(api, other.organizationId)).post('/v1/me/push-subscription-options', {});
    expect(theirs.body.applicationServerKey).not.toBe(a.body.applicationServerKey);
  });

  it('is a member’s to ask: an API key is answered 403 SESSION_REQUIRED on every route', async () => {
    const { client } = await api.organization();
    const answers = await Promise.all([
      client.post('/v1/me/push-subscription-options', {}),
      client.post('/v1/me/push-subscriptions', newBrowser().json),
      client.get('/v1/me/push-subscriptions'),
      client.delete('/v1/me/push-subscriptions/push_0000000000ABCDEFGHJKMNPQRS'),
    ]);
    expect(answers.map((res) => [res.status, res.body.error.code])).toEqual(Array(4).fill([403, 'SESSION_REQUIRED']));
  });
});

describe('subscribing a browser', () => {
  it('keeps it for the member, with every notice their role receives, and lists it; the same browser again replaces its keys and choices', async () => {
    const { organizationId } = await api.organization();
    const [admin, member] = await Promise.all([memberSession(api, organizationId), memberSession(api, organizationId, { role: 'MEMBER' })]);
    const browser = newBrowser();
    const made = await subscribed(admin, browser);
    expect(made).toEqual({ id: expect.stringMatching(/^push_[0-9A-HJKMNP-TV-Z]{26}$/), endpoint: browser.endpoint, notify: ['MISSED_CALL', 'CUSTOMER_REPLY', 'WEBHOOK_FAILING'], createdAt: expect.any(String), updatedAt: made.createdAt });
    expect((await subscribed(member, newBrowser())).notify).toEqual(['MISSED_CALL', 'CUSTOMER_REPLY']);
    const again = await admin.post('/v1/me/push-subscriptions', { ...newBrowser(browser.endpoint).json, notify: ['CUSTOMER_REPLY'] });
    expect(again.status).toBe(200);
    expect(again.body.subscription).toMatchObject({ id: made.id, notify: ['CUSTOMER_REPLY'], createdAt: made.createdAt });
    expect((await admin.get('/v1/me/push-subscriptions')).body).toEqual({ subscriptions: [again.body.subscription] });
  });

  it('answers 400 naming the field for each near miss, and keeps nothing', async () => {
    const { organizationId } = await api.organization();
    const [admin, member] = await Promise.all([memberSession(api, organizationId), memberSession(api, organizationId, { role: 'MEMBER' })]);
    const { json } = newBrowser();
    const key = Buffer.from(json.keys.p256dh, 'base64url');
    const auth = Buffer.from(json.keys.auth, 'base64url');
    const { endpoint: _endpoint, ...withoutEndpoint } = json;
    const cases: Array<[string, unknown, string]> = [
      ['no endpoint', withoutEndpoint, 'endpoint'],
      ['an endpoint that is no URL', { ...json, endpoint: 'push.example.com/send' }, 'endpoint'],
      ['an endpoint one character too long', { ...json, endpoint: `https://push.example.com/${'a'.repeat(2048 - 25 + 1)}` }, 'endpoint'],
      ['no keys', { ...json, keys: undefined }, 'keys'],
      ['no auth', { ...json, keys: { p256dh: json.keys.p256dh } }, 'keys.auth'],
      ['a public key one byte short', { ...json, keys: { ...json.keys, p256dh: key.subarray(1).toString('base64url') } }, 'keys.p256dh'],
      ['a public key one byte more', { ...json, keys: { ...json.keys, p256dh: Buffer.concat([key, Buffer.from([1])]).toString('base64url') } }, 'keys.p256dh'],
      ['a compressed-point prefix', { ...json, keys: { ...json.keys, p256dh: Buffer.concat([Buffer.from([2]), key.subarray(1)]).toString('base64url') } }, 'keys.p256dh'],
      ['a secret one byte short', { ...json, keys: { ...json.keys, auth: auth.subarray(1).toString('base64url') } }, 'keys.auth'],
      ['a secret in base64 with +', { ...json, keys: { ...json.keys, auth: 'FPssNDTKnInHVndSTdbK+w' } }, 'keys.auth'],
      ['a kind that is not one', { ...json, notify: ['MISSED_CALLS'] }, 'notify'],
      ['a kind twice', { ...json, notify: ['MISSED_CALL', 'MISSED_CALL'] }, 'notify'],
      ['a field the browser does not send', { ...json, userVisibleOnly: true }, 'userVisibleOnly'],
    ];
    for (const [, body, field] of cases) {
      const res = await admin.post('/v1/me/push-subscriptions', body);
      expect([res.status, res.body.error.code, res.body.error.details?.[0]?.path ?? res.body.error.message]).toEqual([400, 'VALIDATION_ERROR', expect.stringContaining(field)]);
    }
    // A failing webhook is news for those who manage webhooks.
    const refused = await member.post('/v1/me/push-subscriptions', { ...json, notify: ['CUSTOMER_REPLY', 'WEBHOOK_FAILING'] });
    expect([refused.status, refused.body.error.details[0]]).toEqual([400, { path: 'notify', message: 'notify may not name WEBHOOK_FAILING: it is for ADMINs, who manage webhooks' }]);
    expect((await admin.get('/v1/me/push-subscriptions')).body.subscriptions).toEqual([]);
    expect((await member.get('/v1/me/push-subscriptions')).body.subscriptions).toEqual([]);
  });

  it('refuses, deployed, an endpoint that is not https or is on a private or loopback host', async () => {
    const { organizationId } = await api.organization();
    const admin = await memberSession(api, organizationId);
    webhookSettings.allowPrivateUrls = false;
    try {
      const { json } = newBrowser();
      for (const [endpoint, message] of [
        ['http://push.example.com/send/1', 'endpoint must be an https URL'],
        ['https://127.0.0.1/send/1', 'endpoint must not point at a private, loopback or link-local address'],
        ['https://169.254.169.254/latest', 'endpoint must not point at a private, loopback or link-local address'],
      ]) {
        const res = await admin.post('/v1/me/push-subscriptions', { ...json, endpoint });
        expect([res.status, res.body.error.details[0]]).toEqual([400, { path: 'endpoint', message }]);
      }
      expect((await admin.post('/v1/me/push-subscriptions', { ...json, endpoint: 'https://push.example.com/send/1' })).status).toBe(201);
    } finally {
      webhookSettings.allowPrivateUrls = true;
    }
  });

  it(`keeps at most ${MAX_SUBSCRIPTIONS_PER_MEMBER} per member: one more is 409 LIMIT_REACHED, one of them again is taken`, async () => {
    const { organizationId } = await api.organization();
    const admin = await memberSession(api, organizationId);
    const browsers = Array.from({ length: MAX_SUBSCRIPTIONS_PER_MEMBER }, () => newBrowser());
    for (const browser of browsers) expect((await admin.post('/v1/me/push-subscriptions', browser.json)).status).toBe(201);
    const over = await admin.post('/v1/me/push-subscriptions', newBrowser().json);
    expect([over.status, over.body.error.code]).toEqual([409, 'LIMIT_REACHED']);
    expect((await admin.post('/v1/me/push-subscriptions', browsers[3]!.json)).status).toBe(200);
    expect((await admin.get('/v1/me/push-subscriptions')).body.subscriptions).toHaveLength(MAX_SUBSCRIPTIONS_PER_MEMBER);
  });

  it('makes a browser another member subscribed this member’s: one browser, whoever subscribed on it last', async () => {
    const { organizationId } = await api.organization();
    const [first, second] = await Promise.all([memberSession(api, organizationId), memberSession(api, organizationId)]);
    const browser = newBrowser();
    const theirs = await subscribed(first, browser);
    const mine = await subscribed(second, browser);
    expect(mine.id).toBe(theirs.id);
    expect((await first.get('/v1/me/push-subscriptions')).body.subscriptions).toEqual([]);
    expect((await second.get('/v1/me/push-subscriptions')).body.subscriptions).toEqual([mine]);
  });
});

describe('removing a subscription', () => {
  it('removes the member’s own; again, another member’s, or an id that cannot exist is 404 and removes nothing', async () => {
    const { organizationId } = await api.organization();
    const [admin, other] = await Promise.all([memberSession(api, organizationId), memberSession(api, organizationId)]);
    const mine = await subscribed(admin, newBrowser());
    const theirs = await subscribed(other, newBrowser());
    expect((await admin.delete(`/v1/me/push-subscriptions/${theirs.id}`)).status).toBe(404);
    expect((await admin.delete(`/v1/me/push-subscriptions/${theirs.id.slice(0, -1)}`)).status).toBe(404);
    expect((await admin.delete(`/v1/me/push-subscriptions/${mine.id}`)).body).toEqual({ success: true, id: mine.id });
    expect((await admin.delete(`/v1/me/push-subscriptions/${mine.id}`)).status).toBe(404);
    expect((await admin.get('/v1/me/push-subscriptions')).body.subscriptions).toEqual([]);
    expect((await other.get('/v1/me/push-subscriptions')).body.subscriptions).toEqual([theirs]);
  });

  it('goes with the member: a removed member’s browsers are deleted', async () => {
    const { organizationId } = await api.organization();
    const [admin, leaving] = await Promise.all([memberSession(api, organizationId), memberSession(api, organizationId, { role: 'MEMBER' })]);
    await subscribed(leaving, newBrowser());
    expect((await admin.delete(`/v1/organization/members/${leaving.member.id}`)).status).toBe(200);
    const { organizationSubscriptions } = await import('./store');
    expect(await organizationSubscriptions(organizationId)).toEqual([]);
  });
});

describe('notices pushed to a member’s browsers', () => {
  it('pushes a customer’s reply, encrypted for the browser alone and signed with the organization’s key, to the members who chose it', async () => {
    const { organizationId, number, admin, client } = await organizationWithNumber();
    const member = await memberSession(api, organizationId, { role: 'MEMBER' });
    const [replies, callsOnly, membersBrowser] = [newBrowser(), newBrowser(), newBrowser()];
    await subscribed(admin, replies, ['CUSTOMER_REPLY']);
    await subscribed(admin, callsOnly, ['MISSED_CALL']);
    await subscribed(member, membersBrowser);
    const lead = (await client.post('/v1/leads', { name: 'Olivia Brown', phone: '+61412555301' })).body.lead;
    await customerTexts('+61412555301', number, 'Can Tom come at 8 tomorrow? 🚰');
    const [push] = pushesTo(replies);
    expect(pushesTo(callsOnly)).toEqual([]);
    expect(pushesTo(membersBrowser)).toHaveLength(1);
    const inquiryId = (await client.get(`/v1/inquiries?leadId=${lead.id}`)).body.inquiries[0].id;
    expect(JSON.parse(decrypt(push!.raw, replies))).toEqual({ title: 'New text · Olivia Brown', body: 'Can Tom come at 8 tomorrow? 🚰', url: `/console/inbox/${inquiryId}`, tag: 'CUSTOMER_REPLY' });
    // Another browser's keys open nothing of it.
    expect(() => decrypt(push!.raw, newBrowser())).toThrow();
    expect(push!.headers).toMatchObject({ 'content-encoding': 'aes128gcm', ttl: String(4 * 3600), urgency: 'high', topic: expect.stringMatching(/^[A-Za-z0-9_-]{1,32}$/) });
    const key = (await admin.post('/v1/me/push-subscription-options', {})).body.applicationServerKey;
    const claims = vapidClaims(String(push!.headers.authorization), key);
    expect(claims).toEqual({ aud: new URL(receiver.url).origin, exp: expect.any(Number), sub: expect.stringMatching(/^mailto:/) });
    expect(claims.exp as number).toBeGreaterThan(Date.now() / 1000);
  });

  it('pushes a lead’s reply to the member it is assigned to alone, and a missed call to every member who chose it', async () => {
    const { organizationId, number, admin, client } = await organizationWithNumber();
    const member = await memberSession(api, organizationId, { role: 'MEMBER' });
    const [adminsBrowser, membersBrowser] = [newBrowser(), newBrowser()];
    await subscribed(admin, adminsBrowser);
    await subscribed(member, membersBrowser);
    const lead = (await client.post('/v1/leads', { name: 'Jack Nguyen', phone: '+61412555302', assignedMemberId: member.member.id })).body.lead;
    await customerTexts('+61412555302', number, 'Thanks, see you then');
    expect([pushesTo(adminsBrowser).length, pushesTo(membersBrowser).length]).toEqual([0, 1]);
    const call = await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412555303', name: 'Mia Chen' }, data: { summary: 'Hung up before anyone answered.', missed: true } });
    expect(call.body.inquiry.callOutcome).toBe('MISSED');
    await api.eventsCaughtUp();
    const missed = [adminsBrowser, membersBrowser].map((browser) => JSON.parse(decrypt(pushesTo(browser).at(-1)!.raw, browser)));
    expect(missed).toEqual(Array(2).fill({ title: 'Missed call · Mia Chen', body: 'Hung up before anyone answered.', url: `/console/inbox/${call.body.inquiry.id}`, tag: 'MISSED_CALL' }));
    expect(lead.assignedMemberId).toBe(member.member.id);
  });

  it('deletes a subscription its push service says is gone (410), and pushes nothing to it again', async () => {
    const { number, admin, browser } = await subscribedWithLead('Noah Smith', '+61412555304');
    receiver.answerWith(410);
    await customerTexts('+61412555304', number, 'Hello?');
    expect(pushesTo(browser)).toHaveLength(1);
    expect((await admin.get('/v1/me/push-subscriptions')).body.subscriptions).toEqual([]);
    await customerTexts('+61412555304', number, 'Anyone there?');
    expect(pushesTo(browser)).toHaveLength(1);
  });

  it('pushes a webhook the service turned off for failing to the ADMINs who chose it, and nothing for one that expired', async () => {
    const { organizationId, admin } = await organizationWithNumber();
    const member = await memberSession(api, organizationId, { role: 'MEMBER' });
    const [adminsBrowser, membersBrowser] = [newBrowser(), newBrowser()];
    await subscribed(admin, adminsBrowser);
    await subscribed(member, membersBrowser);
    // The stream consumer's step, with the event it derives when the delivery worker disables a subscription.
    const { pushNotices } = await import('./send');
    expect(await pushNotices([webhookDisabled(organizationId, 'evt_2', 'EXPIRED'), webhookDisabled(organizationId, 'evt_1', 'FAILING')])).toEqual(['SENT']);
    expect(pushesTo(membersBrowser)).toEqual([]);
    expect(JSON.parse(decrypt(pushesTo(adminsBrowser)[0]!.raw, adminsBrowser))).toEqual({
      title: 'Webhook turned off',
      body: 'Deliveries to hooks.example.com failed for 24 hours. Nothing is sent to it until it is turned on again.',
      url: '/console/settings',
      tag: 'WEBHOOK_FAILING',
    });
  });

  it('pushes nothing for a call that was answered, cuts a long text at a character, and titles a lead with no name by the kind alone', async () => {
    const { number, admin, client } = await organizationWithNumber();
    const browser = newBrowser();
    await subscribed(admin, browser);
    expect((await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412555305', name: 'Ava Jones' }, data: { summary: 'Booked a visit.', missed: false } })).body.inquiry.callOutcome).toBe('ANSWERED');
    await api.eventsCaughtUp();
    expect(pushesTo(browser)).toEqual([]);
    // A phone only, no name; 140 characters fit, 141 are cut to 139 and an ellipsis, never inside an emoji.
    await client.post('/v1/leads', { phone: '+61412555306' });
    const [fits, long] = ['a'.repeat(140), `${'b'.repeat(138)}🚰🚰🚰`];
    await customerTexts('+61412555306', number, fits);
    await customerTexts('+61412555306', number, long);
    const shown = pushesTo(browser).map((push) => JSON.parse(decrypt(push.raw, browser)));
    expect(shown.map(({ title, body }) => [title, body])).toEqual([
      ['New text', fits],
      ['New text', `${'b'.repeat(138)}🚰…`],
    ]);
  });

  it('keeps a subscription whose push service fails for now (500) and deletes one it says is unknown (404)', async () => {
    const { number, admin, browser } = await subscribedWithLead('Zoe Lee', '+61412555307');
    receiver.answerWith(500);
    await customerTexts('+61412555307', number, 'First');
    expect((await admin.get('/v1/me/push-subscriptions')).body.subscriptions).toHaveLength(1);
    receiver.answerWith(404);
    await customerTexts('+61412555307', number, 'Second');
    expect(pushesTo(browser)).toHaveLength(2);
    expect((await admin.get('/v1/me/push-subscriptions')).body.subscriptions).toEqual([]);
  });

  it('signs with a key pair whose private key Node gave without its leading zero byte, as it does one pair in 256: stored so, or made so', async () => {
    const { organizationId, admin, client } = await organizationWithNumber();
    let pair: ECDH;
    do {
      pair = createECDH('prime256v1');
      pair.generateKeys();
    } while (pair.getPrivateKey().length === 32);
    const [publicKey, shortPrivateKey] = [pair.getPublicKey().toString('base64url'), pair.getPrivateKey().toString('base64url')];
    // Made so, it is kept whole: the same key, 32 bytes long.
    const whole = Buffer.from(fullPrivateKey(shortPrivateKey), 'base64url');
    expect(whole).toHaveLength(32);
    const fromWhole = createECDH('prime256v1');
    fromWhole.setPrivateKey(whole);
    expect(fromWhole.getPublicKey().toString('base64url')).toBe(publicKey);
    expect(fullPrivateKey(fullPrivateKey(shortPrivateKey))).toBe(fullPrivateKey(shortPrivateKey));
    // Stored so, by a pair made before that: the organization's pushes are signed with it all the same.
    await storedKeyPair(organizationId, publicKey, shortPrivateKey);
    const browser = newBrowser();
    await subscribed(admin, browser);
    const call = await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412555309' }, data: { summary: 'Hung up.', missed: true } });
    expect(call.status).toBe(201);
    await api.eventsCaughtUp();
    const [push] = pushesTo(browser);
    expect(JSON.parse(decrypt(push!.raw, browser))).toMatchObject({ tag: 'MISSED_CALL' });
    expect(vapidClaims(String(push!.headers.authorization), publicKey)).toMatchObject({ aud: new URL(receiver.url).origin });
  });

  it('drops a notice it cannot sign, rather than hold the stream: the missed call is recorded, its event listed, nothing pushed', async () => {
    const { organizationId, admin, client } = await organizationWithNumber();
    const pair = createECDH('prime256v1');
    pair.generateKeys();
    // One byte more than a P-256 key: web-push refuses to sign with it.
    await storedKeyPair(organizationId, pair.getPublicKey().toString('base64url'), Buffer.concat([Buffer.from([1]), pair.getPrivateKey()]).toString('base64url'));
    const browser = newBrowser();
    await subscribed(admin, browser);
    const call = await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412555310' }, data: { summary: 'Hung up.', missed: true } });
    await api.eventsCaughtUp();
    expect(pushesTo(browser)).toEqual([]);
    const events = (await client.get('/v1/events?type=inquiry.created')).body.events;
    expect(events.map((event: { data: { id: string } }) => event.data.id)).toEqual([call.body.inquiry.id]);
  });

  it('tells a member no more once disabled, or once demoted, of what their new role does not receive, on the very next event', async () => {
    const { organizationId, admin, client } = await organizationWithNumber();
    const other = await memberSession(api, organizationId);
    const [demoted, disabled] = [newBrowser(), newBrowser()];
    await subscribed(other, demoted);
    const disabledMember = await memberSession(api, organizationId, { role: 'MEMBER' });
    await subscribed(disabledMember, disabled);
    expect((await admin.patch(`/v1/organization/members/${other.member.id}`, { role: 'MEMBER' })).status).toBe(200);
    expect((await admin.patch(`/v1/organization/members/${disabledMember.member.id}`, { isDisabled: true })).status).toBe(200);
    const { pushNotices } = await import('./send');
    expect(await pushNotices([webhookDisabled(organizationId, 'evt_3', 'FAILING')])).toEqual([]);
    const call = await client.post('/v1/inquiries', { source: 'CALL', lead: { phone: '+61412555308' }, data: { summary: 'Hung up.', missed: true } });
    expect(call.body.inquiry.callOutcome).toBe('MISSED');
    await api.eventsCaughtUp();
    // The demoted member still hears of a missed call; the disabled one hears of nothing.
    expect([pushesTo(demoted).length, pushesTo(disabled).length]).toEqual([1, 0]);
  });

  it('sends nothing, and stops nothing, for a browser subscribed before the organization had a key', async () => {
    const { organizationId } = await api.organization();
    const admin = await memberSession(api, organizationId);
    const browser = newBrowser();
    // A client that skipped the options: its browser's subscription names a key the organization never made.
    expect((await admin.post('/v1/me/push-subscriptions', browser.json)).status).toBe(201);
    const { pushNotices } = await import('./send');
    const reply = { id: 'evt_4', type: 'sms.received', occurredAt: new Date().toISOString(), organizationId, data: { id: 'sms_1', leadId: 'lead_1', inquiryId: 'inquiry_1', body: 'Hello' } } as never;
    expect(await pushNotices([reply])).toEqual([]);
    expect(pushesTo(browser)).toEqual([]);
  });
});

