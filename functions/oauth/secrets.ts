import { createHmac, randomBytes } from 'node:crypto';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { itemAtGsi1 } from '#shared/store/query-page';
import { clock } from '#shared/clock';
import { hashToken } from '#shared/auth/tokens';
import { findApiKey } from '#shared/auth/api-keys';
import { isActive } from '#shared/auth/api-key';
import type { ApiKeyScope } from '#shared/auth/scopes';
import { narrowerScope } from './scopes';
import { oauthKeys } from './entity';

/**
 * The secrets OAuth issues, each recognisable by its prefix: an authorization code, an access token (the client's, for
 * `/mcp` only), the MCP server's own token for the tool calls it makes with an access token (never given to the
 * client), and a refresh token. Each is 32 random bytes; only its SHA-256 is stored, as an API key's is.
 */
export const SECRET_PREFIXES = { code: 'sp_oac_', access: 'sp_oat_', mcp: 'sp_mcp_', refresh: 'sp_ort_' } as const;
export type SecretKind = keyof typeof SECRET_PREFIXES;

export const newSecret = (kind: SecretKind): string => SECRET_PREFIXES[kind] + randomBytes(32).toString('base64url');

/** The kind of a presented value, by its prefix; undefined for anything else (an API key). */
export const secretKindOf = (value: string): SecretKind | undefined =>
  (Object.entries(SECRET_PREFIXES) as [SecretKind, string][]).find(([, prefix]) => value.startsWith(prefix))?.[0];

/**
 * The MCP server's token for an access token: an HMAC of a random salt stored with the access token, keyed by the
 * access token itself. The client holds the access token but never the salt, and the table holds the salt but never
 * the access token, so neither can make it; the authorizer, holding both when `/mcp` is called, hands it to the MCP
 * function in its context (which API Gateway never shows the client).
 */
export const mcpTokenOf = (accessToken: string, salt: string): string => SECRET_PREFIXES.mcp + createHmac('sha256', accessToken).update(salt).digest('base64url');

/** One stored code or token: what it was issued for. */
export interface StoredSecret {
  id: string;
  kind: SecretKind;
  organizationId: string;
  grantId: string;
  clientId: string;
  clientName: string;
  keyId: string;
  scope: ApiKeyScope;
  /** The resource (RFC 8707) it was issued for: this API's `/mcp`. */
  resource: string;
  expiresAt: string;
  usedAt?: string;
  /** An access token's: what its MCP token is made from. */
  salt?: string;
  /** A code's: the PKCE challenge (S256) and the redirect URI it was issued to. */
  codeChallenge?: string;
  redirectUri?: string;
}

/**
 * The stored secret a value names, whatever its state (expired, used), or undefined when none is stored or it is of
 * another kind: a value's prefix says its kind (the stored item found by its hash is of that kind), so a value of another
 * kind is refused with no read.
 */
export async function findSecret(value: string, kind: SecretKind): Promise<StoredSecret | undefined> {
  if (secretKindOf(value) !== kind) return undefined;
  const item = await itemAtGsi1(oauthKeys.secretByHash(hashToken(value)));
  // The index is every organization's: the secret's organization is its item's key's, and an item whose attributes
  // name another (a slip in some write) is refused as an unknown secret, never read as that organization's.
  const own = item && oauthKeys.secret(String(item.organizationId), String(item.id));
  return own && item.pk === own.pk && item.sk === own.sk && item.kind === kind ? (item as unknown as StoredSecret) : undefined;
}

export const hasExpired = (secret: Pick<StoredSecret, 'expiresAt'>, at = clock.now()) => Date.parse(secret.expiresAt) <= at;

/** What a request with an OAuth token acts as: the granting key's organization, within the grant's scope. */
export interface OAuthPrincipal {
  organizationId: string;
  /** The member the granting key acts for (who consented, or whose key was pasted); null for an operator's key. */
  memberId: number | null;
  keyId: string;
  keyName: string;
  scope: ApiKeyScope;
  clientId: string;
  grantId: string;
  /** When the token ends by itself: its own expiry, or its granting key's if sooner. */
  endsAt: string;
}

const LAST_USED_PRECISION_MS = 60_000;

/** Records that a grant was just used, at most once a minute (a conditional write, refused when it was recorded less than a minute ago). */
const touchGrant = (organizationId: string, grantId: string, at: number) =>
  dynamo.send(
    new UpdateCommand({
      TableName: config.tableName,
      Key: oauthKeys.grant(organizationId, grantId),
      UpdateExpression: 'SET lastUsedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :staleBefore)',
      ExpressionAttributeValues: { ':now': new Date(at).toISOString(), ':staleBefore': new Date(at - LAST_USED_PRECISION_MS).toISOString() },
    }),
  );

/**
 * The principal of an access token or an MCP token that is live: not expired, its grant not revoked, and the key that
 * granted it still active (revoking or rotating the key ends its grants). Undefined otherwise.
 */
export async function principalOf(secret: StoredSecret, at = clock.now()): Promise<OAuthPrincipal | undefined> {
  if (hasExpired(secret, at)) return undefined;
  const [grant, key] = await Promise.all([
    dynamo.send(new GetCommand({ TableName: config.tableName, Key: oauthKeys.grant(secret.organizationId, secret.grantId), ConsistentRead: true })).then(({ Item }) => Item),
    findApiKey(secret.organizationId, secret.keyId),
  ]);
  if (!grant || !key || !isActive(key, new Date(at))) return undefined;
  // Refused as recent, or failed: when a grant was last used is no reason to refuse its use.
  await touchGrant(secret.organizationId, secret.grantId, at).catch(() => undefined);
  return {
    organizationId: secret.organizationId,
    memberId: key.memberId,
    keyId: key.keyId,
    keyName: key.name ?? '',
    scope: narrowerScope(secret.scope, key.scope),
    clientId: secret.clientId,
    grantId: secret.grantId,
    endsAt: key.expiresAt !== null && key.expiresAt < secret.expiresAt ? key.expiresAt : secret.expiresAt,
  };
}
