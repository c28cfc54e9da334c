import { describe, expect, it } from 'vitest';
import { API_KEY_SCOPES, type ApiKeyScope } from '#shared/auth/scopes';
import type { MemberRole } from '#shared/member-roles';
import { createMember } from '../organization/member-rules';
import { findSecret } from './secrets';
import { useTestApi } from '../../test/support/api';
import { countDynamoCalls } from '../../test/support/dynamo-calls';
import { requestFrom, type AnsweredFrom } from '../../test/support/from-address';
import { codeTextedTo } from '../../test/support/member-session';
import { formFieldsOf, LOOPBACK_REDIRECT, pkce, registeredClient, consentPage as pageOf } from '../../test/support/oauth';

/**
 * The consent page's CSRF token, which only this server makes, bound to the page's cookie and to the console session
 * the browser sends; and what a member signed in to the console may grant there, by role.
 */
const api = useTestApi();

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const JSON_BODY = { 'content-type': 'application/json' };

// Each post from an address of its own: the file posts the consent page more often than one address may in a minute.
let posts = 0;
const post = (fields: Record<string, string>, cookie: string, headers: Record<string, string> = {}): Promise<AnsweredFrom> =>
  requestFrom(`127.0.${200 + Math.floor(posts / 250)}.${(posts++ % 250) + 1}`, 'POST', `${api.url}/oauth/authorize`, new URLSearchParams(fields).toString(), { ...FORM, cookie, ...headers });

let members = 0;
/** A new member of a new organization, of `role`, signed in with a texted code: their session cookie as the browser sends it. */
async function signedIn(role: MemberRole) {
  const organization = await api.organization();
  members += 1;
  const phone = `+61491572${String(100 + members).padStart(3, '0')}`;
  const member = await createMember(organization.organizationId, { role, firstName: 'Sam', lastName: 'Okafor', email: `sam${members}@example.com`, phone });
  const address = `127.0.60.${members}`;
  expect((await requestFrom(address, 'POST', `${api.url}/v1/sign-in/codes`, JSON.stringify({ phone }), JSON_BODY)).status).toBe(202);
  const answer = await requestFrom(address, 'POST', `${api.url}/v1/sign-in/sessions`, JSON.stringify({ phone, code: await codeTextedTo(api, phone) }), JSON_BODY);
  const token = /^__Host-session=(sps_[^;]+);/.exec([answer.headers['set-cookie']].flat().join())?.[1];
  if (answer.status !== 201 || !token) throw new Error(`the member did not sign in: ${answer.status} ${JSON.stringify(answer.body)}`);
  return { ...organization, member, session: `__Host-session=${token}` };
}

/** A registered client's consent page, as the browser asks for it (with its console session, if any): its form and its CSRF cookie. */
async function consentPage(session?: string) {
  const query = new URLSearchParams({ response_type: 'code', client_id: await registeredClient(api), redirect_uri: LOOPBACK_REDIRECT, code_challenge: pkce().challenge, code_challenge_method: 'S256', state: 'xyz' });
  const page = await pageOf(`${api.url}/oauth/authorize?${query}`, session ? { cookie: session } : {});
  expect(page.status).toBe(200);
  const html = await page.text();
  const csrfCookie = /^oauth_csrf=[A-Za-z0-9_-]{32}/.exec(page.headers.get('set-cookie') ?? '')![0];
  const fields: Record<string, string> = { ...formFieldsOf(html), decision: 'allow' };
  return { html, fields, csrfCookie };
}

const refusedForCsrf = (answer: AnsweredFrom) => [answer.status, answer.body?.error?.details?.[0]?.path, answer.headers.location];

describe('the consent page’s CSRF token', () => {
  it('refuses a token and cookie made up equal, and the page’s own cookie value posted as the token', async () => {
    const { apiKey } = await api.organization();
    const { fields, csrfCookie } = await consentPage();
    const withKey = { ...fields, api_key: apiKey };
    for (const invented of ['x', 'AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA', csrfCookie.split('=')[1]!]) {
      expect(refusedForCsrf(await post({ ...withKey, csrf_token: invented }, `oauth_csrf=${invented}`)), invented).toEqual([400, 'csrf_token', undefined]);
    }
    expect((await post(withKey, csrfCookie)).status).toBe(303);
  });

  it('refuses a page’s token with a cookie a character longer or shorter, or empty, and a token so, or empty, with the page’s cookie', async () => {
    const { apiKey } = await api.organization();
    const { fields, csrfCookie } = await consentPage();
    const token = fields.csrf_token!;
    const withKey: Record<string, string> = { ...fields, api_key: apiKey };
    const flipped = (text: string) => `${text.slice(0, -1)}${text.endsWith('A') ? 'B' : 'A'}`;
    for (const cookie of [`${csrfCookie}A`, csrfCookie.slice(0, -1), flipped(csrfCookie), 'oauth_csrf=', '']) {
      expect(refusedForCsrf(await post(withKey, cookie)), cookie).toEqual([400, 'csrf_token', undefined]);
    }
    for (const posted of [`${token}A`, token.slice(0, -1), flipped(token), '']) {
      expect(refusedForCsrf(await post({ ...withKey, csrf_token: posted }, csrfCookie)), posted).toEqual([400, 'csrf_token', undefined]);
    }
    const { csrf_token: _, ...withoutToken } = withKey;
    expect(refusedForCsrf(await post(withoutToken, csrfCookie))).toEqual([400, 'csrf_token', undefined]);
    expect((await post(withKey, csrfCookie)).status).toBe(303);
  });

  it('refuses a token served to one console session with another’s, or with none, and a token served to no session with one', async () => {
    const [one, other] = [await signedIn('ADMIN'), await signedIn('ADMIN')];
    const { fields, csrfCookie } = await consentPage(one.session);
    expect(refusedForCsrf(await post(fields, `${other.session}; ${csrfCookie}`))).toEqual([400, 'csrf_token', undefined]);
    expect(refusedForCsrf(await post(fields, csrfCookie))).toEqual([400, 'csrf_token', undefined]);
    // The other session's own page, posted with the first session's cookie, neither.
    const theirs = await consentPage(other.session);
    expect(refusedForCsrf(await post(theirs.fields, `${one.session}; ${theirs.csrfCookie}`))).toEqual([400, 'csrf_token', undefined]);
    // A page served to no one signed in, posted with a key by a browser that carries a session.
    const anonymous = await consentPage();
    expect(refusedForCsrf(await post({ ...anonymous.fields, api_key: one.apiKey }, `${one.session}; ${anonymous.csrfCookie}`))).toEqual([400, 'csrf_token', undefined]);
    // Each page with its own session and cookie.
    expect((await post(fields, `${one.session}; ${csrfCookie}`)).status).toBe(303);
    expect((await post(theirs.fields, `${other.session}; ${theirs.csrfCookie}`)).status).toBe(303);
  });
});

describe('the consent post from another site', () => {
  it('is refused 403 CROSS_SITE_REQUEST before anything is read, whatever it carries; the page’s own post is taken', async () => {
    const { apiKey } = await api.organization();
    const { fields, csrfCookie } = await consentPage();
    const withKey = { ...fields, api_key: apiKey };
    const crossSite: Record<string, string>[] = [{ 'sec-fetch-site': 'cross-site' }, { 'sec-fetch-site': 'same-site' }, { origin: 'https://attacker.example' }, { origin: 'null' }];
    for (const headers of crossSite) {
      let answer: AnsweredFrom | undefined;
      const calls = await countDynamoCalls(async () => void (answer = await post(withKey, csrfCookie, headers)));
      expect([answer!.status, answer!.body.error.code, answer!.headers.location], JSON.stringify(headers)).toEqual([403, 'CROSS_SITE_REQUEST', undefined]);
      expect(calls, JSON.stringify(headers)).toEqual([]);
    }
    // The page's form as a browser posts it: same-origin, and Origin null under the page's no-referrer policy.
    expect((await post(withKey, csrfCookie, { origin: 'null', 'sec-fetch-site': 'same-origin' })).status).toBe(303);
    expect((await post(withKey, csrfCookie, { origin: new URL(api.url).origin, 'sec-fetch-site': 'same-origin' })).status).toBe(303);
  });
});

describe('consenting as a member signed in to the console', () => {
  /** What each role may grant an assistant (functions/sign-in/signed-in.ts `grantableScope`), written out. */
  const GRANTABLE: Record<MemberRole, ApiKeyScope[]> = { MEMBER: ['read'], MANAGER: ['read'], ADMIN: ['read', 'write', 'full'] };

  it('offers and grants each role exactly its scopes: read for a MEMBER and a MANAGER, every scope for an ADMIN', async () => {
    for (const role of ['MEMBER', 'MANAGER', 'ADMIN'] as const) {
      const { session } = await signedIn(role);
      for (const scope of API_KEY_SCOPES) {
        const { html, fields, csrfCookie } = await consentPage(session);
        expect(html, role).toContain('You are signed in as <strong>Sam Okafor</strong>');
        expect([...html.matchAll(/name="granted_scope" value="(\w+)"/g)].map(([, offered]) => offered), role).toEqual(GRANTABLE[role]);
        const answer = await post({ ...fields, granted_scope: scope }, `${session}; ${csrfCookie}`);
        if (!GRANTABLE[role].includes(scope)) {
          expect([answer.status, answer.headers.location], `${role} ${scope}`).toEqual([200, undefined]);
          expect(answer.body, `${role} ${scope}`).toContain(`As a ${role} you may grant read at most, not ${scope}.`);
          continue;
        }
        expect(answer.status, `${role} ${scope}`).toBe(303);
        // The code issued is for the scope chosen (its exchange answers that scope: ./oauth.test.ts).
        const code = new URL(String(answer.headers.location)).searchParams.get('code')!;
        expect((await findSecret(code, 'code'))?.scope, `${role} ${scope}`).toBe(scope);
      }
    }
  });

  it('treats a disabled member’s session as no one signed in: the page asks for a key and links to sign-in, and a post with it issues nothing', async () => {
    const { session, member, client } = await signedIn('ADMIN');
    // A page served while the member was active, posted once they are disabled.
    const before = await consentPage(session);
    expect(before.html).toContain('You are signed in as');
    expect((await client.patch(`/v1/organization/members/${member.id}`, { isDisabled: true })).status).toBe(200);

    const { html, fields, csrfCookie } = await consentPage(session);
    expect(html).not.toContain('You are signed in as');
    expect(html).toContain('name="api_key"');
    expect(html).toContain('>Sign in to the console</a>');
    for (const [posted, cookie] of [[fields, csrfCookie], [before.fields, before.csrfCookie]] as const) {
      let answer: AnsweredFrom | undefined;
      const calls = await countDynamoCalls(async () => void (answer = await post({ ...posted, granted_scope: 'read' }, `${session}; ${cookie}`)));
      expect([answer!.status, answer!.headers.location]).toEqual([200, undefined]);
      expect(answer!.body).toContain('That is not an active API key of an organization: paste another.');
      // Nothing written but the address's count of consent posts (the per-source limit): no key, no code.
      expect(calls.filter((command) => !/^(Get|Query)/.test(command))).toEqual(['UpdateItemCommand']);
    }
  });
});
