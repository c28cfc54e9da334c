import { TABLE_KEYS, TABLE_INDEXES } from '#shared/table';
import type { KeyUse } from '#shared/envelope-encryption';
import { ORGANIZATION_CONTEXT_KEY, sealingKeyAlias } from '#shared/sealing-key';

/**
 * What IAM authorizes of one DynamoDB call, as AWS would see it: one request per item of a batch or a transaction
 * (IAM authorizes each alone, with its own action), each with the resource (the table, or the index queried) and the
 * partition-key values it touches (the `dynamodb:LeadingKeys` condition key). The local strict mode evaluates these
 * before a call is sent (./strict-access.ts) and the tests record them for the policy simulation.
 */
export interface IamRequest {
  /** `dynamodb:GetItem`, `kms:Decrypt`, … */
  action: string;
  resource: string;
  /** `dynamodb:LeadingKeys` (none for a call to the key). */
  leadingKeys: string[];
  /** The other condition keys IAM reads of it: a call to the key's alias and encryption context. */
  context?: Record<string, string | string[]>;
}

/** Where the local table would be: an ARN of the same shape as the deployed one, for the policies to name. */
export const LOCAL_ACCOUNT = '000000000000';
export const LOCAL_REGION = 'us-east-1';
export const localTableArn = (tableName: string) => `arn:aws:dynamodb:${LOCAL_REGION}:${LOCAL_ACCOUNT}:table/${tableName}`;

/**
 * What IAM authorizes of a call to the key sealing secrets (the local key makes none; deployed, KMS is asked): the key,
 * found by the table's alias, and the secret's organization as its encryption context names it, which is all the
 * policies' conditions read (not the item or attribute, so alike calls are evaluated once).
 */
export const keyRequestOf = ({ action, encryptionContext }: KeyUse, tableName: string): IamRequest => ({
  action,
  resource: `arn:aws:kms:${LOCAL_REGION}:${LOCAL_ACCOUNT}:key/local`,
  leadingKeys: [],
  // Every pair of the encryption context, as KMS gives IAM each (kms:EncryptionContext:<key>): the organization, the item, the attribute.
  context: {
    'kms:ResourceAliases': [sealingKeyAlias(tableName)],
    [ORGANIZATION_CONTEXT_KEY]: encryptionContext.organizationId ?? '',
    ...Object.fromEntries(Object.entries(encryptionContext).map(([key, value]) => [`kms:EncryptionContext:${key}`, value])),
  },
});

type Value = string | { S?: string } | undefined;
type Item = Record<string, Value>;

/** A key attribute's string, from the document client's plain values or the marshalled `{ S }`. */
const stringOf = (value: Value): string | undefined => (typeof value === 'string' ? value : value?.S);

const partitionOf = (item: Item | undefined): string[] => {
  const value = stringOf(item?.[TABLE_KEYS.partitionKey]);
  return value === undefined ? [] : [value];
};

/** The partition key value a Query's key condition names: `<pk name> = :value`, the name perhaps through `#alias`. */
function queriedPartition(input: { IndexName?: string; KeyConditionExpression?: string; ExpressionAttributeNames?: Record<string, string>; ExpressionAttributeValues?: Item }): string[] {
  const partitionKey = input.IndexName ? TABLE_INDEXES.find((index) => index.indexName === input.IndexName)?.partitionKey : TABLE_KEYS.partitionKey;
  for (const [, name = '', placeholder = ''] of (input.KeyConditionExpression ?? '').matchAll(/(#?[\w]+)\s*=\s*(:[\w]+)/g)) {
    const attribute = name.startsWith('#') ? input.ExpressionAttributeNames?.[name] : name;
    const value = stringOf(input.ExpressionAttributeValues?.[placeholder]);
    if (attribute === partitionKey && value !== undefined) return [value];
  }
  return [];
}

const TRANSACT_ACTIONS: Record<string, string> = { Put: 'PutItem', Update: 'UpdateItem', Delete: 'DeleteItem', ConditionCheck: 'ConditionCheckItem', Get: 'GetItem' };

type Input = Record<string, unknown> & { TableName?: string; Key?: Item; Item?: Item; IndexName?: string };

/** The IAM requests of a DynamoDB command (`QueryCommand`, `TransactWriteItemsCommand`, …) and its input. */
export function iamRequestsOf(commandName: string, input: Input, tableArnOf: (tableName: string) => string): IamRequest[] {
  const operation = commandName.replace(/Command$/, '');
  const on = (tableName: string | undefined, index?: string) => (index ? `${tableArnOf(tableName ?? '')}/index/${index}` : tableArnOf(tableName ?? ''));
  switch (operation) {
    case 'GetItem':
    case 'UpdateItem':
    case 'DeleteItem':
      return [{ action: `dynamodb:${operation}`, resource: on(input.TableName), leadingKeys: partitionOf(input.Key) }];
    case 'PutItem':
      return [{ action: 'dynamodb:PutItem', resource: on(input.TableName), leadingKeys: partitionOf(input.Item) }];
    case 'Query':
      return [{ action: 'dynamodb:Query', resource: on(input.TableName, input.IndexName), leadingKeys: queriedPartition(input as never) }];
    case 'TransactWriteItems':
    case 'TransactGetItems':
      return ((input.TransactItems ?? []) as Record<string, Input>[]).flatMap((entry) =>
        Object.entries(entry).map(([kind, item]) => ({ action: `dynamodb:${TRANSACT_ACTIONS[kind] ?? kind}`, resource: on(item.TableName), leadingKeys: partitionOf(item.Key ?? item.Item) })),
      );
    case 'BatchGetItem':
      return Object.entries((input.RequestItems ?? {}) as Record<string, { Keys?: Item[] }>).map(([tableName, { Keys = [] }]) => ({ action: 'dynamodb:BatchGetItem', resource: on(tableName), leadingKeys: [...new Set(Keys.flatMap(partitionOf))] }));
    case 'BatchWriteItem':
      return Object.entries((input.RequestItems ?? {}) as Record<string, { PutRequest?: { Item: Item }; DeleteRequest?: { Key: Item } }[]>).map(([tableName, requests]) => ({
        action: 'dynamodb:BatchWriteItem',
        resource: on(tableName),
        leadingKeys: [...new Set(requests.flatMap((request) => partitionOf(request.PutRequest?.Item ?? request.DeleteRequest?.Key)))],
      }));
    default:
      // A Scan, a PartiQL statement, a table's description: no keys, which is what the tenant policy can never allow.
      return [{ action: `dynamodb:${operation}`, resource: on(input.TableName, input.IndexName), leadingKeys: [] }];
  }
}
