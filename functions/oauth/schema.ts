import * as v from 'valibot';
import { API_KEY_SCOPES } from '#shared/auth/scopes';
import { deletedSchema, PrefixedId, Timestamp } from '#shared/schema';
import { UNUSED_REGISTRATION_LIFETIME } from './settings';
import { OAUTH_ERROR_CODES } from './errors';
import { atMostCharacters } from '#shared/schema/text';

/** Scopes as OAuth writes them: one of an API key's scopes (read < write < full), which a grant never exceeds. */
export const OAUTH_SCOPES = API_KEY_SCOPES;

const described = <S extends v.GenericSchema>(schema: S, description: string) => v.pipe(schema, v.description(description));
/** A string of at most `max` characters, counted as the document's `maxLength` counts them (code points, not UTF-16 units). */
const Text = (name: string, max: number) => v.pipe(v.string(`${name} must be a string`), atMostCharacters(name, max), v.metadata({ jsonSchema: { maxLength: max } }));

/** Protected resource metadata (RFC 9728) of the MCP server. */
export const ProtectedResourceMetadata = v.object({
  resource: described(v.string(), 'This API’s MCP server (`<base>/mcp`): the `resource` (RFC 8707) a client asks tokens for, and their audience.'),
  authorization_servers: described(v.array(v.string()), 'This API itself (its base URL): its authorization server metadata is at `/.well-known/oauth-authorization-server`.'),
  scopes_supported: v.array(v.picklist(OAUTH_SCOPES)),
  bearer_methods_supported: v.array(v.literal('header')),
  resource_name: v.string(),
  resource_documentation: v.string(),
});

/** Authorization server metadata (RFC 8414). */
export const AuthorizationServerMetadata = v.object({
  issuer: described(v.string(), 'The API’s base URL; the `iss` of every authorization response (RFC 9207).'),
  authorization_endpoint: v.string(),
  token_endpoint: v.string(),
  registration_endpoint: v.string(),
  scopes_supported: v.array(v.picklist(OAUTH_SCOPES)),
  response_types_supported: v.array(v.literal('code')),
  response_modes_supported: v.array(v.literal('query')),
  grant_types_supported: v.array(v.picklist(['authorization_code', 'refresh_token'])),
  token_endpoint_auth_methods_supported: v.array(v.literal('none')),
  code_challenge_methods_supported: v.array(v.literal('S256')),
  client_id_metadata_document_supported: v.literal(true),
  authorization_response_iss_parameter_supported: v.literal(true),
  service_documentation: v.string(),
});

/** What OAuth endpoints answer a request they refuse (RFC 6749 §5.2, RFC 7591 §3.2.2): the description names the field. */
export const OAuthErrorBody = v.object({
  error: described(v.string(), `${OAUTH_ERROR_CODES.slice(0, -1).map((code) => `\`${code}\``).join(', ')} or \`${OAUTH_ERROR_CODES.at(-1)}\`.`),
  error_description: v.string(),
});

const RedirectUris = v.pipe(
  v.array(Text('redirect_uris[]', 2000), 'redirect_uris must be an array of URLs'),
  v.minLength(1, 'redirect_uris must name at least one URL'),
  v.maxLength(10, 'redirect_uris must name at most 10 URLs'),
);

/** Client metadata a client registers with (RFC 7591): what this server keeps is its name and redirect URIs; the rest is read and left. */
export const RegisterClientBody = v.looseObject(
  {
    redirect_uris: described(RedirectUris, 'Where the authorization page may send the person back: https URLs, or http on 127.0.0.1, [::1] or localhost (any port at authorization, RFC 8252).'),
    client_name: v.optional(Text('client_name', 200)),
    token_endpoint_auth_method: v.optional(v.literal('none', 'token_endpoint_auth_method must be "none": clients here are public, with PKCE')),
    grant_types: v.optional(v.pipe(v.array(v.picklist(['authorization_code', 'refresh_token'], 'grant_types may be authorization_code and refresh_token')), v.maxLength(2, 'grant_types may name at most 2'))),
    response_types: v.optional(v.pipe(v.array(v.literal('code', 'response_types may be code only')), v.maxLength(1, 'response_types may name code only'))),
    scope: v.optional(Text('scope', 100)),
  },
  'the body must be a JSON object of client metadata',
);

/** What registration answers (RFC 7591 §3.2.1). */
export const RegisteredClient = v.looseObject({
  client_id: described(v.string(), `\`client_\` and 26 characters: the id to authorize with. Unused for ${UNUSED_REGISTRATION_LIFETIME}, it is forgotten (the token endpoint then answers invalid_client, and the client registers again).`),
  client_id_issued_at: v.number(),
  client_name: v.string(),
  redirect_uris: v.array(v.string()),
  token_endpoint_auth_method: v.literal('none'),
  grant_types: v.array(v.string()),
  response_types: v.array(v.string()),
});

/** A client ID metadata document, as its host serves it: the fields this server reads. */
export const ClientMetadataDocument = v.looseObject({
  client_id: v.string('client_id must be a string'),
  client_name: v.optional(Text('client_name', 200)),
  redirect_uris: RedirectUris,
});

const Param = (name: string, max = 2000) => v.optional(Text(name, max));
/** A parameter every request carries: empty is as missing (refused naming it), which the document states as minLength 1. */
const Required = (name: string, max = 2000) => v.pipe(v.string(`${name} must be a string`), v.minLength(1, `${name} is required`), atMostCharacters(name, max), v.metadata({ jsonSchema: { maxLength: max } }));

/**
 * The authorization request (RFC 6749 §4.1.1 with PKCE, RFC 7636, and `resource`, RFC 8707), as a client puts it in the
 * URL: what every request must carry is required (a request without it answers 400 naming it, never a redirect).
 */
export const AuthorizeQuery = v.looseObject({
  response_type: described(Required('response_type', 20), '`code`: the only response type.'),
  client_id: described(Required('client_id'), 'A registered client’s `client_…` id, or the https URL of its client ID metadata document.'),
  redirect_uri: described(Required('redirect_uri'), 'One of the client’s redirect URIs, exactly (a loopback one on any port).'),
  scope: Param('scope', 100),
  state: Param('state', 1000),
  code_challenge: described(Required('code_challenge', 128), 'PKCE (RFC 7636): the base64url SHA-256 of the code verifier, 43 characters.'),
  code_challenge_method: described(Required('code_challenge_method', 10), '`S256`: the only method.'),
  resource: Param('resource'),
});

/** The consent form as the page posts it: the authorization request again, the person's answer, the API key and the CSRF token. */
export const ConsentForm = v.object({
  ...AuthorizeQuery.entries,
  client_name: described(Param('client_name', 200), 'The client’s name as the consent page showed it; the page’s `csrf_token` covers it.'),
  csrf_token: Required('csrf_token', 100),
  api_key: Param('api_key', 200),
  granted_scope: Param('granted_scope', 10),
  decision: described(Required('decision', 10), '`allow` or `deny`.'),
});

const WITH_A_CODE = 'Required with `grant_type=authorization_code`.';

/**
 * The token request (RFC 6749 §4.1.3 and §6), form-encoded. What each grant type needs besides is required with it: a
 * request without it answers OAuth's `invalid_request` naming it.
 */
export const TokenForm = v.object({
  grant_type: described(Required('grant_type', 40), '`authorization_code` or `refresh_token`.'),
  code: described(Param('code', 200), WITH_A_CODE),
  redirect_uri: described(Param('redirect_uri'), `${WITH_A_CODE} The redirect URI the code was issued to, exactly.`),
  code_verifier: described(Param('code_verifier', 200), `${WITH_A_CODE} PKCE (RFC 7636): 43 to 128 characters of \`A-Z a-z 0-9 - . _ ~\`.`),
  client_id: described(Required('client_id'), 'The client the code or refresh token was issued to.'),
  refresh_token: described(Param('refresh_token', 200), 'Required with `grant_type=refresh_token`.'),
  resource: Param('resource'),
  scope: Param('scope', 100),
});

/** The token response (RFC 6749 §5.1). */
export const TokenResponse = v.object({
  access_token: described(v.string(), '`sp_oat_…`: for `POST /mcp` alone, as `Authorization: Bearer`.'),
  token_type: v.literal('Bearer'),
  expires_in: described(v.number(), 'Seconds the access token lives: 3600.'),
  refresh_token: described(v.string(), '`sp_ort_…`: good for one refresh within 30 days; the answer carries the next. Used twice, it revokes the grant.'),
  scope: v.picklist(OAUTH_SCOPES),
});

/** A grant as the organization sees it. */
export const OAuthGrant = v.object({
  id: PrefixedId('grant', 'grantId', { label: 'OAuth grant' }),
  clientId: described(v.string(), 'The OAuth client: its registered id (`client_…`) or the https URL of its client ID metadata document.'),
  clientName: described(v.string(), 'The name the client gave itself, as the consent page showed it.'),
  scope: described(v.picklist(OAUTH_SCOPES), 'What the grant’s tokens may do on `/mcp`: never more than its key.'),
  keyId: described(v.string(), 'The API key that granted it: revoking or rotating that key ends the grant.'),
  createdAt: Timestamp,
  lastUsedAt: described(v.nullable(Timestamp), 'When a token of the grant last called `/mcp`, to the minute.'),
});

export const OAuthGrantIdPath = v.object({ grantId: PrefixedId('grant', 'grantId', { label: 'OAuth grant' }) });
export const OAuthGrantList = v.object({ grants: v.array(OAuthGrant) });
export const OAuthGrantDeleted = deletedSchema(v.string());
