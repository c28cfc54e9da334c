// WebAuthn's JSON between the API's document and the browser's ceremony (@simplewebauthn/browser). The document gives
// the options the API answers as an open object (they are WebAuthn's, made by the server's library): each is checked
// here for what its ceremony cannot start without, rather than taken on trust. And it gives a credential's
// `clientExtensionResults` no properties, where the server's schema takes any (a loose object) and a registration asks
// for `credProps`, which the browser answers there.
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';

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
 * The browser's credential as the API's document types it, sent as the browser made it (the same object, its fields in
 * their order). TODO(api): the document's `clientExtensionResults` has no `additionalProperties`, so its type takes no
 * extension's output; once it does, this goes, and the credential is the body as it is.
 */
export function documented<Credential extends { clientExtensionResults: object }>(credential: Credential): Credential & { clientExtensionResults: Record<string, never> } {
  return { ...credential, clientExtensionResults: credential.clientExtensionResults as Record<string, never> };
}
