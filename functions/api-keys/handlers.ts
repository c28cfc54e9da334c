import { apiHandler } from '#shared/http/api-handler';
import { flushAuthorizerCache } from '#shared/auth/authorizer-cache';
import { memberSessionOf } from '#shared/http/member-session';
import { createApiKey, listApiKeys, revokeApiKey } from '#shared/auth/api-keys';
import type { ApiKeySummary } from '#shared/auth/api-key';
import * as routes from './routes';

/** The ADMIN whose session asks (the routes are `sessionOnly`: a key's request never gets here). */
function adminOf(authorizer: Readonly<Record<string, unknown>>): number {
  const session = memberSessionOf(authorizer);
  if (!session) throw new Error('A sessionOnly route ran without a member’s session');
  return session.memberId;
}

const viewOf = ({ keyId, name, scope, memberId, createdAt, lastUsedAt, expiresAt, revokedAt }: ApiKeySummary) => ({ id: keyId, name, scope, memberId, createdAt, lastUsedAt, expiresAt, revokedAt });

export const listApiKeysHandler = apiHandler(routes.listApiKeys, async ({ organizationId }) => ({
  keys: (await listApiKeys(organizationId)).map(viewOf).sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
}));

export const createApiKeyHandler = apiHandler(routes.createApiKey, async ({ organizationId, body, request }) => {
  // The key acts for the ADMIN making it: it can never do more than they may, and ends with them.
  const { key, token } = await createApiKey(organizationId, null, body.name, body.scope, adminOf(request.authorizer));
  return { key: { ...viewOf(key), token } };
});

export const revokeApiKeyHandler = apiHandler(routes.revokeApiKey, async ({ organizationId, path }) => {
  await revokeApiKey(organizationId, path.keyId);
  // The very next request with the key, or with a grant it made, is refused.
  await flushAuthorizerCache();
  return { success: true as const, id: path.keyId };
});
