import * as v from 'valibot';
import { keys } from '../store/keys';
import { API_KEY_SCOPES, DEFAULT_SCOPE } from './scopes';

/** Expiry and revocation are stored absent rather than null, so revoking can keep the first revocation time (if_not_exists). */
const ApiKey = v.object({
  keyId: v.string(),
  organizationId: v.string(),
  /** What the operator calls it ("Zapier", "website form"); null for a key issued without one. */
  name: v.optional(v.nullable(v.string()), null),
  /**
   * The member the key acts for: the ADMIN who made it in the console, or who consented to an OAuth grant with it. It
   * may do what its scope and that member's current role allow, and ends with the member. Null: the organization's own
   * (an operator's key, made by the admin CLI), held to its scope alone; a key stored before members made keys reads so.
   */
  memberId: v.optional(v.nullable(v.number()), null),
  /** What the key may do (shared/auth/scopes.ts); a key stored before scopes existed reads as `full`, as it acted. */
  scope: v.optional(v.picklist(API_KEY_SCOPES), DEFAULT_SCOPE),
  tokenHash: v.string(),
  createdAt: v.string(),
  /** When a request last used it, to the minute: a key nobody uses can be revoked without fear. */
  lastUsedAt: v.optional(v.nullable(v.string()), null),
  expiresAt: v.optional(v.nullable(v.string()), null),
  revokedAt: v.optional(v.nullable(v.string()), null),
});
export type ApiKey = v.InferOutput<typeof ApiKey>;

/** What may be shown about a key: never its hash. */
export type ApiKeySummary = Omit<ApiKey, 'tokenHash'>;

export function toApiKeyItem(key: ApiKey) {
  return {
    ...keys.apiKey(key.organizationId, key.keyId),
    ...keys.apiKeyByTokenHash(key.tokenHash),
    entity: 'API_KEY',
    ...key,
    expiresAt: key.expiresAt ?? undefined,
    revokedAt: key.revokedAt ?? undefined,
    lastUsedAt: key.lastUsedAt ?? undefined,
    memberId: key.memberId ?? undefined,
  };
}

export const fromApiKeyItem = (item: Record<string, unknown>): ApiKey => v.parse(ApiKey, item);

export function isActive(key: ApiKey, at: Date): boolean {
  return key.revokedAt === null && (key.expiresAt === null || new Date(key.expiresAt) > at);
}
