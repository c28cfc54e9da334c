import { authorizerCacheFlush } from '#shared/auth/authorizer-cache-flush';
import * as v from 'valibot';
import { defineRoute } from '#shared/routes/route';
import { ErrorEnvelopeSchema } from '#shared/schema';
import { TextBody } from '#shared/openapi/schemas';
import { errorEnvelope } from '#shared/http/envelope';
import { OAUTH_LIMITS, UNUSED_REGISTRATION_LIFETIME } from './settings';
import { OAUTH_SOURCE_LIMITS as PER_SOURCE } from './source-limits';
import { OAUTH_PATHS } from './metadata';
import { REGISTERED_CLIENT_KEEPS } from './entity';
import {
  AuthorizationServerMetadata,
  AuthorizeQuery,
  ConsentForm,
  OAuthErrorBody,
  OAuthGrantDeleted,
  OAuthGrantIdPath,
  OAuthGrantList,
  ProtectedResourceMetadata,
  RegisterClientBody,
  RegisteredClient,
  TokenForm,
  TokenResponse,
} from './schema';
import { prose } from '#shared/prose';
import { CROSS_SITE_REQUEST, refuseCrossSiteRequest } from '#shared/http/cross-site';

/** Public: OAuth clients call these before they hold anything. Each reads little and answers at once, under its own throttle. */
const PUBLIC = { tag: 'OAuth', auth: 'none' as const };
/**
 * A ceiling every caller of these routes shares, below the stage's so they never take the whole API, and far above
 * what any one source may ask (source-limits.ts): it is those per-source limits that stop one noisy caller.
 */
const OAUTH_THROTTLE = { rateLimit: 100, burstLimit: 200 };
/** A source past its own limit (source-limits.ts), with what it may ask; or the ceiling every caller shares. */
const sourceLimited = (what: string) => `${what}; or the route’s ceiling, shared by every caller, was met. Wait the Retry-After seconds.`;
/**
 * The consent page fetches the client's metadata document (up to OAUTH_LIMITS.documentDeadlineMs) before anyone has
 * proved anything: a route throttle above what people consenting ask for, and a reserve that holds a flood of hanging
 * hosts to a few invocations instead of the account's pool (docs/decisions/oauth.md).
 */
const DOCUMENT_FETCH = { throttle: { rateLimit: 10, burstLimit: 20 }, reservedConcurrency: 10 };
const FORM = 'application/x-www-form-urlencoded';
/** An OAuth endpoint's refusal, or the envelope of what the route itself refuses (an unknown query parameter, a body too large). */
const OAUTH_REFUSAL = v.union([OAuthErrorBody, ErrorEnvelopeSchema]);

/** A public metadata document, the same at each path clients probe for it: a builder of its route at one of them. */
const metadataDocument =
  <Response extends v.GenericSchema>(description: string, response: Response) =>
  (path: string, operationId: string, summary: string) =>
    defineRoute({ ...PUBLIC, operationId, method: 'GET', path, summary, description, dynamodb: [], status: 200, request: {}, response, errors: [] });

const protectedResource = metadataDocument(
  prose`
    The MCP server’s protected resource metadata (RFC 9728): its \`resource\` (\`<base>/mcp\`, the audience of its
    tokens), its authorization server (this API), and the scopes it takes. The same document at the root path and at
    the MCP server’s own, as clients probe both. A 401 from \`/mcp\` names it in \`WWW-Authenticate: Bearer
    resource_metadata="…", scope="read"\`.
  `,
  ProtectedResourceMetadata,
);

export const getProtectedResourceMetadata = protectedResource(OAUTH_PATHS.protectedResource, 'getProtectedResourceMetadata', 'The MCP server’s OAuth protected resource metadata (RFC 9728)');
export const getMcpProtectedResourceMetadata = protectedResource(OAUTH_PATHS.protectedResourceOfMcp, 'getMcpProtectedResourceMetadata', 'The MCP server’s OAuth protected resource metadata, at its own path (RFC 9728)');

const authorizationServer = metadataDocument(
  prose`
    The authorization server’s metadata (RFC 8414), also at OpenID’s discovery path, which clients probe too: the
    authorization code grant with PKCE S256 only, public clients (\`token_endpoint_auth_methods_supported:
    ["none"]\`), dynamic registration at \`registration_endpoint\`, client ID metadata documents
    (\`client_id_metadata_document_supported\`), and \`iss\` in every authorization response (RFC 9207). No OpenID
    Connect: no ID tokens.
  `,
  AuthorizationServerMetadata,
);

export const getAuthorizationServerMetadata = authorizationServer(OAUTH_PATHS.authorizationServer, 'getAuthorizationServerMetadata', 'The OAuth authorization server’s metadata (RFC 8414)');
export const getOpenIdConfiguration = authorizationServer(OAUTH_PATHS.openIdConfiguration, 'getOpenIdConfiguration', 'The OAuth authorization server’s metadata, at OpenID’s discovery path');

export const registerOAuthClient = defineRoute({
  ...PUBLIC,
  operationId: 'registerOAuthClient',
  method: 'POST',
  path: OAUTH_PATHS.register,
  summary: 'Register an OAuth client (dynamic client registration, RFC 7591)',
  description: prose`
    For clients that register themselves (a client with an https client ID metadata document needs not). Public clients
    only (\`token_endpoint_auth_method: "none"\`, PKCE); redirect URIs are https, or http on the loopback interface (any
    port at authorization, RFC 8252). The client is forgotten after ${UNUSED_REGISTRATION_LIFETIME} unless an
    organization grants it access; the token endpoint then answers \`invalid_client\`, and the client registers again.
    Refusals are OAuth’s: \`invalid_redirect_uri\` or \`invalid_client_metadata\`, the description naming the field.
  `,
  // The source's counters, then the client's item, in a partition of its own (no organization's).
  dynamodb: ['UpdateItem', 'PutItem'],
  // The source's counters, then the client: no organization is known (docs/data-model.md, "Named exceptions").
  ownKeys: [{ keys: 'SOURCELIMIT#*', actions: ['UpdateItem'] }, { keys: 'OAUTHCLIENT#*', actions: ['PutItem'] }],
  status: 201,
  request: { body: RegisterClientBody, bodyAsText: true },
  requestExample: { client_name: 'Claude', redirect_uris: ['https://claude.ai/api/mcp/auth_callback'], token_endpoint_auth_method: 'none', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'] },
  response: RegisteredClient,
  errors: [400],
  idempotencyKey: false,
  throttle: OAUTH_THROTTLE,
  responses: {
    400: { description: 'Client metadata this server does not take: `{error, error_description}` (RFC 7591 §3.2.2).', schema: OAUTH_REFUSAL },
    429: { description: `\`temporarily_unavailable\`: ${sourceLimited(`one client address registered ${PER_SOURCE.registerPerMinute.limit} clients this minute or ${PER_SOURCE.registerPerHour.limit} this hour`)}`, schema: OAUTH_REFUSAL },
  },
});

const AUTHORIZE_DESCRIPTION = prose`
  A person, sent here by an OAuth client (Claude, ChatGPT), proves they may grant access: a member signed in to the
  console (its session cookie) grants for their organization with no key, up to what their role may grant (\`full\` for
  an ADMIN, \`read\` for the rest), the grant holding a key of its own named for the client and the member; anyone else
  pastes an API key of their organization, or follows the page’s link to sign in and come back. They choose what the
  client may do: \`read\` (chosen unless they choose more), \`write\` or \`full\`, never more than the key’s scope. The page is served with a strict Content-Security-Policy (no script, framing refused)
  and a CSRF cookie (\`__Host-oauth_csrf\` on https) whose form token only this server makes, bound to the cookie and to
  the browser’s console session. Authorization code with PKCE S256 only; \`resource\`, when given, must
  be this API’s \`/mcp\`.
`;

/** Nothing redirects before the person has answered the page (RFC 9700 §4.11.2): whoever registers a redirect URI could otherwise send anyone there through this API. */
const AUTHORIZE_REFUSALS = prose`
  Any fault of the request (a \`client_id\` that is neither registered nor a readable client ID metadata document, a
  \`redirect_uri\` the client does not have, a \`response_type\` other than \`code\`, no PKCE S256 \`code_challenge\`,
  an unknown \`scope\`, another \`resource\`) answers 400 naming the field, and never redirects: only the person’s
  answer on the page sends them back to the client.
`;

export const getOAuthAuthorize = defineRoute({
  ...PUBLIC,
  operationId: 'getOAuthAuthorize',
  method: 'GET',
  path: OAUTH_PATHS.authorize,
  summary: 'The OAuth consent page',
  description: `${AUTHORIZE_DESCRIPTION} ${AUTHORIZE_REFUSALS}`,
  // The source's counter, first; a registered client's item; the console session the browser carries, its member and organization.
  dynamodb: ['UpdateItem', 'GetItem'],
  ownKeys: [{ keys: 'SOURCELIMIT#*', actions: ['UpdateItem'] }, { keys: 'OAUTHCLIENT#*', actions: ['GetItem'] }, { keys: 'ORG#*', actions: ['GetItem'] }],
  status: 200,
  contentType: 'text/html; charset=utf-8',
  request: { query: AuthorizeQuery },
  response: TextBody,
  errors: [400],
  responses: {
    429: { description: `RATE_LIMITED: ${sourceLimited(`one client address asked for the consent page ${PER_SOURCE.authorizePagePerMinute.limit} times this minute`)}` },
  },
  callsOutside: true,
  // Its CSRF token is an HMAC under the API's signing key (consent.ts).
  readsSigningKey: true,
  ...DOCUMENT_FETCH,
});

const CONSENT_ANSWERS = prose`
  Allowed, the person is sent back to the client with a code (single-use, ${OAUTH_LIMITS.codeSeconds} s), \`state\` and
  \`iss\` (RFC 9207); denied, with \`error=access_denied\`. A key that is not an active key, or a scope more than the
  key’s, shows the page again (200) saying so, to paste another key or choose less. A post without the page’s CSRF
  token, or with one the cookie or the console session it carries was not served with, answers 400 naming the field.
  None of these issues anything.
`;

export const postOAuthAuthorize = defineRoute({
  ...PUBLIC,
  operationId: 'postOAuthAuthorize',
  method: 'POST',
  path: OAUTH_PATHS.authorize,
  summary: 'The consent page’s answer',
  description: `${AUTHORIZE_DESCRIPTION} ${CONSENT_ANSWERS}`,
  // The source's counter, the registered client, the key by its token (gsi1), the code.
  dynamodb: ['UpdateItem', 'GetItem', 'Query', 'PutItem'],
  indexes: ['gsi1'],
  // The source's counter and the client, then the consenting key (by its token's hash) and its organization's grant and code.
  ownKeys: [{ keys: 'SOURCELIMIT#*', actions: ['UpdateItem'] }, { keys: 'OAUTHCLIENT#*', actions: ['GetItem'] }, { keys: 'TOKEN#*', actions: ['Query'] }, { keys: 'ORG#*', actions: ['GetItem', 'PutItem'] }],
  status: 200,
  contentType: 'text/html; charset=utf-8',
  request: {},
  requestBodies: { [FORM]: ConsentForm },
  response: TextBody,
  errors: [400, 403],
  idempotencyKey: false,
  throttle: OAUTH_THROTTLE,
  // A page on another site must not post a person's consent (their browser carries the console's session).
  admission: refuseCrossSiteRequest,
  responses: {
    303: { description: 'Back to the client’s redirect URI with `code` (or `error=access_denied`), `state` and `iss`.', empty: true, headers: { Location: 'The redirect URI with the code or the error.' } },
    403: {
      description: prose`
        ${CROSS_SITE_REQUEST}: a browser sent it from a page of another site (\`Sec-Fetch-Site\` \`cross-site\` or
        \`same-site\`, or an \`Origin\` other than the API’s own; the consent page’s own post, sent with \`Origin: null\`
        under its \`no-referrer\` policy, is \`same-origin\`). Nothing ran; nothing is issued.
      `,
    },
    429: { description: `RATE_LIMITED: ${sourceLimited(`one client address posted the consent page ${PER_SOURCE.consentPerMinute.limit} times this minute`)}` },
  },
  // The post's CSRF token is checked against the API's signing key (consent.ts); it also proves the client the page
  // checked, so a client ID metadata document is never fetched here: only the page, with its reserve, fetches.
  readsSigningKey: true,
});

export const postOAuthToken = defineRoute({
  ...PUBLIC,
  operationId: 'postOAuthToken',
  method: 'POST',
  path: OAUTH_PATHS.token,
  summary: 'Exchange a code, or refresh, for tokens (OAuth token endpoint)',
  description: prose`
    \`grant_type=authorization_code\` with \`code\`, \`redirect_uri\`, \`code_verifier\` (PKCE S256) and \`client_id\`;
    or \`grant_type=refresh_token\` with \`refresh_token\` and \`client_id\`; \`resource\`, when given, must be this
    API’s \`/mcp\`. Answers an access token for \`POST /mcp\` alone (${OAUTH_LIMITS.accessTokenSeconds / 60} minutes)
    and a refresh token (${OAUTH_LIMITS.refreshTokenSeconds / 86_400} days, one use: each refresh answers the next; a
    refresh token or code used twice revokes the grant). Refusals are OAuth’s (RFC 6749 §5.2): \`invalid_grant\`,
    \`invalid_target\`, \`invalid_request\`, \`unsupported_grant_type\`, and \`invalid_client\` (401) for a client this
    server does not know, so that it registers again.
  `,
  // The code or refresh token (gsi1), the key, the grant and the registered client; the tokens in one transaction.
  dynamodb: ['GetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'ConditionCheckItem'],
  indexes: ['gsi1'],
  // Its own role: the source's and client's counters and the client, then the code or token by its hash. What the
  // code or token names is its organization's: the key, the grant and the tokens, through that organization's session,
  // which also keeps the registered client in the exchange's transaction.
  ownKeys: [{ keys: 'SOURCELIMIT#*', actions: ['UpdateItem'] }, { keys: 'OAUTHCLIENT#*', actions: ['GetItem'] }, { keys: 'TOKEN#*', actions: ['Query'] }],
  organizationSession: 'function',
  sharedPartitions: [REGISTERED_CLIENT_KEEPS],
  // A code or refresh token used twice revokes its grant, whose tokens' cached answers end with it.
  capabilities: [authorizerCacheFlush],
  status: 200,
  request: {},
  requestBodies: { [FORM]: TokenForm },
  response: TokenResponse,
  errors: [400, 401],
  idempotencyKey: false,
  throttle: OAUTH_THROTTLE,
  responses: {
    400: { description: 'Refused (RFC 6749 §5.2): `{error, error_description}`.', schema: OAUTH_REFUSAL, examples: { InvalidGrant: { error: 'invalid_grant', error_description: 'code_verifier does not match the code_challenge (PKCE S256)' } } },
    401: { description: '`invalid_client`: a client this server does not know (a registration forgotten): register again.', schema: OAuthErrorBody },
    429: { description: `\`temporarily_unavailable\`: ${sourceLimited(`one client address asked ${PER_SOURCE.tokenPerMinute.limit} times this minute, or one \`client_id\` ${PER_SOURCE.tokenPerClientPerMinute.limit} times from every address`)}`, schema: OAUTH_REFUSAL },
  },
});

export const listOauthGrants = defineRoute({
  operationId: 'listOauthGrants',
  method: 'GET',
  path: '/v1/oauth/grants',
  tag: 'OAuth',
  summary: 'List the OAuth grants of the organization',
  description: 'Every client (Claude, ChatGPT, …) a holder of one of the organization’s API keys let act through the MCP server: the client, the scope, the key that granted it, when, and when it was last used. A grant whose key was revoked or has expired has ended and is not listed.',
  dynamodb: ['Query'],
  status: 200,
  request: {},
  response: OAuthGrantList,
  errors: [],
});

export const deleteOauthGrant = defineRoute({
  operationId: 'deleteOauthGrant',
  method: 'DELETE',
  path: '/v1/oauth/grants/{grantId}',
  tag: 'OAuth',
  summary: 'Revoke an OAuth grant',
  description: 'Its access and refresh tokens are refused from their very next request; the client must be authorized again. An `oauth_grant.revoked` event follows.',
  // The grant deleted with its audit entry, in one transaction.
  dynamodb: ['DeleteItem', 'PutItem'],
  capabilities: [authorizerCacheFlush],
  status: 200,
  request: { path: OAuthGrantIdPath },
  response: OAuthGrantDeleted,
  errors: [404],
  responses: { 404: { examples: { NotFound: errorEnvelope(404, 'OAuth grant not found', 'NOT_FOUND') } } },
});


export const oauthRoutes = [
  getProtectedResourceMetadata,
  getMcpProtectedResourceMetadata,
  getAuthorizationServerMetadata,
  getOpenIdConfiguration,
  registerOAuthClient,
  getOAuthAuthorize,
  postOAuthAuthorize,
  postOAuthToken,
  listOauthGrants,
  deleteOauthGrant,
];
