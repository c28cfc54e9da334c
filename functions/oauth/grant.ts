import type * as v from 'valibot';
import type { ApiKeyScope } from '#shared/auth/scopes';
import type { OAuthGrant } from './schema';

/** A grant's item as the API answers it. */
export const toGrant = (item: Record<string, unknown>): v.InferOutput<typeof OAuthGrant> => ({
  id: item.id as string,
  clientId: item.clientId as string,
  clientName: item.clientName as string,
  scope: item.scope as ApiKeyScope,
  keyId: item.keyId as string,
  createdAt: item.createdAt as string,
  lastUsedAt: (item.lastUsedAt as string | undefined) ?? null,
});
