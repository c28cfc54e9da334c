import { randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { apiHandler } from '#shared/http/api-handler';
import { routeHandler } from '#shared/http/route-handler';
import { Answer, EmptyAnswer } from '#shared/http/answer';
import { publicBaseUrl } from '#shared/http/base-url';
import { ValidationError } from '#shared/errors';
import { OAuthError, type OAuthErrorCode } from './errors';
import { parseOrThrow, validationDetails } from '#shared/validation';
import { createApiKey, findActiveKeyByToken } from '#shared/auth/api-keys';
import { getOrganizationHours } from '../organization/store';
import type { Member } from '../organization/member-schema';
import { grantableScope, signedInMemberOf } from '../sign-in/signed-in';
import { CONSOLE_PATH } from '../sign-in/site';
import { API_KEY_SCOPES } from '#shared/auth/scopes';
import { redirectUriRefusal, registerClient, tokenClient } from './clients';
import { checkAuthorizationRequest, checkCsrf, consentPage, csrfSetCookie, newCsrf, pageHeaders, postedClient, redirectTo, type AuthorizationRequest, type ConsentingMember } from './consent';
import { authorizationServerMetadata, mcpResourceOf, OAUTH_PATHS, protectedResourceMetadata } from './metadata';
import { AuthorizeQuery, ConsentForm, RegisterClientBody, TokenForm } from './schema';
import { mayGrant } from './scopes';
import { deleteGrant, exchangeCode, issueCode, listGrants, refreshTokens, type ActingFor } from './store';
import { actingForOrganization } from '#shared/http/route-handler';
import * as routes from './routes';
import { limitAuthorizePage, limitConsent, limitRegistration, limitTokenAddress, limitTokenClient } from './limit-sources';

/**
 * The handlers of OAuth's routes, one per route, named by its operationId. The metadata reads no table (no DynamoDB
 * client in its bundle); the rest read and write the one table.
 */
const baseOf = (headers: Record<string, string>) => publicBaseUrl(headers);

export const getProtectedResourceMetadataHandler = routeHandler(routes.getProtectedResourceMetadata, async ({ request }) => protectedResourceMetadata(baseOf(request.headers)));
export const getMcpProtectedResourceMetadataHandler = routeHandler(routes.getMcpProtectedResourceMetadata, async ({ request }) => protectedResourceMetadata(baseOf(request.headers)));
export const getAuthorizationServerMetadataHandler = routeHandler(routes.getAuthorizationServerMetadata, async ({ request }) => authorizationServerMetadata(baseOf(request.headers)));
export const getOpenIdConfigurationHandler = routeHandler(routes.getOpenIdConfiguration, async ({ request }) => authorizationServerMetadata(baseOf(request.headers)));

/** A form-encoded body's fields, each once: OAuth refuses a parameter given twice (RFC 6749 §3.1). */
function formFields(body: string | null, refuse: (name: string) => Error): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const [name, value] of new URLSearchParams(body ?? '')) {
    if (name in fields) throw refuse(name);
    fields[name] = value;
  }
  return fields;
}

/** The first fault of an OAuth request, as OAuth's invalid_request naming the field. */
function oauthParse<S extends v.GenericSchema>(schema: S, input: unknown, error: OAuthErrorCode = 'invalid_request'): v.InferOutput<S> {
  const parsed = v.safeParse(schema, input);
  if (parsed.success) return parsed.output;
  const { path, message } = validationDetails(parsed.issues, '')[0]!;
  throw new OAuthError(error, message.startsWith(path) ? message : `${path}: ${message}`);
}

export const registerOAuthClientHandler = apiHandler(routes.registerOAuthClient, async ({ request }) => {
  await limitRegistration(request);
  let json: unknown;
  try {
    json = JSON.parse(request.body ?? '');
  } catch {
    throw new OAuthError('invalid_client_metadata', 'the body must be JSON client metadata');
  }
  const metadata = oauthParse(RegisterClientBody, json, 'invalid_client_metadata');
  const refusal = metadata.redirect_uris.map(redirectUriRefusal).find(Boolean);
  if (refusal) throw new OAuthError('invalid_redirect_uri', `redirect_uris: ${refusal}`);
  const client = await registerClient(metadata);
  return {
    client_id: client.clientId,
    client_id_issued_at: Math.floor(Date.parse(client.createdAt) / 1000),
    client_name: client.clientName,
    redirect_uris: client.redirectUris,
    token_endpoint_auth_method: 'none' as const,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
  };
});

/** The authorization endpoint's path below the API's base path (a stage's): the form's action, and the CSRF cookie's path on http. */
const cookiePathOf = (base: string) => `${new URL(base).pathname.replace(/\/$/, '')}${OAUTH_PATHS.authorize}`;

export const getOAuthAuthorizeHandler = apiHandler(routes.getOAuthAuthorize, async ({ query, request }) => {
  await limitAuthorizePage(request);
  const base = baseOf(request.headers);
  return pageAnswer(await checkAuthorizationRequest(query, mcpResourceOf(base)), query, base, request.headers.cookie, undefined, await consentingMember(request.headers.cookie));
});

/** The member signed in to the console in this browser, as the consent page names them, and the widest scope they may grant. */
async function consentingMember(cookieHeader: string | undefined): Promise<(ConsentingMember & { organizationId: string; member: Member }) | undefined> {
  const signedIn = await signedInMemberOf(cookieHeader);
  if (!signedIn) return undefined;
  const organization = await getOrganizationHours(signedIn.organizationId);
  const { member } = signedIn;
  return { ...signedIn, name: `${member.firstName} ${member.lastName}`, organizationName: organization.name, widest: grantableScope(member.role) };
}

/**
 * The consent page, with a new CSRF cookie and its form's token, bound to the console session the browser sends
 * (`cookieHeader`); `problem` says what to fix in a post shown again.
 */
async function pageAnswer(checked: AuthorizationRequest, params: v.InferOutput<typeof AuthorizeQuery>, base: string, cookieHeader: string | undefined, problem?: string, member?: ConsentingMember) {
  const csrf = await newCsrf(cookieHeader, checked);
  const nonce = randomBytes(16).toString('base64');
  const { response_type, client_id, redirect_uri, scope, state, code_challenge, code_challenge_method, resource } = params;
  const request = { response_type, client_id, redirect_uri, scope, state, code_challenge, code_challenge_method, resource };
  // Signing in to the console brings the person back to this same request.
  const query = new URLSearchParams(Object.entries(request).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const signInUrl = `${new URL(base).pathname.replace(/\/$/, '')}${CONSOLE_PATH}/sign-in?return=${encodeURIComponent(`${cookiePathOf(base)}?${query}`)}`;
  // The form posts to the authorization endpoint itself, the request in its fields rather than the query.
  const page = consentPage(checked, request, csrf.token, nonce, cookiePathOf(base), problem, member, signInUrl);
  return new Answer(200, page, pageHeaders(nonce, checked.redirectUri, csrfSetCookie(csrf.cookie, base.startsWith('https:'), cookiePathOf(base))));
}

const GrantedScope = v.optional(v.picklist(API_KEY_SCOPES, `granted_scope must be one of ${API_KEY_SCOPES.join(', ')}`), 'read');

export const postOAuthAuthorizeHandler = apiHandler(routes.postOAuthAuthorize, async ({ request }) => {
  await limitConsent(request);
  const form = parseOrThrow(ConsentForm, formFields(request.body, (name) => new ValidationError([{ path: name, message: `${name} must be given once` }])), 'body');
  const base = baseOf(request.headers);
  // Before anything is read: a post the consent page did not make is refused whatever it carries.
  const served = await checkCsrf(form.csrf_token, request.headers.cookie, base.startsWith('https:'), { clientId: form.client_id, redirectUri: form.redirect_uri, clientName: form.client_name });
  // The page checked the client and its token says so: a client ID metadata document is not fetched again.
  const checked = await checkAuthorizationRequest(form, mcpResourceOf(base), postedClient(served));
  if (form.decision !== 'allow') return new EmptyAnswer(303, { Location: redirectTo(checked, base, { error: 'access_denied', error_description: 'The person did not allow access' }) });
  const scope = parseOrThrow(GrantedScope, form.granted_scope, 'granted_scope');
  // A member signed in to the console grants as themself: no key pasted. The grant holds a key of its own, made now,
  // named for the client and the member and acting for the member: it ends when that key is revoked, or the member is
  // removed, and may never do more than the member's role allows now (functions/authority.ts).
  const member = form.api_key ? undefined : await consentingMember(request.headers.cookie);
  if (member) {
    if (!mayGrant(member.widest, scope)) return pageAnswer(checked, form, base, request.headers.cookie, `As a ${member.member.role} you may grant ${member.widest} at most, not ${scope}.`, member);
    const { key: grantKey } = await createApiKey(member.organizationId, null, `${checked.client.clientName} for ${member.name}`.slice(0, 200), scope, member.member.id);
    const code = await issueCode({ organizationId: member.organizationId, keyId: grantKey.keyId, scope, client: checked.client, redirectUri: checked.redirectUri, codeChallenge: checked.codeChallenge, resource: checked.resource });
    return new EmptyAnswer(303, { Location: redirectTo(checked, base, { code }) });
  }
  const key = form.api_key ? await findActiveKeyByToken(form.api_key) : undefined;
  // A key mistyped, revoked or expired: the page again, to paste another (as a sign-in form does); nothing issued.
  if (!key) return pageAnswer(checked, form, base, request.headers.cookie, 'That is not an active API key of an organization: paste another.');
  // More than the key may do: the page again, to choose less or paste another key; nothing issued.
  if (!mayGrant(key.scope, scope)) return pageAnswer(checked, form, base, request.headers.cookie, `That key may grant ${key.scope} at most, not ${scope}: choose less, or paste a key that may.`);
  const code = await issueCode({ organizationId: key.organizationId, keyId: key.keyId, scope, client: checked.client, redirectUri: checked.redirectUri, codeChallenge: checked.codeChallenge, resource: checked.resource });
  return new EmptyAnswer(303, { Location: redirectTo(checked, base, { code }) });
});

const required = (value: string | undefined, name: string): string => {
  if (!value) throw new OAuthError('invalid_request', `${name} is required`);
  return value;
};

/** Once its code or refresh token names the organization, the exchange acts for it alone (the route's tenant session). */
const actingForTheGrant: ActingFor = actingForOrganization(routes.postOAuthToken);

export const postOAuthTokenHandler = apiHandler(routes.postOAuthToken, async ({ request }) => {
  await limitTokenAddress(request);
  const form = oauthParse(TokenForm, formFields(request.body, (name) => new OAuthError('invalid_request', `${name} must be given once`)));
  const base = baseOf(request.headers);
  if (form.resource !== undefined && form.resource !== mcpResourceOf(base)) throw new OAuthError('invalid_target', `resource must be ${mcpResourceOf(base)}: this server issues tokens for its own MCP server only`);
  const grantType = required(form.grant_type, 'grant_type');
  if (grantType !== 'authorization_code' && grantType !== 'refresh_token') throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
  // The client first (RFC 6749 §5.2): one this server no longer knows is told invalid_client, and registers again.
  const clientId = required(form.client_id, 'client_id');
  await limitTokenClient(clientId);
  const client = await tokenClient(clientId);
  if (grantType === 'authorization_code') {
    return exchangeCode(client, { code: required(form.code, 'code'), redirectUri: form.redirect_uri, codeVerifier: form.code_verifier, resource: form.resource }, actingForTheGrant);
  }
  return refreshTokens(client, { refreshToken: required(form.refresh_token, 'refresh_token'), resource: form.resource }, actingForTheGrant);
});

export const listOauthGrantsHandler = apiHandler(routes.listOauthGrants, async ({ organizationId }) => ({ grants: await listGrants(organizationId) }));

export const deleteOauthGrantHandler = apiHandler(routes.deleteOauthGrant, async ({ organizationId, path }) => {
  await deleteGrant(organizationId, path.grantId);
  return { success: true as const, id: path.grantId };
});
