// WebAuthn's JSON between the API's document and the browser's ceremony (@simplewebauthn/browser). The document gives
// the options the API answers as an open object (they are WebAuthn's, made by the server's library): each is checked
// here for what its ceremony cannot start without, rather than taken on trust.
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/browser';

const UNUSABLE = 'The service answered passkey options this browser cannot use.';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

function isCreation(options: Record<string, unknown>): options is Record<string, unknown> & PublicKeyCredentialCreationOptionsJSON {
  return typeof options.challenge === 'string' && isObject(options.rp) && isObject(options.user) && Array.isArray(options.pubKeyCredParams);
}

function isRequest(options: Record<string, unknown>): options is Record<string, unknown> & PublicKeyCredentialRequestOptionsJSON {
  return typeof options.challenge === 'string';
}

/** POST /v1/me/passkey-options' options, as `startRegistration` takes them. */
export function creationOptions(options: Record<string, unknown>): PublicKeyCredentialCreationOptionsJSON {
  if (isCreation(options)) return options;
  throw new Error(UNUSABLE);
}

/** POST /v1/sign-in/passkey-options' options, as `startAuthentication` takes them. */
export function requestOptions(options: Record<string, unknown>): PublicKeyCredentialRequestOptionsJSON {
  if (isRequest(options)) return options;
  throw new Error(UNUSABLE);
}

/**
 * The browser's credential as the body takes it, the same JSON: @simplewebauthn/browser types its parts as interfaces,
 * which TypeScript does not let stand for the document's open objects (they take keys they do not name); copies do.
 */
export const registrationBody = (credential: RegistrationResponseJSON) => ({ ...credential, response: { ...credential.response }, clientExtensionResults: { ...credential.clientExtensionResults } });
export const assertionBody = (credential: AuthenticationResponseJSON) => ({ ...credential, response: { ...credential.response }, clientExtensionResults: { ...credential.clientExtensionResults } });
