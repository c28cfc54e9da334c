import { apiHandler } from '#shared/http/api-handler';
import { flushAuthorizerCache } from '#shared/auth/authorizer-cache';
import { requiredMemberSession } from '#shared/http/member-session';
import { createApiKey, listApiKeys, revokeApiKey } from '#shared/auth/api-keys';
import type { ApiKeySummary } from '#shared/auth/api-key';
import * as routes from './routes';

const viewOf = ({ keyId, name, scope, memberId, createdAt, lastUsedAt, expiresAt, revokedAt }: ApiKeySummary) => ({ id: keyId, name, scope, memberId, createdAt, lastUsedAt, expiresAt, revokedAt });

export const listApiKeysHandler = apiHandler(routes.listApiKeys, async ({ organizationId }) => ({
  keys: (await listApiKeys(organizationId)).map(viewOf).sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
}));

export const createApiKeyHandler = apiHandler(routes.createApiKey, async ({ organizationId, body, request }) => {
  // The key acts for the ADMIN making it: it can never do more than they may, and ends with them.
  const { key, token } = await createApiKey(organizationId, null, body.name, body.scope, requiredMemberSession(request.authorizer).memberId);
  return { key: { ...viewOf(key), token } };
});

export const revokeApiKeyHandler = apiHandler(routes.revokeApiKey, async ({ organizationId, path }) => {
  await revokeApiKey(organizationId, path.keyId);
  // The very next request with the key, or with a grant it made, is refused.
  await flushAuthorizerCache();
  return { success: true as const, id: path.keyId };
});
