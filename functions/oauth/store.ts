import { createHash, randomBytes } from 'node:crypto';
import { flushAuthorizerCache } from '#shared/auth/authorizer-cache';
import { activeRoleOf } from '../organization/active-role';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import type * as v from 'valibot';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { clock } from '#shared/clock';
import { newId } from '#shared/ids';
import { NotFoundError } from '#shared/errors';
import { OAuthError } from './errors';
import { hashToken } from '#shared/auth/tokens';
import { findApiKey, listApiKeys } from '#shared/auth/api-keys';
import { isActive } from '#shared/auth/api-key';
import type { ApiKeyScope } from '#shared/auth/scopes';
import { TTL_ATTRIBUTE } from '#shared/table';
import { queryAll } from '#shared/store/query-page';
import { deleteItem, transact, type TransactWrite } from '#shared/store/transact';
import { auditDeletion } from '#shared/audit/deletion';
import { asWriter, currentWriter } from '#shared/audit/writer';
import type { ApiKey } from '#shared/auth/api-key';
import { OAUTH_GRANT_ENTITY, OAUTH_SECRET_ENTITY, oauthGrantAudit, oauthKeys } from './entity';
import { findSecret, hasExpired, mcpTokenOf, newSecret, type StoredSecret } from './secrets';
import { keepRegisteredClient, type OAuthClient } from './clients';
import { OAUTH_LIMITS } from './settings';
import { toGrant } from './grant';
import type { OAuthGrant, TokenResponse } from './schema';

/** The client a token request names: which one, and whether its registration is kept (clients.ts tokenClient). */
type TokenClient = Pick<OAuthClient, 'kind' | 'clientId'>;

/**
 * Runs the rest of an exchange as the organization its code or refresh token named (the route's session): the token
 * endpoint's own role reaches no organization's items.
 */
export type ActingFor = <T>(organizationId: string, work: () => Promise<T>) => Promise<T>;

type Grant = v.InferOutput<typeof OAuthGrant>;

const iso = (ms: number) => new Date(ms).toISOString();

/** PKCE's S256 (RFC 7636 §4.2): the base64url SHA-256 of the verifier. */
export const s256 = (verifier: string) => createHash('sha256').update(verifier).digest('base64url');

/** A secret's item: its hash the only trace of its value, deleted by DynamoDB after it expires. */
function secretItem(value: string, secret: StoredSecret) {
  return {
    ...oauthKeys.secret(secret.organizationId, secret.id),
    ...oauthKeys.secretByHash(hashToken(value)),
    entity: OAUTH_SECRET_ENTITY,
    ...secret,
    [TTL_ATTRIBUTE]: Math.floor(Date.parse(secret.expiresAt) / 1000) + 86_400,
  };
}

const put = (item: Record<string, unknown>): TransactWrite => ({ item: { Put: { TableName: config.tableName, Item: item, ConditionExpression: 'attribute_not_exists(pk)' } } });

/** What a code is issued for: the consent of a key's holder to a client. */
export interface Consent {
  organizationId: string;
  keyId: string;
  scope: ApiKeyScope;
  client: OAuthClient;
  redirectUri: string;
  codeChallenge: string;
  resource: string;
}

/** Issues an authorization code for a consent: single-use, OAUTH_LIMITS.codeSeconds long. The grant it makes gets its id now. */
export async function issueCode(consent: Consent): Promise<string> {
  const code = newSecret('code');
  const secret: StoredSecret = {
    id: newId('oac'),
    kind: 'code',
    organizationId: consent.organizationId,
    grantId: newId('grant'),
    clientId: consent.client.clientId,
    clientName: consent.client.clientName,
    keyId: consent.keyId,
    scope: consent.scope,
    resource: consent.resource,
    expiresAt: iso(clock.now() + OAUTH_LIMITS.codeSeconds * 1000),
    codeChallenge: consent.codeChallenge,
    redirectUri: consent.redirectUri,
  };
  await dynamo.send(new PutCommand({ TableName: config.tableName, Item: secretItem(code, secret) }));
  return code;
}

/** The tokens of a grant, as a client is given them, and their items. */
function tokensOf(source: StoredSecret): { response: v.InferOutput<typeof TokenResponse>; writes: TransactWrite[] } {
  const at = clock.now();
  const [access, refresh] = [newSecret('access'), newSecret('refresh')];
  const salt = randomBytes(16).toString('base64url');
  const base = { organizationId: source.organizationId, grantId: source.grantId, clientId: source.clientId, clientName: source.clientName, keyId: source.keyId, scope: source.scope, resource: source.resource };
  const accessExpires = iso(at + OAUTH_LIMITS.accessTokenSeconds * 1000);
  const secrets: [string, StoredSecret][] = [
    [access, { ...base, id: newId('oat'), kind: 'access', expiresAt: accessExpires, salt }],
    [refresh, { ...base, id: newId('ort'), kind: 'refresh', expiresAt: iso(at + OAUTH_LIMITS.refreshTokenSeconds * 1000) }],
  ];
  return {
    response: { access_token: access, token_type: 'Bearer', expires_in: OAUTH_LIMITS.accessTokenSeconds, refresh_token: refresh, scope: source.scope },
    writes: [...secrets.map(([value, secret]) => put(secretItem(value, secret))), mcpTokenWrite(access, salt, { ...base, id: newId('oat'), kind: 'mcp', expiresAt: accessExpires })],
  };
}

/** The item of the MCP server's token for an access token (secrets.ts, mcpTokenOf): found by its hash as the others are. */
function mcpTokenWrite(accessToken: string, salt: string, secret: StoredSecret): TransactWrite {
  return put(secretItem(mcpTokenOf(accessToken, salt), secret));
}

const invalidGrant = (why: string) => new OAuthError('invalid_grant', why);

/** A code or refresh token spent meanwhile by another request: its transaction's condition failed, a reuse all the same. */
class SpentMeanwhile extends Error {}

/** A secret marked used, only if it was not: two exchanges of one code, or two refreshes with one token, cannot both pass. */
const markUsed = (secret: StoredSecret): TransactWrite => ({
  item: {
    Update: {
      TableName: config.tableName,
      Key: oauthKeys.secret(secret.organizationId, secret.id),
      UpdateExpression: 'SET usedAt = :now',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedAt)',
      ExpressionAttributeValues: { ':now': iso(clock.now()) },
    },
  },
  onConditionFailed: () => new SpentMeanwhile(),
});

/** Revokes a grant: its item goes (an `oauth_grant.revoked` event, and the audit entry of its delete), and every token of it is refused from then on. */
export async function revokeGrant(organizationId: string, grantId: string): Promise<void> {
  await transact([deleteItem(oauthKeys.grant(organizationId, grantId)), ...auditDeletion(organizationId, oauthGrantAudit, grantId)]);
  // Its tokens' cached answers end too: the very next call with any of them is decided afresh, and refused.
  await flushAuthorizerCache();
}

/**
 * The token endpoint's writes, attributed as the grant's: the granting key, through the MCP server's OAuth, for the
 * client (the request itself carries no key).
 */
const asGrant = <T>(secret: StoredSecret, key: Pick<ApiKey, 'name'> | undefined, work: () => Promise<T>): Promise<T> => {
  const request = currentWriter();
  return asWriter({ keyId: secret.keyId, keyName: key?.name ?? null, requestId: request?.requestId ?? '', method: request?.method ?? null, path: request?.path ?? null, via: 'mcp', clientId: secret.clientId }, work);
};

/** The reuse of a code or refresh token: the grant it belongs to is revoked, all its tokens with it (OAuth 2.1 §4.1.3, §4.3.1). */
async function refusedReuse(secret: StoredSecret, what: string): Promise<never> {
  await asGrant(secret, await findApiKey(secret.organizationId, secret.keyId), () => revokeGrant(secret.organizationId, secret.grantId));
  throw invalidGrant(`${what} was already used: the grant it belongs to is revoked; authorize again`);
}

/** Spends `secret` with `writes` in one transaction, as the grant; spent meanwhile by another request, it is a reuse. */
async function spend(secret: StoredSecret, key: ApiKey, what: string, writes: TransactWrite[]): Promise<void> {
  await asGrant(secret, key, () => transact([markUsed(secret), ...writes])).catch((error: unknown) => {
    if (error instanceof SpentMeanwhile) return refusedReuse(secret, what);
    throw error;
  });
}

/** The checks every exchange shares: the same client (known, checked first by the endpoint), the same resource, and a key that is still active. */
async function checkStillGranted(secret: StoredSecret, client: TokenClient, resource: string | undefined, what: string): Promise<ApiKey> {
  if (client.clientId !== secret.clientId) throw invalidGrant(`${what} was issued to another client_id`);
  if (resource !== undefined && resource !== secret.resource) throw new OAuthError('invalid_target', `resource must be ${secret.resource}, the server ${what} was issued for`);
  const key = await findApiKey(secret.organizationId, secret.keyId);
  if (!key || !isActive(key, new Date(clock.now()))) throw invalidGrant(`the API key that granted ${what} is revoked or expired`);
  // The member the grant acts for must still be one, active: a removed or disabled member's assistant gets no new token.
  if (key.memberId !== null && !(await activeRoleOf(secret.organizationId, key.memberId))) throw invalidGrant(`the member who granted ${what} is no longer an active member`);
  return key;
}

/** RFC 7636 §4.1: a code verifier is 43 to 128 of its unreserved characters. */
const CODE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** Exchanges a code for tokens (RFC 6749 §4.1.3 with PKCE): once, by its client, with its verifier and redirect URI; the grant is made then. */
export async function exchangeCode(client: TokenClient, form: { code: string; redirectUri?: string; codeVerifier?: string; resource?: string }, actingFor: ActingFor): Promise<v.InferOutput<typeof TokenResponse>> {
  const { redirectUri, codeVerifier, resource } = form;
  // Required whatever the code: a request without them is malformed (RFC 6749 §5.2), and PKCE is never optional here.
  if (!redirectUri) throw new OAuthError('invalid_request', 'redirect_uri is required');
  if (!codeVerifier) throw new OAuthError('invalid_request', 'code_verifier is required (PKCE S256)');
  if (!CODE_VERIFIER.test(codeVerifier)) throw new OAuthError('invalid_request', 'code_verifier must be 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_" and "~" (RFC 7636)');
  const code = await findSecret(form.code, 'code');
  if (!code) throw invalidGrant('code is not one this server issued');
  return actingFor(code.organizationId, () => exchange(code, client, { redirectUri, codeVerifier, resource }));
}

async function exchange(code: StoredSecret, client: TokenClient, form: { redirectUri: string; codeVerifier: string; resource?: string }): Promise<v.InferOutput<typeof TokenResponse>> {
  if (code.usedAt) return refusedReuse(code, 'code');
  if (hasExpired(code)) throw invalidGrant(`code expired (a code lives ${OAUTH_LIMITS.codeSeconds} s)`);
  const key = await checkStillGranted(code, client, form.resource, 'code');
  if (form.redirectUri !== code.redirectUri) throw invalidGrant('redirect_uri must be the one the code was issued to');
  if (s256(form.codeVerifier) !== code.codeChallenge) throw invalidGrant('code_verifier does not match the code_challenge (PKCE S256)');
  const { response, writes } = tokensOf(code);
  const grant: Grant = { id: code.grantId, clientId: code.clientId, clientName: code.clientName, scope: code.scope, keyId: code.keyId, createdAt: iso(clock.now()), lastUsedAt: null };
  const registered = client.kind === 'registered' ? [{ item: keepRegisteredClient(client.clientId) }] : [];
  await spend(code, key, 'code', [
    put({ ...oauthKeys.grant(code.organizationId, grant.id), entity: OAUTH_GRANT_ENTITY, organizationId: code.organizationId, resource: code.resource, ...grant, lastUsedAt: undefined }),
    ...writes,
    ...registered,
  ]);
  return response;
}

/** Refreshes (RFC 6749 §6): the refresh token is spent and a new one issued with the access token; a spent one used again revokes the grant. */
export async function refreshTokens(client: TokenClient, form: { refreshToken: string; resource?: string }, actingFor: ActingFor): Promise<v.InferOutput<typeof TokenResponse>> {
  const refresh = await findSecret(form.refreshToken, 'refresh');
  if (!refresh) throw invalidGrant('refresh_token is not one this server issued');
  return actingFor(refresh.organizationId, () => refreshWith(refresh, client, form.resource));
}

async function refreshWith(refresh: StoredSecret, client: TokenClient, resource: string | undefined): Promise<v.InferOutput<typeof TokenResponse>> {
  if (refresh.usedAt) return refusedReuse(refresh, 'refresh_token');
  if (hasExpired(refresh)) throw invalidGrant('refresh_token expired');
  const key = await checkStillGranted(refresh, client, resource, 'refresh_token');
  const { response, writes } = tokensOf(refresh);
  await spend(refresh, key, 'refresh_token', [
    { item: { ConditionCheck: { TableName: config.tableName, Key: oauthKeys.grant(refresh.organizationId, refresh.grantId), ConditionExpression: 'attribute_exists(pk)' } }, onConditionFailed: () => invalidGrant('the grant was revoked; authorize again') },
    ...writes,
  ]);
  return response;
}

/** The organization's grants whose key is still active, newest first. */
export async function listGrants(organizationId: string): Promise<Grant[]> {
  const [items, keys] = await Promise.all([queryAll(oauthKeys.grants(organizationId)), listApiKeys(organizationId)]);
  const at = new Date(clock.now());
  const active = new Set(keys.filter((key) => isActive({ ...key, tokenHash: '' }, at)).map((key) => key.keyId));
  return items
    .filter((item) => active.has(item.keyId as string))
    .map((item) => toGrant(item))
    .sort((a, b) => (a.id < b.id ? 1 : -1));
}

/** Revokes one of the organization's grants, or NotFoundError. */
export async function deleteGrant(organizationId: string, grantId: string): Promise<void> {
  await transact([deleteItem(oauthKeys.grant(organizationId, grantId), () => new NotFoundError('OAuth grant not found')), ...auditDeletion(organizationId, oauthGrantAudit, grantId)]);
  await flushAuthorizerCache();
}
