import { defineRoute, type RouteDefinition } from '#shared/routes/route';
import { prose } from '#shared/prose';
import { authorizerCacheFlush } from '#shared/auth/authorizer-cache-flush';
import { ApiKeyIdPath, ApiKeyList, ApiKeyRevoked, CreateApiKeyBody, CreatedApiKey } from './schema';

/** An organization's API keys, managed by its ADMINs (the resource's role) in the console: a key cannot make or revoke keys (SESSION_REQUIRED). */
const KEYS = { tag: 'API keys', sessionOnly: true as const };

export const listApiKeys = defineRoute({
  ...KEYS,
  operationId: 'listApiKeys',
  method: 'GET',
  path: '/v1/api-keys',
  summary: 'The organization’s API keys',
  description: 'Every key of the organization, active, expired or revoked, with its scope and when a request last used it (never the key itself, which is shown once).',
  dynamodb: ['Query'],
  status: 200,
  request: {},
  response: ApiKeyList,
  errors: [403],
});

export const createApiKey = defineRoute({
  ...KEYS,
  operationId: 'createApiKey',
  method: 'POST',
  path: '/v1/api-keys',
  summary: 'Make an API key',
  description: prose`
    A new key of the organization, for an integration: its \`token\` is the key itself, answered this once and kept nowhere
    but by its hash. It acts for the ADMIN who made it (\`memberId\`): held to that member's role as it is at each
    request, and revoked with the member unless another ADMIN keeps it. It takes no Idempotency-Key: a kept answer would keep the key; a retry makes a second key, which the
    list shows and an ADMIN revokes.
  `,
  dynamodb: ['PutItem'],
  status: 201,
  request: { body: CreateApiKeyBody },
  requestExample: { name: 'Website form', scope: 'write' },
  response: CreatedApiKey,
  errors: [400, 403],
  idempotencyKey: false,
});

export const revokeApiKey = defineRoute({
  ...KEYS,
  operationId: 'revokeApiKey',
  method: 'DELETE',
  path: '/v1/api-keys/{keyId}',
  summary: 'Revoke an API key',
  description: 'Refuses the key from its very next request; revoking it again answers the same. Its grants to assistants end with it.',
  dynamodb: ['UpdateItem'],
  capabilities: [authorizerCacheFlush],
  status: 200,
  request: { path: ApiKeyIdPath },
  response: ApiKeyRevoked,
  errors: [400, 403, 404],
});

export const apiKeyRoutes: RouteDefinition[] = [listApiKeys, createApiKey, revokeApiKey];
