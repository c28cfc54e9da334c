/**
 * The single table's key schema, read by the CDK stack, the local server and the tests,
 * so that every place creates exactly the same table.
 */
export const TABLE_KEYS = { partitionKey: 'pk', sortKey: 'sk' } as const;

/** DynamoDB actions a function may call; the stack grants exactly these, and the error alarm watches each. Each names its keys. */
export const DYNAMO_ACTIONS = ['GetItem', 'BatchGetItem', 'Query', 'PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'ConditionCheckItem'] as const;
export type DynamoAction = (typeof DYNAMO_ACTIONS)[number];

/**
 * A partition outside every organization that a keyed route must reach (a named exception, docs/data-model.md): the
 * pattern of its partition keys (`SMSNUMBER#*`), the actions the route takes on it, and why it names no organization.
 */
/**
 * Partition keys a function's own role reaches: a pattern, on which it may take every action of its grant, or a pattern
 * with the actions it takes there, where the others are not needed (a sign-in deletes its challenge, never a member).
 */
export type OwnKeys = string | { readonly keys: string; readonly actions: readonly DynamoAction[] };

export interface SharedPartition {
  keys: string;
  actions: DynamoAction[];
  why: string;
}

/** Epoch seconds after which DynamoDB deletes an item by itself (idempotency records). */
export const TTL_ATTRIBUTE = 'expiresAtEpoch';

export interface IndexDefinition {
  indexName: string;
  partitionKey: string;
  sortKey: string;
}

/** Overloaded secondary indexes; docs/data-model.md says which entity uses which. */
export const TABLE_INDEXES = [
  { indexName: 'gsi1', partitionKey: 'gsi1pk', sortKey: 'gsi1sk' },
  { indexName: 'gsi2', partitionKey: 'gsi2pk', sortKey: 'gsi2sk' },
  { indexName: 'gsi3', partitionKey: 'gsi3pk', sortKey: 'gsi3sk' },
  { indexName: 'gsi4', partitionKey: 'gsi4pk', sortKey: 'gsi4sk' },
  { indexName: 'gsi5', partitionKey: 'gsi5pk', sortKey: 'gsi5sk' },
  /**
   * The changes index: each listed entity's item carries `gsi6pk` (its collection's change log) and is sorted by its
   * own `updatedAt`, so every write that moves updatedAt moves the item in the index, with nothing else to keep in step.
   */
  { indexName: 'gsi6', partitionKey: 'gsi6pk', sortKey: 'updatedAt' },
] as const satisfies readonly IndexDefinition[];

export type IndexName = (typeof TABLE_INDEXES)[number]['indexName'];

/** The attribute names of an index's keys. */
export function indexKeyNames(indexName: IndexName): { partitionKey: string; sortKey: string } {
  return TABLE_INDEXES.find((index) => index.indexName === indexName)!;
}
