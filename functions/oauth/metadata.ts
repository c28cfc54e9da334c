import { API_KEY_SCOPES } from '#shared/auth/scopes';
import { GATEWAY_RESPONSES } from '#shared/http/gateway-responses';

/** The one route an access token is for: its audience, this API's MCP server. */
export const MCP_ROUTE = { method: 'POST', path: '/mcp' } as const;

/** The resource (RFC 8707) naming this API's MCP server, as its protected resource metadata says and tokens are bound to. */
export const mcpResourceOf = (baseUrl: string) => `${baseUrl}${MCP_ROUTE.path}`;

/** The API's paths of OAuth: its authorization server is the API itself. */
export const OAUTH_PATHS = {
  protectedResource: '/.well-known/oauth-protected-resource',
  protectedResourceOfMcp: '/.well-known/oauth-protected-resource/mcp',
  authorizationServer: '/.well-known/oauth-authorization-server',
  openIdConfiguration: '/.well-known/openid-configuration',
  authorize: '/oauth/authorize',
  token: '/oauth/token',
  register: '/oauth/register',
} as const;

/** The MCP server's protected resource metadata (RFC 9728), at both well-known paths. */
export const protectedResourceMetadata = (baseUrl: string) => ({
  resource: mcpResourceOf(baseUrl),
  authorization_servers: [baseUrl],
  scopes_supported: [...API_KEY_SCOPES],
  bearer_methods_supported: ['header' as const],
  resource_name: 'Sales Pipeline API (MCP)',
  resource_documentation: `${baseUrl}/docs`,
});

/** The authorization server's metadata (RFC 8414), at its well-known path and OpenID's. */
export const authorizationServerMetadata = (baseUrl: string) => ({
  issuer: baseUrl,
  authorization_endpoint: `${baseUrl}${OAUTH_PATHS.authorize}`,
  token_endpoint: `${baseUrl}${OAUTH_PATHS.token}`,
  registration_endpoint: `${baseUrl}${OAUTH_PATHS.register}`,
  scopes_supported: [...API_KEY_SCOPES],
  response_types_supported: ['code' as const],
  response_modes_supported: ['query' as const],
  grant_types_supported: ['authorization_code' as const, 'refresh_token' as const],
  token_endpoint_auth_methods_supported: ['none' as const],
  code_challenge_methods_supported: ['S256' as const],
  client_id_metadata_document_supported: true as const,
  authorization_response_iss_parameter_supported: true as const,
  service_documentation: `${baseUrl}/docs`,
});

/**
 * The 401's WWW-Authenticate as the gateway sends it: the scheme (GATEWAY_RESPONSES.UNAUTHORIZED's), then where the MCP
 * server's protected resource metadata is and the scope to ask for (RFC 9728 §5.1, MCP's authorization), at the API's
 * base URL. It is the gateway's own response's, not a function's: API Gateway renames an integration's
 * WWW-Authenticate (x-amzn-remapped-www-authenticate), which an OAuth client could not read. The stack writes it with
 * the deployed URL (infra/cdk/api/rest-api.ts), the local gateway with the URL asked.
 */
export const unauthorizedChallenge = (baseUrl: string) =>
  `${GATEWAY_RESPONSES.UNAUTHORIZED.headers['WWW-Authenticate']}, resource_metadata="${baseUrl}${OAUTH_PATHS.protectedResourceOfMcp}", scope="read"`;
