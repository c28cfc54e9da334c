import { defineRoute, type RouteDefinition } from '#shared/routes/route';
import { prose } from '#shared/prose';
import { CROSS_SITE_REQUEST, refuseCrossSiteRequest } from '#shared/http/cross-site';
import { authorizerCacheFlush } from '#shared/auth/authorizer-cache-flush';
import { signInCodeQueueSender } from './code-queue';
import { OrganizationMemberIdPath } from '../organization/member-schema';
import { CREDENTIAL_CLAIMS } from './entity';
import {
  AddPasskeyBody,
  CodeSent,
  CurrentSession,
  MemberPasskeyPath,
  PasskeyAdded,
  PasskeyIdPath,
  PasskeyList,
  PasskeyOptions,
  PasskeyRemoved,
  RequestCodeBody,
  SignedIn,
  SignedOut,
  SignInWithCodeBody,
  SignInWithPasskeyBody,
} from './schema';
import { SIGN_IN_SOURCE_LIMITS as LIMITS } from './source-limits';
import { SESSION_COOKIE, SESSION_LIFETIME, SIGN_IN_CODE } from './settings';

const TAG = 'Console sign-in';

/** Anyone may call these: a person signing in has nothing yet. Each source and phone has its own budget (./source-limits.ts). */
const PUBLIC = {
  tag: TAG,
  auth: 'none' as const,
  idempotencyKey: false as const,
  // Far above what people signing in ask for, below the stage's: the per-source limits are what stop one caller.
  throttle: { rateLimit: 50, burstLimit: 100 },
  // A page on another site must not sign a browser in (to the attacker's account) or spend a phone's codes.
  admission: refuseCrossSiteRequest,
};

/** What `admission` refuses, before anything else. */
const CROSS_SITE = {
  description: prose`
    ${CROSS_SITE_REQUEST}: a browser sent it from a page of another site (\`Sec-Fetch-Site\` \`cross-site\` or
    \`same-site\`, or an \`Origin\` other than the API’s own). Nothing ran and no cookie is set. A client that is no
    browser sends neither header.
  `,
};

const COOKIE = prose`
  The answer sets the session cookie \`${SESSION_COOKIE}\` (HttpOnly, Secure, SameSite=Strict, Path=/), a new one at
  every sign-in. The session ends after ${SESSION_LIFETIME.idleMinutes} minutes without a request and after
  ${SESSION_LIFETIME.absoluteHours} hours in any case. Every request but GET made with it carries \`X-CSRF-Token\`
  (\`csrfToken\` in this answer).
`;

const SET_COOKIE = { 'Set-Cookie': `The session cookie, \`${SESSION_COOKIE}=<token>; Path=/; Secure; HttpOnly; SameSite=Strict\`.` };

const attemptsLimited = `More than ${LIMITS.attemptsPerAddressPerMinute.limit} sign-in attempts from this address this minute: wait the Retry-After seconds.`;

export const requestSignInCode = defineRoute({
  ...PUBLIC,
  operationId: 'requestSignInCode',
  method: 'POST',
  path: '/v1/sign-in/codes',
  summary: 'Text a sign-in code to a member’s phone',
  description: prose`
    Texts a ${SIGN_IN_CODE.digits}-digit code, good for ${SIGN_IN_CODE.lifetimeMinutes} minutes and once, to the phone
    if it is an active member’s (of one or more organizations), replacing any code sent to it before. The answer is the
    same whether or not it is, and comes as soon: it says nothing of who is a member, and the text follows it within
    seconds. A phone is sent at most
    ${LIMITS.codesPerPhonePer15Minutes.limit} codes in 15 minutes and ${LIMITS.codesPerPhonePerDay.limit} a day; an
    address asks at most ${LIMITS.codesPerAddressPerHour.limit} an hour.
  `,
  // The source's and the phone's counters, then the ask to the queue: the worker reads the phone's members (./code-queue.ts).
  dynamodb: ['UpdateItem'],
  ownKeys: ['SOURCELIMIT#*'],
  capabilities: [signInCodeQueueSender],
  status: 202,
  request: { body: RequestCodeBody },
  response: CodeSent,
  errors: [400, 403],
  responses: { 403: CROSS_SITE, 429: { description: 'Too many codes asked from this address or for this phone: wait the Retry-After seconds.' } },
});

export const signInWithCode = defineRoute({
  ...PUBLIC,
  operationId: 'signInWithCode',
  method: 'POST',
  path: '/v1/sign-in/sessions',
  summary: 'Sign in with the code a phone was texted',
  description: prose`
    Signs the member in with the code texted to their phone. A wrong or expired code answers 400 INVALID_CODE, and the
    code is burnt after ${SIGN_IN_CODE.attempts} wrong tries; a code is used once. A phone that is a member of more
    than one organization answers 409 CHOOSE_ORGANIZATION, listing them in \`details\` (\`<id>: <name>\`): send the
    same code again with \`organizationId\`. ${COOKIE}
  `,
  dynamodb: ['UpdateItem', 'GetItem', 'DeleteItem', 'Query', 'PutItem'],
  indexes: ['gsi1'],
  // Each key only what it takes: the challenge read, counted and spent; a member found by phone; a session made.
  ownKeys: [{ keys: 'SOURCELIMIT#*', actions: ['UpdateItem'] }, { keys: 'SIGNIN#*', actions: ['GetItem', 'UpdateItem', 'DeleteItem'] }, { keys: 'MEMBERPHONE#*', actions: ['Query'] }, { keys: 'ORG#*', actions: ['GetItem', 'PutItem'] }],
  status: 201,
  request: { body: SignInWithCodeBody },
  response: SignedIn,
  errors: [400, 403, 409],
  responses: {
    201: { headers: SET_COOKIE },
    403: CROSS_SITE,
    429: { description: attemptsLimited },
  },
});

export const passkeySignInOptions = defineRoute({
  ...PUBLIC,
  operationId: 'passkeySignInOptions',
  method: 'POST',
  path: '/v1/sign-in/passkey-options',
  summary: 'Start a sign-in with a passkey',
  description: prose`
    The WebAuthn options of a passkey sign-in: a challenge good for one use in the next few minutes, and no credential
    named, so the person’s authenticator offers the passkeys it holds for this site. Hand \`options\` to the browser,
    then post what it answers to \`POST /v1/sign-in/passkey\`.
  `,
  dynamodb: ['UpdateItem', 'PutItem'],
  ownKeys: [{ keys: 'SOURCELIMIT#*', actions: ['UpdateItem'] }, { keys: 'SIGNIN#*', actions: ['PutItem'] }],
  status: 200,
  request: {},
  response: PasskeyOptions,
  errors: [403],
  responses: { 403: CROSS_SITE, 429: { description: attemptsLimited } },
});

export const signInWithPasskey = defineRoute({
  ...PUBLIC,
  operationId: 'signInWithPasskey',
  method: 'POST',
  path: '/v1/sign-in/passkey',
  summary: 'Sign in with a passkey',
  description: prose`
    Verifies the browser’s passkey assertion: its challenge (one use), its origin and site, its signature by a
    passkey a member enrolled, and that the person was verified on the authenticator. Anything else answers 400
    PASSKEY_REFUSED, saying why; the person can sign in with a texted code instead. ${COOKIE}
  `,
  dynamodb: ['UpdateItem', 'DeleteItem', 'Query', 'GetItem', 'PutItem'],
  indexes: ['gsi1'],
  // Each key only what it takes: the challenge spent; the credential found; the member read, its passkey's count moved, a session made.
  ownKeys: [{ keys: 'SOURCELIMIT#*', actions: ['UpdateItem'] }, { keys: 'SIGNIN#*', actions: ['GetItem', 'DeleteItem'] }, { keys: 'PASSKEY#*', actions: ['Query'] }, { keys: 'ORG#*', actions: ['GetItem', 'PutItem', 'UpdateItem'] }],
  status: 201,
  request: { body: SignInWithPasskeyBody },
  response: SignedIn,
  errors: [400, 403],
  responses: {
    201: { headers: SET_COOKIE },
    403: CROSS_SITE,
    429: { description: attemptsLimited },
  },
});

/** A member's own session: a key belongs to no member, so these answer it 403 SESSION_REQUIRED. */
const SESSION = { tag: TAG, errors: [403], sessionOnly: true as const };

export const getCurrentSession = defineRoute({
  ...SESSION,
  operationId: 'getCurrentSession',
  method: 'GET',
  path: '/v1/me',
  summary: 'The member signed in, their organization and passkeys',
  description: prose`
    The session’s member, organization, CSRF token (for \`X-CSRF-Token\`) and end, and the member’s passkeys. The
    console reads it when it loads; a 401 means no session (sign in again).
  `,
  dynamodb: ['GetItem', 'Query'],
  status: 200,
  request: {},
  response: CurrentSession,
});

export const passkeyEnrolmentOptions = defineRoute({
  ...SESSION,
  operationId: 'passkeyEnrolmentOptions',
  method: 'POST',
  path: '/v1/me/passkey-options',
  summary: 'Start enrolling a passkey',
  description: prose`
    The WebAuthn options to make a new passkey for the member signed in (a discoverable credential, the person
    verified), naming the passkeys they have so the authenticator makes no second. A new request replaces one under way.
  `,
  dynamodb: ['GetItem', 'Query', 'PutItem'],
  status: 200,
  request: {},
  response: PasskeyOptions,
  idempotencyKey: false,
});

export const addPasskey = defineRoute({
  ...SESSION,
  operationId: 'addPasskey',
  method: 'POST',
  path: '/v1/me/passkeys',
  summary: 'Enrol a passkey',
  description: prose`
    Verifies the authenticator’s new credential against the enrolment under way (its challenge used once) and keeps
    it: the member can sign in with it from then on. 400 PASSKEY_REFUSED says why one was not accepted. A credential
    is one member’s alone: one enrolled already, by this member or any other of any organization, answers 409
    CREDENTIAL_TAKEN (make a new passkey).
  `,
  dynamodb: ['GetItem', 'DeleteItem', 'PutItem'],
  // The credential id's claim, put with the passkey: credential ids are one namespace across organizations.
  sharedPartitions: [CREDENTIAL_CLAIMS],
  status: 201,
  request: { body: AddPasskeyBody },
  // What a browser's startRegistration answers (abridged: an authenticator's real values are longer).
  requestExample: {
    credential: {
      id: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LVTxR7v3CaKfCz2Vy_g_MHSh7yJ8yL0Pxg6jo_o0hYiew',
      rawId: 'KEbWNCc7NgaYnUyrNeFGX9_3Y-8oJ3KwzjnaiD1d1LVTxR7v3CaKfCz2Vy_g_MHSh7yJ8yL0Pxg6jo_o0hYiew',
      type: 'public-key',
      response: { clientDataJSON: 'eyJ0eXBlIjoid2ViYXV0aG4uY3JlYXRlIn0', attestationObject: 'o2NmbXRkbm9uZWdhdHRTdG10oGhhdXRoRGF0YQ', transports: ['internal', 'hybrid'] },
      clientExtensionResults: {},
    },
    name: 'Work phone',
  },
  response: PasskeyAdded,
  errors: [400, 403, 409],
  idempotencyKey: false,
});

export const removePasskey = defineRoute({
  ...SESSION,
  operationId: 'removePasskey',
  method: 'DELETE',
  path: '/v1/me/passkeys/{passkeyId}',
  summary: 'Remove one of your passkeys',
  description: prose`
    The passkey (its \`id\` as GET /v1/me lists it) signs in no more, and its credential may be enrolled again. One
    that is not the member’s own answers 404. Sessions already begun with it go on until they end or are signed out.
  `,
  dynamodb: ['DeleteItem'],
  // The credential id's claim goes with the passkey.
  sharedPartitions: [CREDENTIAL_CLAIMS],
  status: 200,
  request: { path: PasskeyIdPath },
  response: PasskeyRemoved,
  errors: [403, 404],
});

export const signOut = defineRoute({
  ...SESSION,
  operationId: 'signOut',
  method: 'DELETE',
  path: '/v1/me/session',
  summary: 'Sign out of this session',
  description: 'Ends the session the request was made with and clears its cookie in this browser: its very next request is refused.',
  dynamodb: ['UpdateItem'],
  capabilities: [authorizerCacheFlush],
  status: 200,
  request: {},
  response: SignedOut,
  responses: { 200: { headers: { 'Set-Cookie': `Clears \`${SESSION_COOKIE}\`.` } } },
});

export const signOutEverywhere = defineRoute({
  ...SESSION,
  operationId: 'signOutEverywhere',
  method: 'DELETE',
  path: '/v1/me/sessions',
  summary: 'Sign out everywhere',
  description: prose`
    Ends every session of the member, on every browser and phone, this one included: the next request of each is
    refused. A request another session had already begun is answered.
  `,
  dynamodb: ['Query', 'DeleteItem'],
  capabilities: [authorizerCacheFlush],
  status: 200,
  request: {},
  response: SignedOut,
  responses: { 200: { headers: { 'Set-Cookie': `Clears \`${SESSION_COOKIE}\`.` } } },
});

/** A member's passkeys, managed by the organization's ADMINs in the console: a key cannot (SESSION_REQUIRED). */
const MEMBER_PASSKEYS = { tag: TAG, sessionRole: 'ADMIN' as const, sessionOnly: true as const, errors: [403, 404] };

export const listMemberPasskeys = defineRoute({
  ...MEMBER_PASSKEYS,
  operationId: 'listMemberPasskeys',
  method: 'GET',
  path: '/v1/organization/members/{memberId}/passkeys',
  summary: 'A member’s passkeys',
  description: 'The passkeys the member signs in with: each one’s id, name, when it was enrolled and when it last signed in. A member the organization does not have answers 404.',
  // The member and its passkeys, read together.
  dynamodb: ['GetItem', 'Query'],
  status: 200,
  request: { path: OrganizationMemberIdPath },
  response: PasskeyList,
});

export const removeMemberPasskey = defineRoute({
  ...MEMBER_PASSKEYS,
  operationId: 'removeMemberPasskey',
  method: 'DELETE',
  path: '/v1/organization/members/{memberId}/passkeys/{passkeyId}',
  summary: 'Remove a member’s passkey',
  description: prose`
    For a phone lost or a person gone: the passkey signs in no more, and its credential may be enrolled again. One
    that is not the member’s answers 404. The member’s sessions go on until they end or are signed out.
  `,
  dynamodb: ['DeleteItem'],
  sharedPartitions: [CREDENTIAL_CLAIMS],
  status: 200,
  request: { path: MemberPasskeyPath },
  response: PasskeyRemoved,
});

export const signInRoutes: RouteDefinition[] = [
  requestSignInCode,
  signInWithCode,
  passkeySignInOptions,
  signInWithPasskey,
  getCurrentSession,
  passkeyEnrolmentOptions,
  addPasskey,
  removePasskey,
  signOut,
  signOutEverywhere,
  listMemberPasskeys,
  removeMemberPasskey,
];
