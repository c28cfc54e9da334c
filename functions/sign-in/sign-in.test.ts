import { createHash } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeEach, describe, expect, it } from 'vitest';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { signInKeys } from './entity';
import { sessionTokenHash } from './session-token';
import { useTestApi, type Client } from '../../test/support/api';
import { createMember } from '../organization/member-rules';
import { sentLocally } from '../sms/local-provider';
import { SESSION_COOKIE, SESSION_LIFETIME, SIGN_IN_CODE } from './settings';
import { sendAskedCode, signInText } from './codes';
import { setSignInCodeQueue, signInCodeQueue } from './code-asks';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { formFieldsOf, LOOPBACK_REDIRECT, pkce, registeredClient } from '../../test/support/oauth';
import { codeTextedTo, memberSession } from '../../test/support/member-session';

/**
 * A member signs in to the console with a code texted to their phone: through the local server, its edge (the session
 * cookie becomes the bearer token, as the CloudFront Function does) and the API's one authorizer, against DynamoDB
 * Local. Passkeys are signed in with by a real browser's virtual authenticator (test/console.test.ts).
 */
const api = useTestApi({ clock: 'manual' });

// Every request of the file comes from one address, which may ask for 10 codes an hour: each test starts an hour on.
beforeEach(() => api.advanceTime('PT1H'));

let phones = 0;
/** A phone no other test of the file uses (each phone has its own limits). */
const newPhone = () => `+614123${String(45_000 + ++phones).padStart(5, '0')}`;


/** A client that sends the session's cookie, as the browser would, and its CSRF token when told. */
function browser(cookie: string, csrfToken?: string): Client {
  const client = api.anonymous;
  const withSession = (options: { headers?: Record<string, string> } = {}) => ({ ...options, headers: { cookie, ...(csrfToken ? { 'x-csrf-token': csrfToken } : {}), ...options.headers } });
  return {
    request: (method, path, options) => client.request(method, path, withSession(options)),
    get: (path, options) => client.get(path, withSession(options)),
    post: (path, body, options) => client.post(path, body, withSession(options)),
    put: (path, body, options) => client.put(path, body, withSession(options)),
    patch: (path, body, options) => client.patch(path, body, withSession(options)),
    delete: (path, options) => client.delete(path, withSession(options)),
  };
}

const cookieOf = (setCookie: string | null) => {
  const match = new RegExp(`^${SESSION_COOKIE}=(sps_[^;]+);`).exec(setCookie ?? '');
  if (!match) throw new Error(`No session cookie in ${setCookie}`);
  return `${SESSION_COOKIE}=${match[1]}`;
};

/** An organization with a member of `role` whose phone is `phone`. */
async function memberWithPhone(role: 'ADMIN' | 'MANAGER' | 'MEMBER', phone = newPhone()) {
  const organization = await api.organization();
  const member = await createMember(organization.organizationId, { role, firstName: 'Sam', lastName: 'Okafor', email: `sam${phones}@example.com.au`, phone });
  return { ...organization, member, phone };
}

/** Signs the phone in (its one organization) and answers the browser with the session and its CSRF token. */
async function signIn(phone: string) {
  expect((await api.anonymous.post('/v1/sign-in/codes', { phone })).status).toBe(202);
  const signedIn = await api.anonymous.post('/v1/sign-in/sessions', { phone, code: await codeTextedTo(api, phone) });
  expect(signedIn.status).toBe(201);
  const cookie = cookieOf(signedIn.headers.get('set-cookie'));
  return { cookie, csrfToken: signedIn.body.session.csrfToken as string, body: signedIn.body, session: browser(cookie, signedIn.body.session.csrfToken) };
}

describe('signing in with a texted code', () => {
  it('texts a code to a member’s phone, signs in with it to a session cookie, and the session reads as the member', async () => {
    const { member, phone, organizationId } = await memberWithPhone('ADMIN');
    const asked = await api.anonymous.post('/v1/sign-in/codes', { phone });
    expect(asked).toMatchObject({ status: 202, body: { sent: true, expiresInSeconds: SIGN_IN_CODE.lifetimeMinutes * 60 } });
    const code = await codeTextedTo(api, phone);
    expect(sentLocally.filter((sms) => sms.to === phone).at(-1)).toMatchObject({ organizationId, memberId: member.id, body: signInText(code) });

    const signedIn = await api.anonymous.post('/v1/sign-in/sessions', { phone, code });
    expect(signedIn.status).toBe(201);
    expect(signedIn.headers.get('set-cookie')).toMatch(new RegExp(`^${SESSION_COOKIE}=sps_[A-Za-z0-9_-]+; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=${SESSION_LIFETIME.absoluteHours * 3600}$`));
    expect(signedIn.body.session).toMatchObject({ member: { id: member.id, role: 'ADMIN', phone }, organization: { id: organizationId } });

    const me = await browser(cookieOf(signedIn.headers.get('set-cookie'))).get('/v1/me');
    expect(me.status).toBe(200);
    expect(me.body.session).toMatchObject({ member: { id: member.id }, organization: { id: organizationId }, csrfToken: signedIn.body.session.csrfToken, passkeys: [] });
    // Used within its first minute: its idle end is where sign-in set it, 30 minutes on.
    expect(me.body.session.expiresAt).toBe(signedIn.body.session.expiresAt);
    expect(Date.parse(me.body.session.expiresAt) - api.clock.now()).toBe(SESSION_LIFETIME.idleMinutes * 60_000);
  });

  it('answers a phone that is no member’s exactly as a member’s, texts it nothing, and refuses any code for it', async () => {
    const { phone: memberPhone } = await memberWithPhone('MEMBER');
    const stranger = newPhone();
    const [forMember, forStranger] = await Promise.all([api.anonymous.post('/v1/sign-in/codes', { phone: memberPhone }), api.anonymous.post('/v1/sign-in/codes', { phone: stranger })]);
    expect(forStranger.status).toBe(forMember.status);
    expect(forStranger.body).toEqual(forMember.body);
    // Once the asks are taken, the member has a code and the stranger nothing.
    expect(await codeTextedTo(api, memberPhone)).toMatch(/^\d{6}$/);
    expect(sentLocally.filter((sms) => sms.to === stranger)).toEqual([]);
    const refused = await api.anonymous.post('/v1/sign-in/sessions', { phone: stranger, code: '123456' });
    expect(refused).toMatchObject({ status: 400, body: { error: { code: 'INVALID_CODE', message: 'That code is wrong or has expired. Ask for a new one.' } } });
  });

  it('does the same work for a member’s phone and a stranger’s while answering: the same table calls and one ask queued, no read of who is a member', async () => {
    const { phone: memberPhone } = await memberWithPhone('MEMBER');
    const callsFor = async (phone: string) => {
      const asks: unknown[] = [];
      const queue = signInCodeQueue();
      setSignInCodeQueue({ send: async (jobs) => void asks.push(...jobs.map(({ phone: asked }) => asked)) });
      try {
        const calls = await countDynamoCalls(async () => expect((await api.anonymous.post('/v1/sign-in/codes', { phone })).status).toBe(202));
        return { calls, asks };
      } finally {
        setSignInCodeQueue(queue);
      }
    };
    const [forMember, forStranger] = [await callsFor(memberPhone), await callsFor(newPhone())];
    // The address's and the phone's two limits: counters alone, the same whoever's phone it is.
    expect(forMember.calls).toEqual(['UpdateItemCommand', 'UpdateItemCommand', 'UpdateItemCommand']);
    expect(forStranger.calls).toEqual(forMember.calls);
    expect([forMember.asks.length, forStranger.asks.length]).toEqual([1, 1]);
    // Nothing was texted for the asks the test kept from the worker.
    await api.queuesIdle();
    expect(sentLocally.filter((sms) => sms.to === memberPhone)).toEqual([]);
  });

  it('texts one code for an ask handed twice, and drops an ask older than a code’s life', async () => {
    const { phone } = await memberWithPhone('MEMBER');
    const at = (ms: number) => new Date(api.clock.now() + ms).toISOString();
    const ask = { askId: 'ask-1', phone, requestedAt: at(0) };
    await sendAskedCode(ask);
    await sendAskedCode(ask);
    expect(sentLocally.filter((sms) => sms.to === phone)).toHaveLength(1);
    // Another ask, at the same millisecond, is one of its own.
    await sendAskedCode({ ...ask, askId: 'ask-2' });
    expect(sentLocally.filter((sms) => sms.to === phone)).toHaveLength(2);
    const lifetimeMs = SIGN_IN_CODE.lifetimeMinutes * 60_000;
    await sendAskedCode({ askId: 'ask-3', phone, requestedAt: at(-lifetimeMs) });
    expect(sentLocally.filter((sms) => sms.to === phone)).toHaveLength(2);
    await sendAskedCode({ askId: 'ask-4', phone, requestedAt: at(-lifetimeMs + 1) });
    expect(sentLocally.filter((sms) => sms.to === phone)).toHaveLength(3);
  });

  it('refuses a wrong code the same way, and burns the code at its fifth wrong try', async () => {
    const { phone } = await memberWithPhone('MEMBER');
    await api.anonymous.post('/v1/sign-in/codes', { phone });
    const code = await codeTextedTo(api, phone);
    // One digit off: a near miss.
    const wrong = String((Number(code[0]) + 1) % 10) + code.slice(1);
    for (let attempt = 1; attempt <= SIGN_IN_CODE.attempts - 1; attempt++) {
      expect((await api.anonymous.post('/v1/sign-in/sessions', { phone, code: wrong })).body.error.code).toBe('INVALID_CODE');
    }
    // Four wrong: the right one still signs in.
    expect((await api.anonymous.post('/v1/sign-in/sessions', { phone, code })).status).toBe(201);

    await api.anonymous.post('/v1/sign-in/codes', { phone });
    const next = await codeTextedTo(api, phone);
    const nextWrong = String((Number(next[0]) + 1) % 10) + next.slice(1);
    for (let attempt = 1; attempt <= SIGN_IN_CODE.attempts; attempt++) await api.anonymous.post('/v1/sign-in/sessions', { phone, code: nextWrong });
    expect((await api.anonymous.post('/v1/sign-in/sessions', { phone, code: next })).body.error.code).toBe('INVALID_CODE');
  });

  it('refuses a code missing, of five digits or seven, and a phone without its country code or country, naming the field', async () => {
    const { phone } = await memberWithPhone('MEMBER');
    expect((await api.anonymous.post('/v1/sign-in/sessions', { phone })).body.error.details[0].path).toBe('code');
    expect((await api.anonymous.post('/v1/sign-in/sessions', { phone, code: '12345' })).body.error.details[0].path).toBe('code');
    expect((await api.anonymous.post('/v1/sign-in/sessions', { phone, code: '1234567' })).body.error.details[0].path).toBe('code');
    expect((await api.anonymous.post('/v1/sign-in/codes', { phone: phone.slice(1) })).body.error.details[0].path).toBe('phone');
    expect((await api.anonymous.post('/v1/sign-in/codes', {})).body.error.details[0].path).toBe('phone');
  });

  it('reads a phone as people type it: with its country code in any form, or national in the country named', async () => {
    const { phone, member } = await memberWithPhone('MEMBER');
    // +61412345xxx typed as an Australian would: 0412 345 xxx, spaced.
    const national = `0${phone.slice(3, 6)} ${phone.slice(6, 9)} ${phone.slice(9)}`;
    expect((await api.anonymous.post('/v1/sign-in/codes', { phone: national, country: 'au' })).status).toBe(202);
    const code = await codeTextedTo(api, phone);
    const signedIn = await api.anonymous.post('/v1/sign-in/sessions', { phone: `+61 (0)${phone.slice(3, 6)} ${phone.slice(6)}`, code });
    expect([signedIn.status, signedIn.body.session?.member.id]).toEqual([201, member.id]);
  });

  it('refuses a national phone without its country, in another country, or with a country that is none, naming the field', async () => {
    const { phone } = await memberWithPhone('MEMBER');
    const national = `0${phone.slice(3)}`;
    const refused = async (body: Record<string, unknown>) => {
      const res = await api.anonymous.post('/v1/sign-in/codes', body);
      return [res.status, [...new Set(res.body.error?.details.map((detail: { path: string }) => detail.path))]];
    };
    expect(await refused({ phone: national })).toEqual([400, ['phone']]);
    expect((await api.anonymous.post('/v1/sign-in/codes', { phone: national })).body.error.message).toBe(
      'phone must be a valid number with its country code (+61 491 570 110), or name its country (country) to be read in national form',
    );
    // Not a number of the US plan.
    expect(await refused({ phone: national, country: 'US' })).toEqual([400, ['phone']]);
    expect((await api.anonymous.post('/v1/sign-in/codes', { phone: national, country: 'US' })).body.error.message).toBe(
      'phone must be a valid number: with its country code (+61 491 570 110), or in the national form of US',
    );
    // A digit short or one more, with its country code.
    expect(await refused({ phone: phone.slice(0, -1) })).toEqual([400, ['phone']]);
    expect(await refused({ phone: `${phone}1` })).toEqual([400, ['phone']]);
    for (const country of ['AUS', 'A', 'ZZ', '']) expect(await refused({ phone: national, country })).toEqual([400, ['country']]);
    expect(sentLocally.filter((sms) => sms.to === phone)).toEqual([]);
  });

  it('counts a phone’s codes by the number, however it is typed', async () => {
    const { phone } = await memberWithPhone('MEMBER');
    const forms = [{ phone }, { phone: `0${phone.slice(3)}`, country: 'AU' }, { phone: `+61 ${phone.slice(3)}` }];
    for (const body of forms) expect((await api.anonymous.post('/v1/sign-in/codes', body)).status).toBe(202);
    const fourth = await api.anonymous.post('/v1/sign-in/codes', { phone: `0061${phone.slice(3)}` });
    expect([fourth.status, fourth.body.error.code]).toEqual([429, 'RATE_LIMITED']);
  });

  it('uses a code once: of two sign-ins with it at once, one gets a session', async () => {
    const { phone } = await memberWithPhone('MEMBER');
    await api.anonymous.post('/v1/sign-in/codes', { phone });
    const code = await codeTextedTo(api, phone);
    const answers = await Promise.all([api.anonymous.post('/v1/sign-in/sessions', { phone, code }), api.anonymous.post('/v1/sign-in/sessions', { phone, code })]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 400]);
  });

  it('lets a code expire after its lifetime, and not a millisecond before', async () => {
    const { phone } = await memberWithPhone('MEMBER');
    await api.anonymous.post('/v1/sign-in/codes', { phone });
    const code = await codeTextedTo(api, phone);
    await api.advanceTime(SIGN_IN_CODE.lifetimeMinutes * 60_000 - 1000);
    expect((await api.anonymous.post('/v1/sign-in/sessions', { phone, code })).status).toBe(201);

    await api.anonymous.post('/v1/sign-in/codes', { phone });
    const late = await codeTextedTo(api, phone);
    await api.advanceTime(SIGN_IN_CODE.lifetimeMinutes * 60_000);
    expect((await api.anonymous.post('/v1/sign-in/sessions', { phone, code: late })).body.error.code).toBe('INVALID_CODE');
  });

  it('texts one phone at most three codes in 15 minutes', async () => {
    const { phone } = await memberWithPhone('MEMBER');
    for (let sent = 1; sent <= 3; sent++) expect((await api.anonymous.post('/v1/sign-in/codes', { phone })).status).toBe(202);
    const refused = await api.anonymous.post('/v1/sign-in/codes', { phone });
    expect(refused.status).toBe(429);
    // The rest of the phone's 15-minute window, on the manual clock.
    const windowMs = 900_000;
    expect(Number(refused.headers.get('retry-after'))).toBe(Math.ceil((windowMs - (api.clock.now() % windowMs)) / 1000));
    await api.queuesIdle();
    expect(sentLocally.filter((sms) => sms.to === phone)).toHaveLength(3);
  });

  it('asks which organization when the phone is a member of two, and signs in to the one named', async () => {
    const phone = newPhone();
    const first = await memberWithPhone('ADMIN', phone);
    const second = await memberWithPhone('MEMBER', phone);
    await api.anonymous.post('/v1/sign-in/codes', { phone });
    const code = await codeTextedTo(api, phone);
    const ask = await api.anonymous.post('/v1/sign-in/sessions', { phone, code });
    expect(ask.status).toBe(409);
    expect(ask.body.error.code).toBe('CHOOSE_ORGANIZATION');
    expect(ask.body.error.details.map((detail: { message: string }) => detail.message.split(':')[0]).sort()).toEqual([first.organizationId, second.organizationId].sort());
    const signedIn = await api.anonymous.post('/v1/sign-in/sessions', { phone, code, organizationId: second.organizationId });
    expect(signedIn.body.session).toMatchObject({ organization: { id: second.organizationId }, member: { id: second.member.id, role: 'MEMBER' } });
  });

  it('does not sign in a disabled member', async () => {
    const { phone, member, client } = await memberWithPhone('MEMBER');
    expect((await client.patch(`/v1/organization/members/${member.id}`, { isDisabled: true })).status).toBe(200);
    expect((await api.anonymous.post('/v1/sign-in/codes', { phone })).status).toBe(202);
    await api.queuesIdle();
    expect(sentLocally.filter((sms) => sms.to === phone)).toEqual([]);
  });
});

describe('a member’s session', () => {
  // The writes of a session are attributed to its member in the audit log: functions/audit-log/audit-log.test.ts (the tour's ADMIN).
  it('changes nothing without its CSRF token, or with one a character short or long; with it, the change is made', async () => {
    const { phone, client } = await memberWithPhone('MEMBER');
    const { cookie, csrfToken } = await signIn(phone);
    const without = await browser(cookie).post('/v1/leads', { name: 'Olivia Nguyen', phone: '+61412000111' });
    expect(without).toMatchObject({ status: 403, body: { error: { code: 'CSRF_TOKEN_REQUIRED' } } });
    expect((await browser(cookie, csrfToken.slice(0, -1)).post('/v1/leads', { name: 'Olivia Nguyen', phone: '+61412000111' })).status).toBe(403);
    expect((await browser(cookie, `${csrfToken}x`).post('/v1/leads', { name: 'Olivia Nguyen', phone: '+61412000111' })).status).toBe(403);
    expect((await client.get('/v1/leads')).body.leads).toEqual([]);

    const made = await browser(cookie, csrfToken).post('/v1/leads', { name: 'Olivia Nguyen', phone: '+61412000111' });
    expect(made.status).toBe(201);
    expect((await client.get('/v1/leads')).body.leads.map((lead: { id: string }) => lead.id)).toEqual([made.body.lead.id]);
  });

  it('holds a member to their role: a MEMBER works leads but may not manage webhooks; a MANAGER may not either; an ADMIN may', async () => {
    const webhook = { url: 'https://hooks.example.com/pipeline', events: ['lead.created'] };
    for (const [role, status] of [['MEMBER', 403], ['MANAGER', 403], ['ADMIN', 201]] as const) {
      const { phone } = await memberWithPhone(role);
      const { session } = await signIn(phone);
      expect((await session.get('/v1/leads')).status).toBe(200);
      const answer = await session.post('/v1/webhooks', webhook);
      expect(answer.status, role).toBe(status);
      if (status === 403) expect(answer.body.error).toEqual({ status: 403, code: 'INSUFFICIENT_SCOPE', message: "The API key's scope, or the member's role, does not allow this request" });
    }
  });

  it('is refused from when a role is lowered', async () => {
    const { phone, member, client } = await memberWithPhone('ADMIN');
    // Another ADMIN, signed in: a role is changed by a person, never by a key.
    const other = await memberSession(api, (await client.get('/v1/organization')).body.organization.id);
    const { session } = await signIn(phone);
    expect((await session.get('/v1/webhooks')).status).toBe(200);
    expect((await other.patch(`/v1/organization/members/${member.id}`, { role: 'MEMBER' })).status).toBe(200);
    expect((await session.get('/v1/webhooks')).body.error.code).toBe('INSUFFICIENT_SCOPE');
  });

  it('ends after 30 minutes unused, lives on while used, and ends after 12 hours however used', async () => {
    const { phone } = await memberWithPhone('MEMBER');
    const { session } = await signIn(phone);
    await api.advanceTime(SESSION_LIFETIME.idleMinutes * 60_000 - 1000);
    expect((await session.get('/v1/me')).status).toBe(200);
    // Used just now: its idle end moved on from then, and another 29 minutes is within it.
    await api.advanceTime(SESSION_LIFETIME.idleMinutes * 60_000 - 1000);
    const used = await session.get('/v1/me');
    expect(used.status).toBe(200);
    expect(Date.parse(used.body.session.expiresAt)).toBe(api.clock.now() + SESSION_LIFETIME.idleMinutes * 60_000);
    await api.advanceTime(SESSION_LIFETIME.idleMinutes * 60_000);
    expect((await session.get('/v1/me')).status).toBe(401);

    // Used every 29 minutes, it lives until its 12th hour is out, and not a request longer.
    const { session: busy } = await signIn(phone);
    const step = (SESSION_LIFETIME.idleMinutes - 1) * 60_000;
    const absoluteMs = SESSION_LIFETIME.absoluteHours * 3_600_000;
    let elapsed = 0;
    while (elapsed + step < absoluteMs) {
      await api.advanceTime(step);
      elapsed += step;
      expect((await busy.get('/v1/me')).status, `${elapsed / 60_000} minutes in`).toBe(200);
    }
    await api.advanceTime(absoluteMs - elapsed - 1000);
    expect((await busy.get('/v1/me')).status, 'a second before its end').toBe(200);
    await api.advanceTime(1000);
    expect((await busy.get('/v1/me')).status, 'at its end').toBe(401);
  });

  it('signs out this browser, or every browser, and a signed-out session is refused', async () => {
    const { phone } = await memberWithPhone('MEMBER');
    const one = await signIn(phone);
    const two = await signIn(phone);
    const three = await signIn(phone);
    expect(one.cookie).not.toBe(two.cookie);
    const out = await one.session.delete('/v1/me/session');
    expect(out).toMatchObject({ status: 200, body: { signedOut: 1 } });
    expect(out.headers.get('set-cookie')).toBe(`${SESSION_COOKIE}=; Path=/; Secure; HttpOnly; SameSite=Strict; Max-Age=0`);
    expect((await one.session.get('/v1/me')).status).toBe(401);
    expect((await two.session.get('/v1/me')).status).toBe(200);

    expect((await two.session.delete('/v1/me/sessions')).body).toEqual({ signedOut: 2 });
    expect((await two.session.get('/v1/me')).status).toBe(401);
    expect((await three.session.get('/v1/me')).status).toBe(401);
  });

  it('is refused with a token one character longer or shorter, or naming another member', async () => {
    const { phone } = await memberWithPhone('MEMBER');
    const { cookie } = await signIn(phone);
    expect((await browser(`${cookie}A`).get('/v1/me')).status).toBe(401);
    expect((await browser(cookie.slice(0, -1)).get('/v1/me')).status).toBe(401);
    const otherMember = cookie.replace(/^(.*?sps_[0-9A-Z]{26}_)(\d+)_/, (_, head: string, id: string) => `${head}${Number(id) + 1}_`);
    expect((await browser(otherMember).get('/v1/me')).status).toBe(401);
  });

  it('is for members alone: an API key is refused the member’s own routes', async () => {
    const { client } = await memberWithPhone('ADMIN');
    const answer = await client.get('/v1/me');
    expect(answer).toMatchObject({ status: 403, body: { error: { code: 'SESSION_REQUIRED' } } });
  });
});

describe('connecting an assistant as a member signed in to the console', () => {
  /** The consent page of a registered client, as the browser asks for it with the session cookie. */
  async function consentPageFor(cookie: string | undefined) {
    const clientId = await registeredClient(api);
    const { verifier, challenge } = pkce();
    const query = new URLSearchParams({ response_type: 'code', client_id: clientId, redirect_uri: LOOPBACK_REDIRECT, code_challenge: challenge, code_challenge_method: 'S256' });
    const page = await fetch(`${api.url}/oauth/authorize?${query}`, { headers: cookie ? { cookie } : {} });
    expect(page.status).toBe(200);
    return { clientId, verifier, query, html: await page.text(), csrfCookie: (page.headers.get('set-cookie') ?? '').split(';')[0]! };
  }

  const post = (fields: Record<string, string>, cookie: string) =>
    fetch(`${api.url}/oauth/authorize`, { method: 'POST', redirect: 'manual', headers: { 'content-type': 'application/x-www-form-urlencoded', cookie }, body: new URLSearchParams(fields) });

  it('grants for the member’s organization with no key, no wider than the role, and the client’s token lists as the organization’s grant', async () => {
    const { phone, client } = await memberWithPhone('MEMBER');
    const { cookie } = await signIn(phone);
    const { clientId, verifier, html, csrfCookie } = await consentPageFor(cookie);
    expect(html).toContain('You are signed in as <strong>Sam Okafor</strong>');
    expect(html).not.toContain('name="api_key"');
    expect([...html.matchAll(/name="granted_scope" value="(\w+)"/g)].map(([, scope]) => scope)).toEqual(['read']);
    const fields = { ...formFieldsOf(html), decision: 'allow' };

    const tooWide = await post({ ...fields, granted_scope: 'write' }, `${cookie}; ${csrfCookie}`);
    expect(tooWide.status).toBe(200);
    expect(await tooWide.text()).toContain('As a MEMBER you may grant read at most, not write.');

    const allowed = await post({ ...fields, granted_scope: 'read' }, `${cookie}; ${csrfCookie}`);
    expect(allowed.status).toBe(303);
    const code = new URL(allowed.headers.get('location')!).searchParams.get('code')!;
    const tokens = await fetch(`${api.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: LOOPBACK_REDIRECT, code_verifier: verifier, client_id: clientId }),
    });
    expect(tokens.status).toBe(200);
    expect(((await tokens.json()) as { scope: string }).scope).toBe('read');
    expect((await client.get('/v1/oauth/grants')).body.grants).toEqual([expect.objectContaining({ clientId, scope: 'read' })]);
  });

  it('asks someone not signed in for a key, and links to the console’s sign-in, which brings them back to this request', async () => {
    const { html, query } = await consentPageFor(undefined);
    expect(html).toContain('name="api_key"');
    expect(html).toContain(`<a href="/console/sign-in?return=${encodeURIComponent(`/oauth/authorize?${query}`).replace(/&/g, '&amp;')}">Sign in to the console</a>`);
  });
});

describe('API keys, made and revoked by an ADMIN signed in', () => {
  it('makes a key whose token is shown once and works, lists it without the token, and revokes it', async () => {
    const { phone } = await memberWithPhone('ADMIN');
    const { session } = await signIn(phone);
    const made = await session.post('/v1/api-keys', { name: 'Website form', scope: 'write' });
    expect(made.status).toBe(201);
    expect(made.body.key).toMatchObject({ name: 'Website form', scope: 'write', lastUsedAt: null, revokedAt: null });
    expect(made.body.key.token).toMatch(/^sp_live_[A-Za-z0-9_-]{43}$/);
    const integration = api.as(made.body.key.token);
    expect((await integration.get('/v1/leads')).status).toBe(200);

    // Newest first: a second key made a moment later heads the list, before the first and the organization's own.
    await new Promise((resolve) => setTimeout(resolve, 5));
    const second = (await session.post('/v1/api-keys', { name: 'Zapier' })).body.key;
    const listed = await session.get('/v1/api-keys');
    expect(listed.body.keys.map((key: { id: string }) => key.id)).toEqual([second.id, made.body.key.id, expect.stringMatching(/^key_/)]);
    expect(JSON.stringify(listed.body)).not.toContain(made.body.key.token);

    expect((await session.delete(`/v1/api-keys/${made.body.key.id}`)).body).toEqual({ success: true, id: made.body.key.id });
    expect((await integration.get('/v1/leads')).status).toBe(401);
    // Revoked at the request's time (the keys' store reads the request's clock, not the tests' manual one): after it was made.
    const { revokedAt } = (await session.get('/v1/api-keys')).body.keys.find((key: { id: string }) => key.id === made.body.key.id);
    expect(revokedAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(Date.parse(revokedAt)).toBeGreaterThanOrEqual(Date.parse(made.body.key.createdAt));
  });

  it('is an ADMIN’s alone: a MANAGER is refused, a key is refused, and another organization’s key is not found', async () => {
    const { phone, client } = await memberWithPhone('MANAGER');
    const { session: manager } = await signIn(phone);
    expect((await manager.get('/v1/api-keys')).status).toBe(403);
    expect((await manager.post('/v1/api-keys', { name: 'Mine' })).status).toBe(403);
    expect((await client.get('/v1/api-keys')).body.error.code).toBe('SESSION_REQUIRED');
    expect((await client.post('/v1/api-keys', { name: 'Another key' })).body.error.code).toBe('SESSION_REQUIRED');

    const { phone: adminPhone } = await memberWithPhone('ADMIN');
    const { session: admin } = await signIn(adminPhone);
    const theirs = (await admin.post('/v1/api-keys', { name: 'Theirs' })).body.key.id as string;
    const { phone: otherPhone } = await memberWithPhone('ADMIN');
    const { session: otherAdmin } = await signIn(otherPhone);
    expect((await otherAdmin.delete(`/v1/api-keys/${theirs}`)).status).toBe(404);
    expect((await otherAdmin.get('/v1/api-keys')).body.keys.map((key: { id: string }) => key.id)).not.toContain(theirs);
  });
});

describe('signing in with a passkey, refused', () => {
  /** An assertion no authenticator made, naming a challenge: its credential is enrolled nowhere. */
  const forged = (challenge: string) => ({
    id: 'bm90LWVucm9sbGVk',
    rawId: 'bm90LWVucm9sbGVk',
    type: 'public-key',
    response: { clientDataJSON: Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge, origin: api.url })).toString('base64url'), authenticatorData: 'AAAA', signature: 'AAAA' },
    clientExtensionResults: {},
  });
  const refusal = async (credential: unknown) => (await api.anonymous.post('/v1/sign-in/passkey', { credential })).body.error;

  it('takes a challenge once, and not after five minutes', async () => {
    const { challenge } = (await api.anonymous.post('/v1/sign-in/passkey-options', {})).body.options;
    expect(await refusal(forged(challenge))).toMatchObject({ code: 'PASSKEY_REFUSED', message: expect.stringContaining('it is not enrolled here') });
    // The same challenge again: it was taken by the first answer.
    expect((await refusal(forged(challenge))).message).toContain('its challenge is unknown, used or expired');

    const late = (await api.anonymous.post('/v1/sign-in/passkey-options', {})).body.options.challenge;
    await api.advanceTime(5 * 60_000);
    expect((await refusal(forged(late))).message).toContain('its challenge is unknown, used or expired');
    const inTime = (await api.anonymous.post('/v1/sign-in/passkey-options', {})).body.options.challenge;
    await api.advanceTime(5 * 60_000 - 1000);
    expect((await refusal(forged(inTime))).message).toContain('it is not enrolled here');
  });

  it('refuses a challenge it never gave, or one a character longer', async () => {
    const { challenge } = (await api.anonymous.post('/v1/sign-in/passkey-options', {})).body.options;
    expect((await refusal(forged(`${challenge}A`))).message).toContain('its challenge is unknown, used or expired');
    expect((await refusal(forged('A'.repeat(43)))).message).toContain('its challenge is unknown, used or expired');
  });
});

describe('what sign-in keeps in the table', () => {
  const itemAt = async (key: { pk: string; sk: string }) => (await dynamo.send(new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: true }))).Item;
  const sessionKey = (cookie: string, organizationId: string, memberId: number) => signInKeys.session(organizationId, memberId, sessionTokenHash(cookie.split('=')[1]!));

  it('expires a code and a session by TTL when their lifetimes end, and writes a session’s last use at most once a minute', async () => {
    const { phone, organizationId, member } = await memberWithPhone('MEMBER');
    await api.anonymous.post('/v1/sign-in/codes', { phone });
    const texted = await codeTextedTo(api, phone);
    const code = await itemAt(signInKeys.signInCode(createHash('sha256').update(phone).digest('hex')));
    expect(code!.expiresAtEpoch).toBe(Math.ceil(api.clock.now() / 1000) + SIGN_IN_CODE.lifetimeMinutes * 60);
    expect(code!.codeHash).not.toContain(texted);

    const signedIn = await api.anonymous.post('/v1/sign-in/sessions', { phone, code: await codeTextedTo(api, phone) });
    const cookie = cookieOf(signedIn.headers.get('set-cookie'));
    const key = sessionKey(cookie, organizationId, member.id);
    const stored = await itemAt(key);
    expect(stored).toMatchObject({ signedInWith: 'SMS_CODE', expiresAtEpoch: Math.ceil((api.clock.now() + SESSION_LIFETIME.absoluteHours * 3_600_000) / 1000) });
    const firstSeen = stored!.lastSeenAt;
    await api.advanceTime(60_000);
    expect((await browser(cookie).get('/v1/me')).status).toBe(200);
    expect((await itemAt(key))!.lastSeenAt, 'a minute on: not yet written again').toBe(firstSeen);
    await api.advanceTime(1);
    expect((await browser(cookie).get('/v1/me')).status).toBe(200);
    expect((await itemAt(key))!.lastSeenAt, 'past a minute: written').toBe(new Date(api.clock.now()).toISOString());
  });

  it('keeps a correct code when the organization named is none of the phone’s, and signs in with it after', async () => {
    const { phone, organizationId } = await memberWithPhone('MEMBER');
    const other = await api.organization();
    await api.anonymous.post('/v1/sign-in/codes', { phone });
    const code = await codeTextedTo(api, phone);
    expect((await api.anonymous.post('/v1/sign-in/sessions', { phone, code, organizationId: other.organizationId })).body.error.code).toBe('INVALID_CODE');
    expect((await api.anonymous.post('/v1/sign-in/sessions', { phone, code, organizationId })).status).toBe(201);
  });
});
