import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import * as v from 'valibot';
import { DEFAULT_USAGE_PLAN, isUsagePlanName, type UsagePlanName } from '../auth/usage-plans';
import { config } from '../config';
import { dynamo } from '../dynamo';
import { counterNames, keys } from '../entities/keys';
import { NotFoundError } from '../errors';
import { newId, now } from '../ids';
import { OrganizationRecord, type Organization, type OrganizationChanges } from '../schemas/organization';
import { batchGetItems } from './batch-get';
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
  const counterKeys = Object.values(COUNTED).map((name) => keys.counter(organizationId, name));
  const items = await batchGetItems([keys.organization(organizationId), ...counterKeys], { consistentRead: true });
  const bySk = new Map(items.map((item) => [item.sk as string, item]));
  const record = bySk.get(keys.organization(organizationId).sk);
  if (!record) throw new NotFoundError('Organization not found');
  const counts = Object.fromEntries(Object.entries(COUNTED).map(([field, name]) => [field, Number(bySk.get(keys.counter(organizationId, name).sk)?.count ?? 0)]));
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
