import { config } from '#shared/config';
import type { Key } from '#shared/store/keys';
import type { TransactWrite } from '#shared/store/transact';
import { serviceKeys } from './entity';

/**
 * A record of another resource that names a scenario (a transfer rule's `scenarioId`). The referrer is a versioned
 * record with an `updatedAt`: when the scenario is deleted, the referrer's `attribute` is set to null, its
 * `updatedAt` to the time and its `version` moved on, in the delete's transaction.
 */
export interface ScenarioReferrer {
  key: Key;
  attribute: string;
}

/**
 * The writes that make `referrer` name the scenario, for the referrer's own transaction: the scenario's `links`
 * count up by one, on condition that the scenario exists (else `onMissing`), and a link item naming the referrer.
 * The count lets a delete see a link made after it looked (docs/decisions/store.md).
 */
export function linkScenario(organizationId: string, scenarioId: number, referrer: ScenarioReferrer, onMissing: () => Error): TransactWrite[] {
  return [
    {
      item: {
        Update: {
          TableName: config.tableName,
          Key: serviceKeys.scenario(organizationId, scenarioId),
          UpdateExpression: 'ADD #links :one',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#links': 'links' },
          ExpressionAttributeValues: { ':one': 1 },
        },
      },
      onConditionFailed: onMissing,
    },
    {
      item: {
        Put: {
          TableName: config.tableName,
          Item: { ...serviceKeys.scenarioLink(organizationId, scenarioId, referrer.key), entity: 'SCENARIO_LINK', scenarioId, referrer: { pk: referrer.key.pk, sk: referrer.key.sk }, attribute: referrer.attribute },
        },
      },
    },
  ];
}

/**
 * The writes that make `referrer` stop naming the scenario: the count down by one and the link item gone. The
 * scenario exists while anything names it (its delete clears every referrer in the same transaction).
 */
export function unlinkScenario(organizationId: string, scenarioId: number, referrer: ScenarioReferrer): TransactWrite[] {
  return [
    {
      item: {
        Update: {
          TableName: config.tableName,
          Key: serviceKeys.scenario(organizationId, scenarioId),
          UpdateExpression: 'ADD #links :minusOne',
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeNames: { '#links': 'links' },
          ExpressionAttributeValues: { ':minusOne': -1 },
        },
      },
    },
    { item: { Delete: { TableName: config.tableName, Key: serviceKeys.scenarioLink(organizationId, scenarioId, referrer.key) } } },
  ];
}

/** What a link item says: the referrer's key and the attribute that names the scenario. */
export const referrerOf = (link: Record<string, unknown>): ScenarioReferrer => ({ key: link.referrer as Key, attribute: String(link.attribute) });
