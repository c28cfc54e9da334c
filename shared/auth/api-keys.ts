import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { generateToken, hashToken } from './tokens';
import { clock } from '../clock';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { fromApiKeyItem, isActive, toApiKeyItem, type ApiKey, type ApiKeySummary } from './api-key';
import { keys } from '../store/keys';
import { NotFoundError } from '../errors';
import { newId, now } from '../ids';
import { itemAtGsi1, queryAll } from '../store/query-page';
import { insertIfAbsent, writeAlone, type TransactWrite } from '../store/transact';
import { StaleWrite } from '../store/versioned';
import { DEFAULT_SCOPE, type ApiKeyScope } from './scopes';

/** Issues a key and returns its secret token: the only time the token exists outside the caller. */
export async function createApiKey(organizationId: string, expiresAt: Date | null = null, name: string | null = null, scope: ApiKeyScope = DEFAULT_SCOPE, memberId: number | null = null): Promise<{ key: ApiKeySummary; token: string }> {
  const token = generateToken();
  const key: ApiKey = {
    keyId: newId('key'),
    organizationId,
    name,
    memberId,
    scope,
    tokenHash: hashToken(token),
    createdAt: now(),
    lastUsedAt: null,
    expiresAt: expiresAt?.toISOString() ?? null,
    revokedAt: null,
  };
  await writeAlone(insertIfAbsent(toApiKeyItem(key)));
  const { tokenHash: _, ...summary } = key;
  return { key: summary, token };
}

/** The active key a token belongs to, or undefined for unknown, expired and revoked tokens. */
export async function findActiveKeyByToken(token: string, at = new Date(clock.now())): Promise<ApiKey | undefined> {
  const item = await itemAtGsi1(keys.apiKeyByTokenHash(hashToken(token)));
  const key = item && fromApiKeyItem(item);
  // The index is shared by every organization: the organization and key are the item's key's, and an item whose
  // attributes name others (a slip in some write) is no key at all, never another organization's.
  return key && atOwnKey(item, key) && isActive(key, at) ? key : undefined;
}

/** Whether an item found through a shared index sits at the key its attributes name. */
const atOwnKey = (item: Record<string, unknown>, key: Pick<ApiKey, 'organizationId' | 'keyId'>) => {
  const own = keys.apiKey(key.organizationId, key.keyId);
  return item.pk === own.pk && item.sk === own.sk;
};

/**
 * Revokes a key (its first revocation time kept). The caller flushes the authorizer cache after it (the route's
 * capability, the admin CLI): this module is the authorizer's, which must not carry the flush's client.
 */
export async function revokeApiKey(organizationId: string, keyId: string): Promise<void> {
  await dynamo
    .send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: keys.apiKey(organizationId, keyId),
        UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':now': now() },
      }),
    )
    .catch((error: unknown) => {
      throw (error as Error).name === 'ConditionalCheckFailedException' ? new NotFoundError('API key not found') : error;
    });
}

/** How stale lastUsedAt may be: writing it on every request would cost a write per call. */
const LAST_USED_PRECISION_MS = 60_000;

/** Records that the key was just used, at most once a minute (a conditional write that does nothing otherwise). */
export async function touchApiKey(key: ApiKey, at = new Date()): Promise<void> {
  if (key.lastUsedAt && at.getTime() - new Date(key.lastUsedAt).getTime() < LAST_USED_PRECISION_MS) return;
  await dynamo
    .send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: keys.apiKey(key.organizationId, key.keyId),
        UpdateExpression: 'SET lastUsedAt = :now',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(lastUsedAt) OR lastUsedAt < :staleBefore)',
        ExpressionAttributeValues: { ':now': at.toISOString(), ':staleBefore': new Date(at.getTime() - LAST_USED_PRECISION_MS).toISOString() },
      }),
    )
    .catch((error: unknown) => {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
    });
}

/** Ends a key at `at` (now, or after an overlap while its replacement is rolled out); an earlier end stays. */
export async function expireApiKey(organizationId: string, keyId: string, at: Date): Promise<void> {
  await dynamo
    .send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: keys.apiKey(organizationId, keyId),
        UpdateExpression: 'SET expiresAt = :at',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(expiresAt) OR expiresAt > :at)',
        ExpressionAttributeValues: { ':at': at.toISOString() },
      }),
    )
    .catch(async (error: unknown) => {
      if ((error as Error).name !== 'ConditionalCheckFailedException') throw error;
      if (!(await findApiKey(organizationId, keyId))) throw new NotFoundError('API key not found');
    });
}

export async function findApiKey(organizationId: string, keyId: string): Promise<ApiKey | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.apiKey(organizationId, keyId), ConsistentRead: true }));
  return Item && fromApiKeyItem(Item);
}

export async function listApiKeys(organizationId: string): Promise<ApiKeySummary[]> {
  return (await queryAll(keys.apiKeys(organizationId))).map((item) => {
    const { tokenHash: _, ...summary } = fromApiKeyItem(item);
    return summary;
  });
}

/**
 * The writes that end or pass on the keys of a member who leaves, for the transaction that removes the member: each
 * revoked, or kept by the organization for whom `keptFor` names (a member, or null: the organization itself), on
 * condition that it still acts for the member leaving.
 */
export function leavingMemberKeyWrites(organizationId: string, memberId: number, { revoke, keep, keptFor }: { revoke: string[]; keep: string[]; keptFor: number | null }): TransactWrite[] {
  const stillTheirs = { ConditionExpression: 'memberId = :leaving', ExpressionAttributeValues: { ':leaving': memberId } };
  const revoked = revoke.map((keyId): TransactWrite => ({
    item: { Update: { TableName: config.tableName, Key: keys.apiKey(organizationId, keyId), UpdateExpression: 'SET revokedAt = if_not_exists(revokedAt, :now)', ...stillTheirs, ExpressionAttributeValues: { ...stillTheirs.ExpressionAttributeValues, ':now': now() } } },
    onConditionFailed: () => new StaleWrite(),
  }));
  const kept = keep.map((keyId): TransactWrite => ({
    item: {
      Update: {
        TableName: config.tableName,
        Key: keys.apiKey(organizationId, keyId),
        ...(keptFor === null ? { UpdateExpression: 'REMOVE memberId', ...stillTheirs } : { UpdateExpression: 'SET memberId = :keptFor', ...stillTheirs, ExpressionAttributeValues: { ...stillTheirs.ExpressionAttributeValues, ':keptFor': keptFor } }),
      },
    },
    onConditionFailed: () => new StaleWrite(),
  }));
  return [...revoked, ...kept];
}
