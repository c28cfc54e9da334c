import { keys } from './keys';

export interface ApiKey {
  keyId: string;
  organizationId: string;
  tokenHash: string;
  createdAt: string;
  expiresAt: string | null;
  revokedAt: string | null;
}

/** What may be shown about a key: never its hash. */
export type ApiKeySummary = Omit<ApiKey, 'tokenHash'>;

/** Absent rather than null expiry and revocation, so revoking can keep the first revocation time (if_not_exists). */
export function toApiKeyItem(key: ApiKey) {
  return {
    ...keys.apiKey(key.organizationId, key.keyId),
    ...keys.apiKeyByTokenHash(key.tokenHash),
    entity: 'API_KEY',
    ...key,
    expiresAt: key.expiresAt ?? undefined,
    revokedAt: key.revokedAt ?? undefined,
  };
}

export function fromApiKeyItem(item: Record<string, unknown>): ApiKey {
  const i = item as unknown as ApiKey;
  return {
    keyId: i.keyId,
    organizationId: i.organizationId,
    tokenHash: i.tokenHash,
    createdAt: i.createdAt,
    expiresAt: i.expiresAt ?? null,
    revokedAt: i.revokedAt ?? null,
  };
}

export function isActive(key: ApiKey, at: Date): boolean {
  return key.revokedAt === null && (key.expiresAt === null || new Date(key.expiresAt) > at);
}
