import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { openingState } from '#shared/schedule';
import { DEFAULT_USAGE_PLAN, isUsagePlanName, type UsagePlanName } from '#shared/auth/usage-plans';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { leadCounterNames } from '../leads/entity';
import { organizationKeys, toOrganizationItem } from './entity';
import { memberCounterNames } from './member-entity';
import { serviceCounterNames } from '../services/entity';
import { ApiError, NotFoundError } from '#shared/errors';
import { newId, now } from '#shared/ids';
import { DEFAULT_AUTOMATION_SMS_DAILY_CAP, DEFAULT_CURRENCY, fromOrganizationItem, type Organization, type OrganizationChanges, type OrganizationRecord } from './schema';
import { batchGetItems } from '#shared/store/batch-get';
import { counterKeys } from '#shared/store/counters';
import { insertIfAbsent, transact, writeAlone, type TransactWrite } from '#shared/store/transact';
import { retryOnStaleWrite, StaleWrite } from '#shared/store/versioned';
import { setFields, updateExistingItem, type Condition } from '#shared/store/update-fields';
import { E164 } from '#shared/schema';
import { DEFAULT_COUNTRY } from '#shared/countries';

export async function createOrganization(name: string, timezone = 'UTC', usagePlan?: UsagePlanName): Promise<OrganizationRecord> {
  const organization: OrganizationRecord = { id: newId('org'), name, timezone, country: DEFAULT_COUNTRY, currency: DEFAULT_CURRENCY, smsSenderId: null, businessHours: null, closedDates: [], automationSmsDailyCap: DEFAULT_AUTOMATION_SMS_DAILY_CAP, ownerAlertsSms: true, createdAt: now() };
  await writeAlone(insertIfAbsent({ ...toOrganizationItem(organization), ...(usagePlan ? { usagePlan } : {}) }));
  return organization;
}

export async function organizationExists(organizationId: string): Promise<boolean> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.organization(organizationId), ProjectionExpression: 'pk' }));
  return Item !== undefined;
}

const COUNTED = { leads: leadCounterNames.leads(), members: memberCounterNames.members, services: serviceCounterNames.services } as const;

/** Whether the business is open now, from its hours in its timezone; unknown (null) while it has set none. */
function openingOf({ businessHours, closedDates, timezone }: OrganizationRecord) {
  if (!businessHours) return { isOpenNow: null, closesAt: null, nextOpenAt: null };
  return openingState({ hours: businessHours, closedDates, timezone }, Date.now());
}

/** The organization item read as the record, then `shown` (its counts, for GET /v1/organization), then whether it is open now: the documented order. */
function withOpening<Shown extends object>(item: Record<string, unknown>, shown: Shown): Omit<Organization, 'counts'> & Shown {
  const organization = fromOrganizationItem(item);
  return { ...organization, ...shown, ...openingOf(organization) };
}

/**
 * The organization as a receptionist's read needs it (its name, time zone, hours and whether it is open now), without
 * the counters GET /v1/organization shows: one consistent GetItem.
 */
export async function getOrganizationHours(organizationId: string): Promise<Omit<Organization, 'counts'>> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.organization(organizationId), ConsistentRead: true }));
  if (!Item) throw organizationNotFound();
  return withOpening(Item, {});
}

/** The organization item and the counters it shows, in one consistent BatchGetItem. */
export async function getOrganization(organizationId: string): Promise<Organization> {
  const shardKeys = Object.values(COUNTED).flatMap((name) => counterKeys(organizationId, name));
  const items = await batchGetItems([organizationKeys.organization(organizationId), ...shardKeys], { consistentRead: true });
  const byKey = new Map(items.map((item) => [`${item.pk} ${item.sk}`, item]));
  const record = byKey.get(`${organizationKeys.organization(organizationId).pk} ${organizationKeys.organization(organizationId).sk}`);
  if (!record) throw new NotFoundError('Organization not found');
  // A sharded counter is the sum of its shards.
  const count = (name: string) => counterKeys(organizationId, name).reduce((sum, key) => sum + Number(byKey.get(`${key.pk} ${key.sk}`)?.count ?? 0), 0);
  const counts = Object.fromEntries(Object.entries(COUNTED).map(([field, name]) => [field, count(name)]));
  return withOpening(record, { counts: counts as Organization['counts'] });
}

/** An SMS sender id that is a phone number can receive replies, so it belongs to one organization; an alphanumeric one only sends. */
const smsNumberOf = (smsSenderId: string | null | undefined) => (smsSenderId && E164.test(smsSenderId) ? smsSenderId : undefined);

const organizationNotFound = () => new NotFoundError('Organization not found');
const smsSenderTaken = (number: string) => new ApiError(409, `smsSenderId ${number} is the SMS number of another organization`, 'SMS_SENDER_TAKEN');

/** The organization's current smsSenderId and who holds the claim on it, in one consistent read. */
async function readSmsSender(organizationId: string): Promise<{ smsSenderId: string | null; ownsClaim: boolean }> {
  const organizationKey = organizationKeys.organization(organizationId);
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKey, ProjectionExpression: 'smsSenderId', ConsistentRead: true }));
  if (!Item) throw organizationNotFound();
  const smsSenderId = typeof Item.smsSenderId === 'string' ? Item.smsSenderId : null;
  const number = smsNumberOf(smsSenderId);
  if (!number) return { smsSenderId, ownsClaim: false };
  const claim = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.smsNumberClaim(number), ConsistentRead: true }));
  return { smsSenderId, ownsClaim: claim.Item?.organizationId === organizationId };
}

/** The organization holds `number` from now on: a number no one holds, or one it holds already; another's → 409. */
function claimSmsNumber(organizationId: string, number: string, at: string): TransactWrite {
  return {
    item: {
      Put: {
        TableName: config.tableName,
        Item: { ...organizationKeys.smsNumberClaim(number), entity: 'SMS_NUMBER_CLAIM', organizationId, claimedAt: at },
        ConditionExpression: 'attribute_not_exists(pk) OR organizationId = :organizationId',
        ExpressionAttributeValues: { ':organizationId': organizationId },
      },
    },
    onConditionFailed: () => smsSenderTaken(number),
  };
}

/** Lets go of a number the organization holds, so another can take it. */
function releaseSmsNumber(organizationId: string, number: string): TransactWrite {
  return {
    item: { Delete: { TableName: config.tableName, Key: organizationKeys.smsNumberClaim(number), ConditionExpression: 'organizationId = :organizationId', ExpressionAttributeValues: { ':organizationId': organizationId } } },
    onConditionFailed: () => new StaleWrite(),
  };
}

/**
 * Changes the organization. A new smsSenderId that is a number takes its claim, and the number it replaces is
 * released, in the same transaction as the change, on condition that the sender id is still the one read: two
 * organizations can never hold one number, and inbound SMS to it find exactly one organization.
 */
export async function updateOrganization(organizationId: string, changes: OrganizationChanges): Promise<void> {
  if (changes.smsSenderId === undefined) {
    const at = now();
    await writeAlone(setFields(organizationKeys.organization(organizationId), { ...changes, updatedAt: at }, { onConditionFailed: organizationNotFound }));
    return;
  }
  const next = changes.smsSenderId;
  await retryOnStaleWrite(async () => {
    const at = now();
    const current = await readSmsSender(organizationId);
    const [before, after] = [smsNumberOf(current.smsSenderId), smsNumberOf(next)];
    const unchanged: Condition =
      current.smsSenderId === null
        ? { expression: 'attribute_not_exists(smsSenderId) OR attribute_type(smsSenderId, :nullType)', values: { ':nullType': 'NULL' } }
        : { expression: 'smsSenderId = :current', values: { ':current': current.smsSenderId } };
    await transact([
      // gsi1 held the number before claims did: an organization changed now leaves that index.
      setFields(organizationKeys.organization(organizationId), { ...changes, updatedAt: at }, { remove: ['gsi1pk', 'gsi1sk'], condition: unchanged, onConditionFailed: () => new StaleWrite() }),
      ...(after ? [claimSmsNumber(organizationId, after, at)] : []),
      ...(before && before !== after && current.ownsClaim ? [releaseSmsNumber(organizationId, before)] : []),
    ]);
  });
}

/** The organization whose SMS number this is, for an inbound SMS: the claim's one holder, or none. */
export async function findOrganizationBySmsNumber(number: string): Promise<string | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.smsNumberClaim(number), ConsistentRead: true }));
  return typeof Item?.organizationId === 'string' ? Item.organizationId : undefined;
}

/** The organization's time zone, what its appointments are shown in unless they say otherwise. */
export async function getOrganizationTimezone(organizationId: string): Promise<string> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.organization(organizationId), ProjectionExpression: '#timezone', ExpressionAttributeNames: { '#timezone': 'timezone' } }));
  return typeof Item?.timezone === 'string' ? Item.timezone : 'UTC';
}

/** The usage plan chosen for the organization (the admin CLI's `org plan`), or the default. */
export async function getOrganizationUsagePlan(organizationId: string): Promise<UsagePlanName> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: organizationKeys.organization(organizationId), ProjectionExpression: 'usagePlan' }));
  return typeof Item?.usagePlan === 'string' && isUsagePlanName(Item.usagePlan) ? Item.usagePlan : DEFAULT_USAGE_PLAN;
}

export async function setOrganizationUsagePlan(organizationId: string, usagePlan: UsagePlanName): Promise<void> {
  await updateExistingItem(organizationKeys.organization(organizationId), { usagePlan }, () => new NotFoundError('Organization not found'));
}
