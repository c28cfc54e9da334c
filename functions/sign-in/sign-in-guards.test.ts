import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { hashToken } from '#shared/auth/tokens';
import { useTestApi, type ApiResponse } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { requestFrom, type AnsweredFrom } from '../../test/support/from-address';
import { requestWithHost } from '../../test/support/host-header';
import { codeTextedTo } from '../../test/support/member-session';
import { createMember } from '../organization/member-rules';
import { sentLocally } from '../sms/local-provider';
import { signInKeys } from './entity';
import { SESSION_COOKIE, SESSION_LIFETIME, SIGN_IN_CODE } from './settings';
import { SIGN_IN_SOURCE_LIMITS as LIMITS } from './source-limits';

/**
 * What the public sign-in routes refuse before a member is signed in: posts from another site's pages, bodies that are
 * not JSON, and each source past its own limit, in its own words. The functions find the API as deployed, by
 * PUBLIC_BASE_URL (the console's origin) alone: no request's Host decides what the API's own origin is.
 */
const OWN_ORIGIN = 'https://console.example.com';
process.env.PUBLIC_BASE_URL = OWN_ORIGIN;
const api = useTestApi({ clock: 'manual', asDeployed: true });

// Each test starts an hour on: the addresses' and phones' windows of the test before are over.
beforeEach(() => api.advanceTime('PT1H'));

let phones = 0;
/** A phone no other test of the file uses (each phone has its own limits). */
const newPhone = () => `+614129${String(10_000 + ++phones).padStart(5, '0')}`;

let addresses = 1;
/** A loopback address of its own: another source to the per-address limits. */
const newAddress = () => `127.0.0.${++addresses}`;

async function memberWithPhone(phone = newPhone()) {
  const organization = await api.organization();
  const member = await createMember(organization.organizationId, { role: 'MEMBER', firstName: 'Ana', lastName: 'Reyes', email: `ana${phones}@example.com.au`, phone });
  return { ...organization, member, phone };
}

const JSON_TYPE = { 'content-type': 'application/json' };
const post = (address: string, path: string, body: unknown, headers: Record<string, string> = JSON_TYPE) => requestFrom(address, 'POST', `${api.url}${path}`, JSON.stringify(body), headers);
const askCode = (address: string, phone: string) => post(address, '/v1/sign-in/codes', { phone });
const signIn = (address: string, phone: string, code: string) => post(address, '/v1/sign-in/sessions', { phone, code });
/** A code of the right form that is not the one texted: one digit off. */
const offByOne = (code: string) => String((Number(code[0]) + 1) % 10) + code.slice(1);
const textsTo = (phone: string) => sentLocally.filter((sms) => sms.to === phone).length;

describe('a sign-in post from a page of another site', () => {
  const SIGN_IN_POSTS: [string, (phone: string) => unknown][] = [
    ['/v1/sign-in/codes', (phone) => ({ phone })],
    ['/v1/sign-in/sessions', (phone) => ({ phone, code: '123456' })],
    ['/v1/sign-in/passkey-options', () => ({})],
    ['/v1/sign-in/passkey', () => ({ credential: { id: 'x', rawId: 'x', type: 'public-key', response: { clientDataJSON: 'e30', authenticatorData: 'AA', signature: 'AA' }, clientExtensionResults: {} } })],
  ];
  const FOREIGN: Record<string, string>[] = [
    { 'sec-fetch-site': 'cross-site' },
    { 'sec-fetch-site': 'same-site' },
    // A browser's own origin, but a fetch it says came from another site.
    { 'sec-fetch-site': 'cross-site', origin: OWN_ORIGIN },
    { origin: 'https://attacker.example' },
    { origin: 'https://attacker.example', 'sec-fetch-site': 'same-origin' },
    // Near misses of the API's own origin: its host with more after it, more before it, less of it; another scheme or port.
    { origin: `${OWN_ORIGIN}.attacker.example` },
    { origin: 'https://evilconsole.example.com' },
    { origin: 'https://console.example.co' },
    { origin: 'http://console.example.com' },
    { origin: `${OWN_ORIGIN}:8443` },
    // An opaque origin (a sandboxed frame, a redirect across sites) that the browser does not call same-origin.
    { origin: 'null' },
    { origin: 'null', 'sec-fetch-site': 'cross-site' },
  ];

  it('is refused 403 CROSS_SITE_REQUEST before anything runs: no table call, no text, no cookie', async () => {
    const { phone } = await memberWithPhone();
    for (const [path, body] of SIGN_IN_POSTS) {
      for (const headers of FOREIGN) {
        let answer: ApiResponse | undefined;
        const calls = await countDynamoCalls(async () => (answer = await api.anonymous.post(path, body(phone), { headers })));
        const what = `${path} ${JSON.stringify(headers)}`;
        expect([answer!.status, answer!.body.error.code], what).toEqual([403, 'CROSS_SITE_REQUEST']);
        expect(answer!.headers.get('set-cookie'), what).toBeNull();
        expect(calls, what).toEqual([]);
      }
    }
    await api.queuesIdle();
    expect(textsTo(phone)).toBe(0);
  });

  it('is refused whatever Host it names: the origin is PUBLIC_BASE_URL’s, never the request’s', async () => {
    const { phone } = await memberWithPhone();
    const refused = await requestWithHost(`${api.url}/v1/sign-in/codes`, 'attacker.example', { method: 'POST', headers: { origin: 'http://attacker.example', 'x-forwarded-proto': 'http' }, body: { phone } });
    expect([refused.status, refused.body.error.code]).toEqual([403, 'CROSS_SITE_REQUEST']);
  });

  it('is taken from the API’s own pages (same-origin, or none), with Origin null only when the browser calls it same-origin, and from a client that sends neither header', async () => {
    const own: Record<string, string>[] = [
      { origin: OWN_ORIGIN, 'sec-fetch-site': 'same-origin' },
      { origin: OWN_ORIGIN, 'sec-fetch-site': 'none' },
      { origin: OWN_ORIGIN },
      { 'sec-fetch-site': 'same-origin' },
      { 'sec-fetch-site': 'none' },
      // A form its own page posts under Referrer-Policy: no-referrer.
      { origin: 'null', 'sec-fetch-site': 'same-origin' },
      {},
    ];
    for (const headers of own) {
      const { phone } = await memberWithPhone();
      const asked = await api.anonymous.post('/v1/sign-in/codes', { phone }, { headers });
      expect(asked.status, JSON.stringify(headers)).toBe(202);
      const signedIn = await api.anonymous.post('/v1/sign-in/sessions', { phone, code: await codeTextedTo(api, phone) }, { headers });
      expect(signedIn.status, JSON.stringify(headers)).toBe(201);
      expect(signedIn.headers.get('set-cookie'), JSON.stringify(headers)).toMatch(new RegExp(`^${SESSION_COOKIE}=sps_`));
      expect((await api.anonymous.post('/v1/sign-in/passkey-options', undefined, { headers })).status, JSON.stringify(headers)).toBe(200);
    }
  });
});

describe('a sign-in body that is not JSON', () => {
  /** The same fields as each type spells them, and a body with no Content-Type at all. */
  const NOT_JSON: [string, Record<string, string>, (fields: Record<string, string>) => string][] = [
    ['text/plain', { 'content-type': 'text/plain;charset=UTF-8' }, (fields) => JSON.stringify(fields)],
    ['a urlencoded form', { 'content-type': 'application/x-www-form-urlencoded' }, (fields) => new URLSearchParams(fields).toString()],
    [
      'a multipart form',
      { 'content-type': 'multipart/form-data; boundary=b0undary' },
      (fields) => `${Object.entries(fields).map(([name, value]) => `--b0undary\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`).join('')}--b0undary--\r\n`,
    ],
    ['no Content-Type', {}, (fields) => JSON.stringify(fields)],
  ];

  it.each(NOT_JSON)('is refused 415 UNSUPPORTED_MEDIA_TYPE as %s, before anything runs: no code asked, none used, no attempt counted', async (_, headers, spell) => {
    const address = newAddress();
    const { phone } = await memberWithPhone();
    let asked: AnsweredFrom | undefined;
    expect(await countDynamoCalls(async () => (asked = await requestFrom(address, 'POST', `${api.url}/v1/sign-in/codes`, spell({ phone }), headers)))).toEqual([]);
    expect([asked!.status, asked!.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
    expect(asked!.body.error.message).toContain('application/json');
    await api.queuesIdle();
    expect(textsTo(phone)).toBe(0);

    expect((await askCode(address, phone)).status).toBe(202);
    const code = await codeTextedTo(api, phone);
    // The code sent as this type, and four wrong ones: refused unread, so none counts against the code or the address.
    for (const tried of [code, ...Array<string>(SIGN_IN_CODE.attempts - 1).fill(offByOne(code))]) {
      let refused: AnsweredFrom | undefined;
      expect(await countDynamoCalls(async () => (refused = await requestFrom(address, 'POST', `${api.url}/v1/sign-in/sessions`, spell({ phone, code: tried }), headers)))).toEqual([]);
      expect([refused!.status, refused!.body.error.code]).toEqual([415, 'UNSUPPORTED_MEDIA_TYPE']);
      expect(refused!.headers['set-cookie']).toBeUndefined();
    }
    // One wrong as JSON, the fifth: the code would burn had any refused try counted.
    expect((await signIn(address, phone, offByOne(code))).status).toBe(400);
    expect((await signIn(address, phone, code)).status).toBe(201);
  });

  it('is taken as application/json in any case, with a charset; another type is refused, a +json one too', async () => {
    const address = newAddress();
    for (const type of ['application/json', 'Application/JSON', 'application/json; charset=utf-8', 'application/json;charset="UTF-8"', 'application/json; charset=iso-8859-1']) {
      expect((await post(address, '/v1/sign-in/codes', { phone: newPhone() }, { 'content-type': type })).status, type).toBe(202);
    }
    for (const type of ['application/jsonx', 'application/merge-patch+json', 'text/json', 'text/plain; x=application/json']) {
      expect((await post(address, '/v1/sign-in/codes', { phone: newPhone() }, { 'content-type': type })).status, type).toBe(415);
    }
  });

  it('needs no Content-Type without a body: passkey options take none', async () => {
    const address = newAddress();
    const bare = await requestFrom(address, 'POST', `${api.url}/v1/sign-in/passkey-options`);
    expect(bare.status).toBe(200);
    expect(bare.body.options.challenge).toEqual(expect.any(String));
    expect((await post(address, '/v1/sign-in/passkey-options', {})).status).toBe(200);
  });
});

describe('each sign-in limit, of its own source, in its own words', () => {
  it('counts sign-in attempts per address: one address’s 21 junk codes in a minute lock out that address alone', async () => {
    const flooding = newAddress();
    const stranger = newPhone();
    for (let attempt = 1; attempt <= LIMITS.attemptsPerAddressPerMinute.limit; attempt++) {
      expect((await signIn(flooding, stranger, String(100_000 + attempt))).body.error.code, `attempt ${attempt}`).toBe('INVALID_CODE');
    }
    const refused = await signIn(flooding, stranger, '999999');
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^Too many sign-in attempts from this address; retry after \d+ s$/);
    // Passkeys are attempts of the same address.
    expect((await post(flooding, '/v1/sign-in/passkey-options', {})).status).toBe(429);

    // Another address, in the same minute: its junk is refused as junk, and its member signs in.
    const other = newAddress();
    const { phone } = await memberWithPhone();
    expect((await signIn(other, stranger, '999999')).body.error.code).toBe('INVALID_CODE');
    expect((await askCode(other, phone)).status).toBe(202);
    const signedIn = await signIn(other, phone, await codeTextedTo(api, phone));
    expect(signedIn.status).toBe(201);
  });

  it('counts codes per phone, from every address: the fourth in 15 minutes is refused naming the phone, not the address', async () => {
    const { phone } = await memberWithPhone();
    for (let asked = 1; asked <= LIMITS.codesPerPhonePer15Minutes.limit; asked++) expect((await askCode(newAddress(), phone)).status).toBe(202);
    const last = newAddress();
    const refused = await askCode(last, phone);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^Too many sign-in codes asked for this phone in 15 minutes; retry after \d+ s$/);
    // That address may still ask for another phone.
    expect((await askCode(last, newPhone())).status).toBe(202);
    await api.queuesIdle();
    expect(textsTo(phone)).toBe(LIMITS.codesPerPhonePer15Minutes.limit);
  });

  it('counts codes per phone a day, and per address an hour, each saying so', async () => {
    // At the start of a UTC day, so the day's window holds the whole test.
    const dayMs = 86_400_000;
    await api.advanceTime(dayMs - (api.clock.now() % dayMs) + 60_000);
    const phone = newPhone();
    let asked = 0;
    while (asked < LIMITS.codesPerPhonePerDay.limit) {
      // A quarter hour's codes, from an address of its own (an address asks 10 an hour).
      const address = newAddress();
      for (let inQuarter = 0; inQuarter < LIMITS.codesPerPhonePer15Minutes.limit && asked < LIMITS.codesPerPhonePerDay.limit; inQuarter++, asked++) expect((await askCode(address, phone)).status).toBe(202);
      await api.advanceTime('PT15M');
    }
    const refused = await askCode(newAddress(), phone);
    expect(refused.status).toBe(429);
    expect(refused.body.error.message).toMatch(/^Too many sign-in codes asked for this phone in a day; retry after \d+ s$/);

    const address = newAddress();
    for (let sent = 1; sent <= LIMITS.codesPerAddressPerHour.limit; sent++) expect((await askCode(address, newPhone())).status).toBe(202);
    const busy = await askCode(address, newPhone());
    expect(busy.status).toBe(429);
    expect(busy.body.error.message).toMatch(/^Too many sign-in codes asked from this address; retry after \d+ s$/);
  });
});

describe('a wrong code', () => {
  /** The wrong-code count, written this much later than DynamoDB would: an answer sent before it would show. */
  const LATE_MS = 300;
  const LATE_COUNT = 'lateWrongCodeCount';
  afterEach(() => void dynamo.middlewareStack.remove(LATE_COUNT));

  it('is counted against the code before it is answered, and the fifth burns it before the answer', async () => {
    dynamo.middlewareStack.add(
      (next) => async (args) => {
        const input = args.input as { UpdateExpression?: string };
        if (input.UpdateExpression?.startsWith('ADD attempts')) await new Promise((resolve) => setTimeout(resolve, LATE_MS));
        return next(args);
      },
      { step: 'initialize', name: LATE_COUNT },
    );
    const address = newAddress();
    const { phone } = await memberWithPhone();
    await askCode(address, phone);
    const code = await codeTextedTo(api, phone);
    const stored = async () => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: signInKeys.signInCode(hashToken(phone)), ConsistentRead: true }))).Item;
    for (let attempt = 1; attempt <= SIGN_IN_CODE.attempts - 1; attempt++) {
      expect((await signIn(address, phone, offByOne(code))).body.error.code).toBe('INVALID_CODE');
      expect((await stored())?.attempts, `read as attempt ${attempt} was answered`).toBe(attempt);
    }
    expect((await signIn(address, phone, offByOne(code))).body.error.code).toBe('INVALID_CODE');
    expect(await stored(), 'burnt as its fifth wrong try was answered').toBeUndefined();
    expect((await signIn(address, phone, code)).body.error.code).toBe('INVALID_CODE');
  });
});

describe('the session’s end', () => {
  it('is reported by GET /v1/me as its idle end, and never past its absolute end', async () => {
    const address = newAddress();
    const { phone } = await memberWithPhone();
    await askCode(address, phone);
    const signedIn = await signIn(address, phone, await codeTextedTo(api, phone));
    const cookie = /^([^;]+);/.exec(String(signedIn.headers['set-cookie']))![1]!;
    const startedAt = api.clock.now();
    const absoluteEnd = startedAt + SESSION_LIFETIME.absoluteHours * 3_600_000;
    const me = () => api.anonymous.get('/v1/me', { headers: { cookie } });
    // Used every 25 minutes to its last half hour: each read ends it 30 minutes on, or at its 12th hour if sooner.
    const step = 25 * 60_000;
    while (api.clock.now() + step < absoluteEnd) {
      await api.advanceTime(step);
      const read = await me();
      expect(read.status).toBe(200);
      expect(Date.parse(read.body.session.expiresAt), `${(api.clock.now() - startedAt) / 60_000} minutes in`).toBe(Math.min(api.clock.now() + SESSION_LIFETIME.idleMinutes * 60_000, absoluteEnd));
    }
    expect(absoluteEnd - api.clock.now()).toBeLessThan(SESSION_LIFETIME.idleMinutes * 60_000);
  });
});
