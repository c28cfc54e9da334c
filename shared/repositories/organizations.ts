import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { DEFAULT_USAGE_PLAN, isUsagePlanName, type UsagePlanName } from '../auth/usage-plans';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { counterNames, keys } from '../entities/keys';
import { ConflictError, NotFoundError } from '../errors';
import { newId, now } from '../ids';
import { OrganizationRecord, type Organization, type OrganizationChanges } from '../schemas/organization';
import { batchGetItems } from './batch-get';
import { counterKeys } from './counters';
import { insertIfAbsent, writeAlone } from './transact';
import { setFields, updateExistingItem } from './update-fields';
import { E164 } from '../schemas/common';

const toOrganizationItem = (organization: OrganizationRecord) => ({ ...keys.organization(organization.id), entity: 'ORGANIZATION', ...organization });

export async function createOrganization(name: string, timezone = 'UTC', usagePlan?: UsagePlanName): Promise<OrganizationRecord> {
  const organization: OrganizationRecord = { id: newId('org'), name, timezone, smsSenderId: null, createdAt: now() };
  await writeAlone(insertIfAbsent({ ...toOrganizationItem(organization), ...(usagePlan ? { usagePlan } : {}) }));
  return organization;
}

export async function organizationExists(organizationId: string): Promise<boolean> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.organization(organizationId), ProjectionExpression: 'pk' }));
  return Item !== undefined;
}

const COUNTED = { leads: counterNames.leads(), members: counterNames.members, services: counterNames.services } as const;

/** The organization item and the counters it shows, in one consistent BatchGetItem. */
export async function getOrganization(organizationId: string): Promise<Organization> {
  const shardKeys = Object.values(COUNTED).flatMap((name) => counterKeys(organizationId, name));
  const items = await batchGetItems([keys.organization(organizationId), ...shardKeys], { consistentRead: true });
  const byKey = new Map(items.map((item) => [`${item.pk} ${item.sk}`, item]));
  const record = byKey.get(`${keys.organization(organizationId).pk} ${keys.organization(organizationId).sk}`);
  if (!record) throw new NotFoundError('Organization not found');
  // A sharded counter is the sum of its shards.
  const count = (name: string) => counterKeys(organizationId, name).reduce((sum, key) => sum + Number(byKey.get(`${key.pk} ${key.sk}`)?.count ?? 0), 0);
  const counts = Object.fromEntries(Object.entries(COUNTED).map(([field, name]) => [field, count(name)]));
  return { ...v.parse(OrganizationRecord, record), counts: counts as Organization['counts'] };
}

/** An SMS sender id that is a phone number can receive replies: the organization is found by it. */
const smsNumberIndex = (smsSenderId: string | null | undefined, at: string) => (smsSenderId && E164.test(smsSenderId) ? keys.organizationBySmsNumber(smsSenderId, at) : undefined);

export async function updateOrganization(organizationId: string, changes: OrganizationChanges): Promise<void> {
  const at = now();
  const numberChanged = changes.smsSenderId !== undefined;
  const index = smsNumberIndex(changes.smsSenderId, at);
  const { item } = setFields(keys.organization(organizationId), { ...changes, ...index, updatedAt: at }, {
    remove: numberChanged && !index ? ['gsi1pk', 'gsi1sk'] : [],
    onConditionFailed: () => new NotFoundError('Organization not found'),
  });
  await writeAlone({ item, onConditionFailed: () => new NotFoundError('Organization not found') });
}

/** The organization whose SMS number this is, for an inbound SMS. */
export async function findOrganizationBySmsNumber(number: string): Promise<string | undefined> {
  const { gsi1pk } = keys.organizationBySmsNumber(number);
  const { Items } = await dynamo.send(
    new QueryCommand({ TableName: config.tableName, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': gsi1pk }, ScanIndexForward: false, Limit: 1 }),
  );
  return Items?.[0] ? String(Items[0].id) : undefined;
}

/** The organization's time zone, what its appointments are shown in unless they say otherwise. */
export async function getOrganizationTimezone(organizationId: string): Promise<string> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.organization(organizationId), ProjectionExpression: '#timezone', ExpressionAttributeNames: { '#timezone': 'timezone' } }));
  return typeof Item?.timezone === 'string' ? Item.timezone : 'UTC';
}

/** The usage plan chosen for the organization (the admin CLI's `org plan`), or the default. */
export async function getOrganizationUsagePlan(organizationId: string): Promise<UsagePlanName> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.organization(organizationId), ProjectionExpression: 'usagePlan' }));
  return typeof Item?.usagePlan === 'string' && isUsagePlanName(Item.usagePlan) ? Item.usagePlan : DEFAULT_USAGE_PLAN;
}

export async function setOrganizationUsagePlan(organizationId: string, usagePlan: UsagePlanName): Promise<void> {
  await updateExistingItem(keys.organization(organizationId), { usagePlan }, () => new NotFoundError('Organization not found'));
}

/** Over how many items the organization's lead and inquiry counters are spread (the admin CLI's `org shards`); 1 unless raised. */
export async function getOrganizationCounterShards(organizationId: string): Promise<number> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: keys.organization(organizationId), ProjectionExpression: 'counterShards' }));
  return typeof Item?.counterShards === 'number' ? Item.counterShards : 1;
}

/**
 * Spreads the organization's hot counters over `shards` items. It only grows: a counter's total is the sum of
 * the shards read, so dropping one would drop what was counted there.
 */
export async function raiseOrganizationCounterShards(organizationId: string, shards: number): Promise<void> {
  await dynamo
    .send(
      new UpdateCommand({
        TableName: config.tableName,
        Key: keys.organization(organizationId),
        UpdateExpression: 'SET counterShards = :shards',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(counterShards) OR counterShards <= :shards)',
        ExpressionAttributeValues: { ':shards': shards },
      }),
    )
    .catch((error: unknown) => {
      if ((error as Error).name === 'ConditionalCheckFailedException') throw new ConflictError('Counter shards only grow: the organization is missing or already has more');
      throw error;
    });
}
