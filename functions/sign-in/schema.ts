import * as v from 'valibot';
import { Base64UrlId, NonEmptyString, Timestamp } from '#shared/schema';
import { TypedPhone } from '../leads/attributes';
import { Country } from '../organization/schema';
import { Member, OrganizationMemberIdPath } from '../organization/member-schema';
import { prose } from '#shared/prose';
import { SIGN_IN_CODE } from './settings';

const Phone = v.pipe(
  TypedPhone,
  v.description('The member’s phone as people type it: with its country code (`+61 491 570 110`), or in the national form of `country` (`0491 570 110`). A number no plan has answers 400 naming phone.'),
);

/** The country a national phone is read in: the sign-in knows no organization yet, so the person's device says. */
const PhoneCountry = v.optional(
  v.pipe(Country, v.description('ISO 3166-1 alpha-2 code of the country a national `phone` is read in (the console sends the browser’s region). A phone with its country code needs none.')),
);

export const RequestCodeBody = v.strictObject({ phone: Phone, country: PhoneCountry });

export const CodeSent = v.object({
  sent: v.literal(true),
  expiresInSeconds: v.pipe(v.number(), v.integer(), v.description('How long the code, if one was sent, can be used.')),
});

export const SignInWithCodeBody = v.strictObject({
  phone: Phone,
  country: PhoneCountry,
  code: v.pipe(v.string('code must be a string'), v.trim(), v.regex(new RegExp(`^\\d{${SIGN_IN_CODE.digits}}$`), `code must be the ${SIGN_IN_CODE.digits} digits the text gave`)),
  organizationId: v.optional(
    v.pipe(v.string('organizationId must be a string'), v.regex(/^org_[0-9A-HJKMNP-TV-Z]{26}$/, 'organizationId must be an organization id (org_…)'), v.description('Which of the phone’s organizations to sign in to, when it is a member of more than one (409 CHOOSE_ORGANIZATION lists them).')),
  ),
});

/** A bounded base64url text of a WebAuthn response. */
const B64 = (name: string, max = 16_384) => v.pipe(v.string(`${name} must be a string`), v.maxLength(max, `${name} must be at most ${max} characters`), v.regex(/^[A-Za-z0-9_-]*$/, `${name} must be base64url`));

/** What `startAuthentication` of @simplewebauthn/browser answers: the browser's assertion, as JSON. */
export const AuthenticationCredential = v.looseObject({
  id: B64('credential.id', 1366),
  rawId: B64('credential.rawId', 1366),
  type: v.literal('public-key', 'credential.type must be public-key'),
  response: v.looseObject({
    clientDataJSON: B64('credential.response.clientDataJSON'),
    authenticatorData: B64('credential.response.authenticatorData'),
    signature: B64('credential.response.signature'),
    userHandle: v.optional(B64('credential.response.userHandle', 128)),
  }),
  clientExtensionResults: v.optional(v.looseObject({}), {}),
});

/** What `startRegistration` answers: the authenticator's new credential, as JSON. */
export const RegistrationCredential = v.looseObject({
  id: B64('credential.id', 1366),
  rawId: B64('credential.rawId', 1366),
  type: v.literal('public-key', 'credential.type must be public-key'),
  response: v.looseObject({
    clientDataJSON: B64('credential.response.clientDataJSON'),
    attestationObject: B64('credential.response.attestationObject', 65_536),
    transports: v.optional(v.pipe(v.array(v.pipe(v.string(), v.maxLength(32))), v.maxLength(10, 'credential.response.transports must have at most 10 entries'))),
  }),
  clientExtensionResults: v.optional(v.looseObject({}), {}),
});

export const SignInWithPasskeyBody = v.strictObject({ credential: AuthenticationCredential });

export const AddPasskeyBody = v.strictObject({
  credential: RegistrationCredential,
  name: v.optional(v.pipe(NonEmptyString('name', 100), v.description('What the member calls it (“Work phone”); the authenticator’s kind when absent.'))),
});

export const Passkey = v.object({
  id: v.pipe(v.string(), v.description('The credential id (base64url), as the authenticator names it.')),
  name: v.string(),
  createdAt: Timestamp,
  lastUsedAt: v.nullable(Timestamp),
});
export type Passkey = v.InferOutput<typeof Passkey>;

export const SessionOrganization = v.object({ id: v.string(), name: v.string() });

export const MemberSessionView = v.object({
  member: Member,
  organization: SessionOrganization,
  csrfToken: v.pipe(v.string(), v.description('Send it in `X-CSRF-Token` with every request but GET made with this session.')),
  expiresAt: v.pipe(Timestamp, v.description('When the session ends unless used before: its idle end, never past its absolute end.')),
});

export const SignedIn = v.object({ session: MemberSessionView });

export const CurrentSession = v.object({ session: v.object({ ...MemberSessionView.entries, passkeys: v.array(Passkey) }) });

export const PasskeyOptions = v.object({
  options: v.pipe(v.record(v.string(), v.unknown()), v.description(prose`
    The WebAuthn options as JSON (PublicKeyCredentialRequestOptionsJSON for a sign-in, …CreationOptionsJSON for an
    enrolment): hand them to the browser (\`startAuthentication\` or \`startRegistration\` of @simplewebauthn/browser).
  `)),
});

export const PasskeyAdded = v.object({ passkey: Passkey });

export const PasskeyList = v.object({ passkeys: v.array(Passkey) });

/** A passkey by its credential id: WebAuthn's are 16 to 1023 bytes, 22 to 1364 characters of base64url. */
const PasskeyId = v.pipe(Base64UrlId('passkeyId', { min: 22, max: 1366 }), v.description('The passkey’s `id`: its credential id, as GET /v1/me lists it.'));

export const PasskeyIdPath = v.object({ passkeyId: PasskeyId });

export const MemberPasskeyPath = v.object({ memberId: OrganizationMemberIdPath.entries.memberId, passkeyId: PasskeyId });

export const PasskeyRemoved = v.object({ success: v.literal(true), id: v.pipe(v.string(), v.description('The passkey’s id, which signs in no more.')) });

export const SignedOut = v.object({ signedOut: v.pipe(v.number(), v.integer(), v.description('How many sessions ended.')) });
