import type { ResourceTour, TourState } from '#shared/route-tour';
import { sentLocally } from '../sms/local-provider';
import { TOUR_MEMBER_PHONE } from '../organization/tour';

const phone = TOUR_MEMBER_PHONE;
/** The code the local SMS provider last texted to the tour's member. */
const codeTexted = () => /^(\d{6}) /.exec(sentLocally.filter((sms) => sms.to === phone).at(-1)?.body ?? '')?.[1] ?? '000000';
/** The session as its bearer token (what the edge makes of the cookie), and its CSRF token for a change. */
export const asMember = (s: TourState, change = false) => ({ authorization: `Bearer ${s.sessionToken}`, ...(change ? { 'x-csrf-token': s.csrfToken } : {}) });
const keepSession = (body: any, s: TourState, headers: Headers) => {
  s.sessionToken = /^__Host-session=(sps_[^;]+);/.exec(headers.get('set-cookie') ?? '')?.[1];
  s.csrfToken = body.session.csrfToken;
  s.sessionMemberId = body.session.member.id;
};
/** A credential id no passkey has: the tour enrols none (a forged answer is refused), so removing one answers 404. */
const NO_PASSKEY = 'A'.repeat(43);
/**
 * A WebAuthn answer no authenticator made, naming the challenge the API gave: the challenge is taken, the credential is
 * not one enrolled, and it is refused before any signature is verified.
 */
const forged = (challenge = 'AAAAAAAAAAAAAAAAAAAAAA') => ({
  id: 'AAAA',
  rawId: 'AAAA',
  type: 'public-key',
  response: { clientDataJSON: Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge })).toString('base64url'), authenticatorData: 'AAAA', signature: 'AAAA', attestationObject: 'AAAA' },
  clientExtensionResults: {},
});

/**
 * The route tour's requests of the console (test/support/route-tour.ts): the organization's ADMIN (made on its tour with
 * a phone) is texted a code and signs in; the session then reads itself, starts a passkey enrolment and signs out
 * everywhere (at the tour's end, after the API keys'); a second sign-in signs out of itself. The passkey ceremonies are toured as the refusal a forged answer
 * gets, and a passkey's removal as the 404 of one never enrolled (a real passkey is enrolled, signed in with and
 * removed in functions/sign-in/passkeys.test.ts, and a browser's virtual authenticator's in test/console.test.ts).
 */
export const tour: ResourceTour = {
  after: ['organization'],
  stops: [
    { route: 'POST /v1/sign-in/codes', kind: 'other', request: () => ({ method: 'POST', path: '/v1/sign-in/codes', body: { phone } }) },
    { route: 'POST /v1/sign-in/sessions', kind: 'other', afterQueues: true, request: () => ({ method: 'POST', path: '/v1/sign-in/sessions', body: { phone, code: codeTexted() } }), keep: keepSession },
    { route: 'POST /v1/sign-in/passkey-options', kind: 'other', request: () => ({ method: 'POST', path: '/v1/sign-in/passkey-options', body: {} }), keep: (b, s) => (s.challenge = b.options.challenge) },
    { route: 'POST /v1/sign-in/passkey', kind: 'other', status: 400, request: (s) => ({ method: 'POST', path: '/v1/sign-in/passkey', body: { credential: forged(s.challenge) } }) },
    // The member, their organization and their passkeys: three reads at once.
    { route: 'GET /v1/me', kind: 'other', request: (s) => ({ method: 'GET', path: '/v1/me', headers: asMember(s) }) },
    { route: 'POST /v1/me/passkey-options', kind: 'other', request: (s) => ({ method: 'POST', path: '/v1/me/passkey-options', body: {}, headers: asMember(s, true) }) },
    { route: 'POST /v1/me/passkeys', kind: 'other', status: 400, request: (s) => ({ method: 'POST', path: '/v1/me/passkeys', body: { credential: forged() }, headers: asMember(s, true) }) },
    // The member and its passkeys, read together.
    { route: 'GET /v1/organization/members/{memberId}/passkeys', kind: 'list', request: (s) => ({ method: 'GET', path: `/v1/organization/members/${s.sessionMemberId}/passkeys`, headers: asMember(s) }) },
    { route: 'DELETE /v1/organization/members/{memberId}/passkeys/{passkeyId}', kind: 'other', status: 404, request: (s) => ({ method: 'DELETE', path: `/v1/organization/members/${s.sessionMemberId}/passkeys/${NO_PASSKEY}`, headers: asMember(s, true) }) },
    { route: 'DELETE /v1/me/passkeys/{passkeyId}', kind: 'other', status: 404, request: (s) => ({ method: 'DELETE', path: `/v1/me/passkeys/${NO_PASSKEY}`, headers: asMember(s, true) }) },
  ],
  // Signing out at the end, so the session stays for the resources toured after this one (the API keys).
  last: [
    { route: 'DELETE /v1/me/sessions', kind: 'other', request: (s) => ({ method: 'DELETE', path: '/v1/me/sessions', headers: asMember(s, true) }) },
    { route: 'POST /v1/sign-in/codes', kind: 'other', request: () => ({ method: 'POST', path: '/v1/sign-in/codes', body: { phone } }) },
    { route: 'POST /v1/sign-in/sessions', kind: 'other', afterQueues: true, request: () => ({ method: 'POST', path: '/v1/sign-in/sessions', body: { phone, code: codeTexted() } }), keep: keepSession },
    { route: 'DELETE /v1/me/session', kind: 'other', request: (s) => ({ method: 'DELETE', path: '/v1/me/session', headers: asMember(s, true) }) },
  ],
};
