import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { apiHandler, type RawRequest } from '#shared/http/api-handler';
import { flushAuthorizerCache } from '#shared/auth/authorizer-cache';
import { Answer } from '#shared/http/answer';
import { publicBaseUrl } from '#shared/http/base-url';
import { NotFoundError, ValidationError } from '#shared/errors';
import { countryCodeOf, toE164 } from '#shared/phone';
import { requiredMemberSession } from '#shared/http/member-session';
import { admitSource, sourceOfAddress } from '#shared/limits/per-source';
import { getMember } from '../organization/member-store';
import type { Member } from '../organization/member-schema';
import { getOrganizationHours } from '../organization/store';
import { useSignInCode, CODE_LIFETIME_SECONDS } from './codes';
import { askSignInCode } from './code-asks';
import { addPasskey, enrolmentOptions, listPasskeys, passkeysOfMember, relyingPartyOf, removePasskey, signInOptions, useSignInPasskey } from './passkeys';
import { endEverySession, endSession, sessionEndsAt, startSession, type SignInMethod } from './sessions';
import { clearedSessionCookie, csrfTokenOf, sessionCookie } from './session-token';
import { SIGN_IN_SOURCE_LIMITS as LIMITS } from './source-limits';
import { SESSION_LIFETIME } from './settings';
import * as routes from './routes';

const addressOf = (request: RawRequest) => sourceOfAddress(request.sourceIp);
const relyingParty = (request: RawRequest) => relyingPartyOf(publicBaseUrl(request.headers));
const limitAttempts = (request: RawRequest) => admitSource([[LIMITS.attemptsPerAddressPerMinute, addressOf(request)]]);

/** A new session for the member, its cookie set and its CSRF token answered. */
async function signedIn(organization: { id: string; name: string }, member: Member, method: SignInMethod) {
  const { token, session } = await startSession(organization.id, member.id, method);
  const body = { session: { member, organization: { id: organization.id, name: organization.name }, csrfToken: csrfTokenOf(token), expiresAt: sessionEndsAt(session) } };
  return new Answer(201, body, { 'Set-Cookie': sessionCookie(token, SESSION_LIFETIME.absoluteHours * 3600) });
}

/** The phone as E.164: as typed with its country code, else in `country`'s national form; 400 naming phone when neither reads. */
async function signInPhone({ phone, country }: { phone: string; country?: string }): Promise<string> {
  const e164 = (await toE164(phone, undefined)) ?? (country ? await toE164(phone, countryCodeOf(country)) : undefined);
  if (e164) return e164;
  const message = country
    ? `phone must be a valid number: with its country code (+61 491 570 110), or in the national form of ${country}`
    : 'phone must be a valid number with its country code (+61 491 570 110), or name its country (country) to be read in national form';
  throw new ValidationError([{ path: 'phone', message }]);
}

export const requestSignInCodeHandler = apiHandler(routes.requestSignInCode, async ({ body, request }) => {
  const phone = await signInPhone(body);
  // Counted by the number, however it was typed.
  await admitSource([
    [LIMITS.codesPerAddressPerHour, addressOf(request)],
    [LIMITS.codesPerPhonePer15Minutes, phone],
    [LIMITS.codesPerPhonePerDay, phone],
  ]);
  await askSignInCode(phone);
  return { sent: true as const, expiresInSeconds: CODE_LIFETIME_SECONDS };
});

export const signInWithCodeHandler = apiHandler(routes.signInWithCode, async ({ body, request }) => {
  await limitAttempts(request);
  const { organization, member } = await useSignInCode(await signInPhone(body), body.code, body.organizationId);
  return signedIn(organization, member, 'SMS_CODE');
});

export const passkeySignInOptionsHandler = apiHandler(routes.passkeySignInOptions, async ({ request }) => {
  await limitAttempts(request);
  return { options: { ...(await signInOptions(relyingParty(request))) } };
});

export const signInWithPasskeyHandler = apiHandler(routes.signInWithPasskey, async ({ body, request }) => {
  await limitAttempts(request);
  const { organizationId, member } = await useSignInPasskey(body.credential as unknown as AuthenticationResponseJSON, relyingParty(request));
  const organization = await getOrganizationHours(organizationId);
  return signedIn(organization, member, 'PASSKEY');
});

/** The session the authorizer found (a key's request never gets here: the routes are `sessionOnly`). */
function sessionOf(request: RawRequest) {
  return { ...requiredMemberSession(request.authorizer), sessionHash: String(request.authorizer.sessionHash ?? '') };
}

/** The member signed in, as stored now. */
async function signedInMember(organizationId: string, request: RawRequest): Promise<{ member: Member; csrfToken: string }> {
  const session = sessionOf(request);
  const member = await getMember(organizationId, session.memberId);
  if (!member) throw new NotFoundError('Member not found');
  return { member, csrfToken: session.csrfToken };
}

export const getCurrentSessionHandler = apiHandler(routes.getCurrentSession, async ({ organizationId, request }) => {
  const { member, csrfToken } = await signedInMember(organizationId, request);
  const [organization, passkeys] = await Promise.all([getOrganizationHours(organizationId), listPasskeys(organizationId, member.id)]);
  // When the session ends unless used again, as the authorizer left it.
  const expiresAt = String(request.authorizer.sessionEndsAt);
  return { session: { member, organization: { id: organization.id, name: organization.name }, csrfToken, expiresAt, passkeys } };
});

export const passkeyEnrolmentOptionsHandler = apiHandler(routes.passkeyEnrolmentOptions, async ({ organizationId, request }) => {
  const { member } = await signedInMember(organizationId, request);
  return { options: { ...(await enrolmentOptions(organizationId, member, relyingParty(request))) } };
});

export const addPasskeyHandler = apiHandler(routes.addPasskey, async ({ organizationId, body, request }) => {
  const { member } = await signedInMember(organizationId, request);
  return { passkey: await addPasskey(organizationId, member, body.credential as unknown as RegistrationResponseJSON, body.name, relyingParty(request)) };
});

export const signOutHandler = apiHandler(routes.signOut, async ({ organizationId, request }) => {
  // The session's own ids: signing out reads nothing of the member.
  const { memberId, sessionHash } = sessionOf(request);
  const signedOut = await endSession(organizationId, memberId, sessionHash);
  // Its cached answer goes too: the very next request with the token is decided afresh, and refused.
  await flushAuthorizerCache();
  return new Answer(200, { signedOut }, { 'Set-Cookie': clearedSessionCookie() });
});

export const signOutEverywhereHandler = apiHandler(routes.signOutEverywhere, async ({ organizationId, request }) => {
  const signedOut = await endEverySession(organizationId, sessionOf(request).memberId);
  await flushAuthorizerCache();
  return new Answer(200, { signedOut }, { 'Set-Cookie': clearedSessionCookie() });
});

export const removePasskeyHandler = apiHandler(routes.removePasskey, async ({ organizationId, path, request }) => {
  await removePasskey(organizationId, sessionOf(request).memberId, path.passkeyId);
  return { success: true as const, id: path.passkeyId };
});

export const listMemberPasskeysHandler = apiHandler(routes.listMemberPasskeys, async ({ organizationId, path }) => ({ passkeys: await passkeysOfMember(organizationId, path.memberId) }));

export const removeMemberPasskeyHandler = apiHandler(routes.removeMemberPasskey, async ({ organizationId, path }) => {
  await removePasskey(organizationId, path.memberId, path.passkeyId);
  return { success: true as const, id: path.passkeyId };
});
