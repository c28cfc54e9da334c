import { describe, expect, it } from 'vitest';
import { iamRequestsOf } from '../infra/local/aws-calls';

/**
 * What IAM authorizes of a DynamoDB call (infra/local/aws-calls.ts), which the strict mode and the policy simulation
 * evaluate: each item of a batch or transaction on its own, with its action, its table or index and its partition keys.
 */
const arnOf = (tableName: string) => `arn:aws:dynamodb:us-east-1:000000000000:table/${tableName || 'default'}`;
const T = arnOf('t');
const of = (command: string, input: Record<string, unknown>) => iamRequestsOf(command, { TableName: 't', ...input }, arnOf);

describe('the IAM requests of a DynamoDB call', () => {
  it('names a single item’s partition key, from plain or marshalled values', () => {
    expect(of('GetItemCommand', { Key: { pk: 'ORG#a', sk: 'X' } })).toEqual([{ action: 'dynamodb:GetItem', resource: T, leadingKeys: ['ORG#a'] }]);
    expect(of('UpdateItemCommand', { Key: { pk: { S: 'ORG#a#LEAD#1' }, sk: { S: 'X' } } })).toEqual([{ action: 'dynamodb:UpdateItem', resource: T, leadingKeys: ['ORG#a#LEAD#1'] }]);
    expect(of('DeleteItemCommand', { Key: { pk: 'ORG#b' } })).toEqual([{ action: 'dynamodb:DeleteItem', resource: T, leadingKeys: ['ORG#b'] }]);
    expect(of('PutItemCommand', { Item: { pk: { S: 'ORG#c' }, sk: { S: 'Y' }, name: { S: 'n' } } })).toEqual([{ action: 'dynamodb:PutItem', resource: T, leadingKeys: ['ORG#c'] }]);
    // No key at all is an empty set, which a ForAllValues condition passes: the action must not be allowed at all.
    expect(of('GetItemCommand', { Key: { sk: 'X' } })[0]!.leadingKeys).toEqual([]);
    expect(of('GetItemCommand', {})[0]!.leadingKeys).toEqual([]);
  });

  it("names a Query's partition from its key condition, on the table or the index queried, the name plain or through #alias", () => {
    expect(of('QueryCommand', { KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)', ExpressionAttributeValues: { ':pk': 'ORG#a', ':prefix': 'LEAD#' } })).toEqual([{ action: 'dynamodb:Query', resource: T, leadingKeys: ['ORG#a'] }]);
    expect(of('QueryCommand', { KeyConditionExpression: '#pk = :v AND #sk BETWEEN :from AND :to', ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk' }, ExpressionAttributeValues: { ':v': { S: 'ORG#b' } } })[0]!.leadingKeys).toEqual(['ORG#b']);
    expect(of('QueryCommand', { IndexName: 'gsi2', KeyConditionExpression: 'gsi2pk=:pk', ExpressionAttributeValues: { ':pk': 'ORG#a#LEADS#STATUS#NEW' } })).toEqual([{ action: 'dynamodb:Query', resource: `${T}/index/gsi2`, leadingKeys: ['ORG#a#LEADS#STATUS#NEW'] }]);
    // The sort key first, or the table's partition key named on an index: only the partition key read counts.
    expect(of('QueryCommand', { IndexName: 'gsi1', KeyConditionExpression: 'gsi1sk = :sk AND gsi1pk = :pk', ExpressionAttributeValues: { ':sk': 'KEY', ':pk': 'TOKEN#h' } })[0]!.leadingKeys).toEqual(['TOKEN#h']);
    expect(of('QueryCommand', { IndexName: 'gsi1', KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': 'ORG#a' } })[0]!.leadingKeys).toEqual([]);
    // A name through an alias that is not the partition key, or a value that is missing, names nothing.
    expect(of('QueryCommand', { KeyConditionExpression: '#n = :v', ExpressionAttributeNames: { '#n': 'sk' }, ExpressionAttributeValues: { ':v': 'ORG#a' } })[0]!.leadingKeys).toEqual([]);
    expect(of('QueryCommand', { KeyConditionExpression: '#n = :v', ExpressionAttributeValues: { ':v': 'ORG#a' } })[0]!.leadingKeys).toEqual([]);
    expect(of('QueryCommand', { KeyConditionExpression: 'pk = :missing', ExpressionAttributeValues: {} })[0]!.leadingKeys).toEqual([]);
    expect(of('QueryCommand', {})[0]!.leadingKeys).toEqual([]);
    expect(of('QueryCommand', { IndexName: 'gsi9', KeyConditionExpression: 'gsi9pk = :pk', ExpressionAttributeValues: { ':pk': 'ORG#a' } })).toEqual([{ action: 'dynamodb:Query', resource: `${T}/index/gsi9`, leadingKeys: [] }]);
  });

  it("makes each item of a transaction its own request, with its own action, table and key", () => {
    const items = [
      { Put: { TableName: 't', Item: { pk: 'ORG#a#LEAD#1' } } },
      { Update: { TableName: 't', Key: { pk: { S: 'ORG#a' } } } },
      { Delete: { TableName: 'u', Key: { pk: 'ORG#a#X' } } },
      { ConditionCheck: { TableName: 't', Key: { pk: 'SMSNUMBER#+61400000000' } } },
    ];
    expect(of('TransactWriteItemsCommand', { TransactItems: items })).toEqual([
      { action: 'dynamodb:PutItem', resource: T, leadingKeys: ['ORG#a#LEAD#1'] },
      { action: 'dynamodb:UpdateItem', resource: T, leadingKeys: ['ORG#a'] },
      { action: 'dynamodb:DeleteItem', resource: arnOf('u'), leadingKeys: ['ORG#a#X'] },
      { action: 'dynamodb:ConditionCheckItem', resource: T, leadingKeys: ['SMSNUMBER#+61400000000'] },
    ]);
    expect(of('TransactGetItemsCommand', { TransactItems: [{ Get: { TableName: 't', Key: { pk: 'ORG#a' } } }, { Get: { TableName: 't', Key: { pk: 'ORG#b' } } }] })).toEqual([
      { action: 'dynamodb:GetItem', resource: T, leadingKeys: ['ORG#a'] },
      { action: 'dynamodb:GetItem', resource: T, leadingKeys: ['ORG#b'] },
    ]);
    expect(of('TransactWriteItemsCommand', {})).toEqual([]);
  });

  it('makes each table of a batch one request naming every key it touches, once', () => {
    expect(of('BatchGetItemCommand', { RequestItems: { t: { Keys: [{ pk: 'ORG#a', sk: '1' }, { pk: { S: 'ORG#a' }, sk: '2' }, { pk: 'ORG#b', sk: '3' }] }, u: {} } })).toEqual([
      { action: 'dynamodb:BatchGetItem', resource: T, leadingKeys: ['ORG#a', 'ORG#b'] },
      { action: 'dynamodb:BatchGetItem', resource: arnOf('u'), leadingKeys: [] },
    ]);
    expect(of('BatchWriteItemCommand', { RequestItems: { t: [{ PutRequest: { Item: { pk: 'ORG#a#L' } } }, { DeleteRequest: { Key: { pk: 'ORG#c' } } }, { DeleteRequest: { Key: { pk: 'ORG#c' } } }] } })).toEqual([
      { action: 'dynamodb:BatchWriteItem', resource: T, leadingKeys: ['ORG#a#L', 'ORG#c'] },
    ]);
    expect(of('BatchGetItemCommand', {})).toEqual([]);
    expect(of('BatchWriteItemCommand', {})).toEqual([]);
  });

  it('names no key for a call that names none (a Scan, a statement, a table’s description): what the policies must never allow', () => {
    expect(of('ScanCommand', {})).toEqual([{ action: 'dynamodb:Scan', resource: T, leadingKeys: [] }]);
    expect(of('ScanCommand', { IndexName: 'gsi1' })).toEqual([{ action: 'dynamodb:Scan', resource: `${T}/index/gsi1`, leadingKeys: [] }]);
    expect(iamRequestsOf('DescribeTableCommand', {}, arnOf)).toEqual([{ action: 'dynamodb:DescribeTable', resource: arnOf(''), leadingKeys: [] }]);
    expect(iamRequestsOf('ExecuteStatementCommand', {}, arnOf)[0]!.action).toBe('dynamodb:ExecuteStatement');
  });
});
