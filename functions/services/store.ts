import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { fromScenarioItem, fromVersionedScenarioItem, scenarioAudit, scenarioSummary, toScenarioItem } from './scenario-entity';
import { referrerOf } from './scenario-links';
import { fromServiceItem, fromVersionedServiceItem, serviceAudit, serviceCounterNames, serviceKeys, toServiceItem, toServiceNameItem } from './entity';
import { MAX_SERVICE_MEMBERS } from './attributes';
import { ConflictError, NotFoundError, ValidationError } from '#shared/errors';
import type { Page } from '#shared/pagination';
import { memberKey, normalizeName, type Key } from '#shared/store/keys';
import type { Versioned } from '#shared/store/versioned-record';
import { MAX_SCENARIO_LINKS, type Scenario, type ScenarioChanges, type ListScenariosQuery } from './scenario-schema';
import type { Service, ListServicesQuery } from './schema';
import { filteredCollectionPage } from '#shared/store/change-log';
import { SCENARIO_CHANGES, SERVICE_CHANGES } from './entity';
import { counterUpdate } from '#shared/store/counters';
import { queryAll } from '#shared/store/query-page';
import { deleteItem, insertIfAbsent, transact, writeAlone, type TransactWrite } from '#shared/store/transact';
import { setFields, type Condition } from '#shared/store/update-fields';
import { moveUniqueItem, StaleWrite } from '#shared/store/versioned';
import { auditDeletion } from '#shared/audit/deletion';

export const SERVICE_SEQUENCE = 'SERVICE';
export const SCENARIO_SEQUENCE = 'SCENARIO';

const nameTaken = (name: string) => () => new ConflictError(`A service named "${name}" already exists`);

/** The items of one transaction: the service's own writes and its member checks. */
const MAX_TRANSACTION_ITEMS = 100;

/**
 * That each member a write names anew is still a member when the write lands, for the write's transaction: a member
 * removed since the rules read it (its delete saw no service naming it yet) answers 400 naming its place, so no
 * service is left naming a member that is gone. memberIds names at most MAX_SERVICE_MEMBERS (90), so they fit.
 */
function stillMembers(organizationId: string, memberIds: readonly number[], before: readonly number[], writes: number): TransactWrite[] {
  const added = memberIds.flatMap((id, i) => (before.includes(id) ? [] : [{ id, i }]));
  if (added.length > MAX_TRANSACTION_ITEMS - writes) throw new Error(`${added.length} member checks and ${writes} writes exceed one transaction: memberIds names at most ${MAX_SERVICE_MEMBERS} members`);
  return added.map(({ id, i }) => ({
    item: { ConditionCheck: { TableName: config.tableName, Key: memberKey(organizationId, id), ConditionExpression: 'attribute_exists(pk)' } },
    onConditionFailed: () => new ValidationError([{ path: `memberIds.${i}`, message: `memberIds.${i}: ${id} is not a member of the organization` }]),
  }));
}

/** The name claim, the service (with its scenario summary) and the scenario, in one transaction: a taken name → 409, nothing written. */
export async function insertServiceWithScenario(organizationId: string, service: Service, scenario: Scenario): Promise<void> {
  const writes = [
    insertIfAbsent(toServiceNameItem(organizationId, service), nameTaken(service.name)),
    insertIfAbsent(toServiceItem(organizationId, service)),
    insertIfAbsent(toScenarioItem(organizationId, scenario)),
    counterUpdate(organizationId, serviceCounterNames.services, 1),
  ];
  await transact([...writes, ...stillMembers(organizationId, service.memberIds, [], writes.length)]);
}

export const SERVICE_NOT_FOUND = 'Service not found';
export const SCENARIO_NOT_FOUND = 'Scenario not found';

async function getItem(key: Key): Promise<Record<string, unknown> | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: key, ConsistentRead: true }));
  return Item;
}

/** The record an item holds, or 404 with `message` when there is none. */
function found<T>(item: Record<string, unknown> | undefined, fromItem: (item: Record<string, unknown>) => T, message: string): T {
  if (!item) throw new NotFoundError(message);
  return fromItem(item);
}

export async function getService(organizationId: string, serviceId: number): Promise<Service> {
  return found(await getItem(serviceKeys.service(organizationId, serviceId)), fromServiceItem, SERVICE_NOT_FOUND);
}

export async function getVersionedService(organizationId: string, serviceId: number): Promise<Versioned<Service> | undefined> {
  const item = await getItem(serviceKeys.service(organizationId, serviceId));
  return item && fromVersionedServiceItem(item);
}

export async function getScenario(organizationId: string, scenarioId: number): Promise<Scenario> {
  return found(await getItem(serviceKeys.scenario(organizationId, scenarioId)), fromScenarioItem, SCENARIO_NOT_FOUND);
}

export async function getVersionedScenario(organizationId: string, scenarioId: number): Promise<Versioned<Scenario> | undefined> {
  const item = await getItem(serviceKeys.scenario(organizationId, scenarioId));
  return item && fromVersionedScenarioItem(item);
}

/** The item is still at the version read (0: an item written before items carried one). */
const atVersion = (version: number): Condition =>
  version === 0
    ? { expression: 'attribute_not_exists(#version)', names: { '#version': 'version' } }
    : { expression: '#version = :version', names: { '#version': 'version' }, values: { ':version': version } };

/**
 * The merged service, on condition that its item is still at the version read (else StaleWrite, read again); a
 * new name moves the name guard in the same transaction (a taken name → 409). Its scenario is left as it is.
 */
export async function writeServiceVersion(organizationId: string, current: Versioned<Service>, next: Versioned<Service>): Promise<void> {
  const condition = atVersion(current.version);
  const put: TransactWrite = {
    item: {
      Put: {
        TableName: config.tableName,
        Item: toServiceItem(organizationId, next.value, next.version),
        ConditionExpression: `attribute_exists(pk) AND ${condition.expression}`,
        ExpressionAttributeNames: condition.names,
        ...(condition.values ? { ExpressionAttributeValues: condition.values } : {}),
      },
    },
    onConditionFailed: () => new StaleWrite(),
  };
  const renamed = normalizeName(current.value.name) !== normalizeName(next.value.name);
  const writes = [put, ...(renamed ? moveUniqueItem(serviceKeys.serviceName(organizationId, current.value.name), toServiceNameItem(organizationId, next.value), nameTaken(next.value.name)) : [])];
  const checks = stillMembers(organizationId, next.value.memberIds, current.value.memberIds, writes.length);
  if (writes.length + checks.length === 1) return writeAlone(put);
  await transact([...writes, ...checks]);
}

/**
 * The scenario's changed fields, on condition that it is still at the version read, and its service's summary
 * with the service's version moved on, in one transaction: the service reads back the change at once.
 */
export async function writeScenarioVersion(organizationId: string, current: Versioned<Scenario>, next: Versioned<Scenario>, changes: ScenarioChanges): Promise<void> {
  const scenarioWrite = setFields(serviceKeys.scenario(organizationId, current.value.id), { ...changes, updatedAt: next.value.updatedAt, version: next.version }, {
    condition: atVersion(current.version),
    onConditionFailed: () => new StaleWrite(),
  });
  const serviceId = next.value.tradeServiceId;
  if (serviceId === null) return writeAlone(scenarioWrite);
  const summaryWrite: TransactWrite = {
    item: {
      Update: {
        TableName: config.tableName,
        Key: serviceKeys.service(organizationId, serviceId),
        // The service shows its scenario's summary, so it changed too: updatedAt moves it in its change log (updatedSince).
        UpdateExpression: 'SET #scenario = :scenario, #updatedAt = :updatedAt ADD #version :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: { '#scenario': 'scenario', '#updatedAt': 'updatedAt', '#version': 'version' },
        ExpressionAttributeValues: { ':scenario': scenarioSummary(next.value), ':updatedAt': next.value.updatedAt, ':one': 1 },
      },
    },
    // The service went with its scenario: read again, and the scenario is gone too.
    onConditionFailed: () => new StaleWrite(),
  };
  await transact([scenarioWrite, summaryWrite]);
}

/**
 * The service, its name guard, its scenario and the services count, and every record that names the scenario set
 * to null with its link item gone, in one transaction. Each condition holds what was read: the service's version,
 * the scenario's count of links (a link made since fails it) and each referrer still naming the scenario; a
 * failed one → StaleWrite, read again.
 */
export async function deleteServiceWithScenario(organizationId: string, current: Versioned<Service>, at: string): Promise<void> {
  const service = current.value;
  const scenarioId = service.scenario.id;
  const links = await queryAll({ ...serviceKeys.scenarioLinks(organizationId, scenarioId), consistentRead: true });
  if (links.length > MAX_SCENARIO_LINKS) {
    throw new ConflictError(`The service's scenario is named by ${links.length} transfer rules; point at most ${MAX_SCENARIO_LINKS} of them elsewhere before deleting it`);
  }
  const stale = () => new StaleWrite();
  const version = atVersion(current.version);
  await transact([
    {
      item: {
        Delete: {
          TableName: config.tableName,
          Key: serviceKeys.service(organizationId, service.id),
          ConditionExpression: `attribute_exists(pk) AND ${version.expression}`,
          ExpressionAttributeNames: version.names,
          ...(version.values ? { ExpressionAttributeValues: version.values } : {}),
        },
      },
      onConditionFailed: stale,
    },
    deleteItem(serviceKeys.serviceName(organizationId, service.name)),
    {
      item: {
        Delete: {
          TableName: config.tableName,
          Key: serviceKeys.scenario(organizationId, scenarioId),
          // At most the links found: one made since counts up past them.
          ConditionExpression: 'attribute_not_exists(#links) OR #links <= :links',
          ExpressionAttributeNames: { '#links': 'links' },
          ExpressionAttributeValues: { ':links': links.length },
        },
      },
      onConditionFailed: stale,
    },
    counterUpdate(organizationId, serviceCounterNames.services, -1),
    ...auditDeletion(organizationId, serviceAudit, service.id),
    ...auditDeletion(organizationId, scenarioAudit, scenarioId),
    ...links.flatMap((link): TransactWrite[] => {
      const { key, attribute } = referrerOf(link);
      return [
        {
          item: {
            Update: {
              TableName: config.tableName,
              Key: key,
              UpdateExpression: 'SET #attribute = :null, #updatedAt = :at ADD #version :one',
              ConditionExpression: '#attribute = :scenarioId',
              ExpressionAttributeNames: { '#attribute': attribute, '#updatedAt': 'updatedAt', '#version': 'version' },
              ExpressionAttributeValues: { ':null': null, ':at': at, ':one': 1, ':scenarioId': scenarioId },
            },
          },
          onConditionFailed: stale,
        },
        deleteItem({ pk: String(link.pk), sk: String(link.sk) }),
      ];
    }),
  ]);
}

/** The most services one member's delete takes the member out of in its own transaction (a transaction has 100 writes). */
export const MAX_SERVICES_OF_A_DELETED_MEMBER = 80;

/**
 * The writes that take a member out of `memberIds` of every service naming it, for the member's delete to put in its
 * own transaction, so no service is left naming a member that is gone: each on condition that the service is still at
 * the version read (one written meanwhile → StaleWrite, and the delete reads again). The service moves to a new
 * version as any change does (updatedAt, its change log, a `service.updated`); one the member alone took offers every
 * member again, as `[]` always has.
 */
export async function memberLeavingServices(organizationId: string, memberId: number, at: string): Promise<TransactWrite[]> {
  const services = (await queryAll({ ...serviceKeys.services(organizationId), consistentRead: true })).map(fromVersionedServiceItem);
  const naming = services.filter(({ value }) => value.memberIds.includes(memberId));
  if (naming.length > MAX_SERVICES_OF_A_DELETED_MEMBER) {
    throw new ConflictError(`The member takes ${naming.length} services; take it out of at least ${naming.length - MAX_SERVICES_OF_A_DELETED_MEMBER} of them (their memberIds) before removing it`);
  }
  return naming.map(({ value, version }): TransactWrite => {
    const still = atVersion(version);
    return {
      item: {
        Update: {
          TableName: config.tableName,
          Key: serviceKeys.service(organizationId, value.id),
          UpdateExpression: 'SET #memberIds = :memberIds, #updatedAt = :at ADD #version :one',
          ConditionExpression: `attribute_exists(pk) AND ${still.expression}`,
          ExpressionAttributeNames: { ...still.names, '#memberIds': 'memberIds', '#updatedAt': 'updatedAt' },
          ExpressionAttributeValues: { ...still.values, ':memberIds': value.memberIds.filter((id) => id !== memberId), ':at': at, ':one': 1 },
        },
      },
      onConditionFailed: () => new StaleWrite(),
    };
  });
}

/** A page of the organization's services, newest first, filtered; an exact totalCount (docs/decisions/store.md). */
export async function listServicesPage(organizationId: string, { tradeCategoryId, isActive, ...request }: ListServicesQuery): Promise<Page<Service>> {
  return filteredCollectionPage(request, { organizationId, collection: serviceKeys.services(organizationId), changes: SERVICE_CHANGES, filters: { tradeCategoryId, isActive } }, fromServiceItem);
}

/** A page of the organization's scenarios, newest first, filtered; an exact totalCount. */
export async function listScenariosPage(organizationId: string, { isActive, tradeServiceId, ...request }: ListScenariosQuery): Promise<Page<Scenario>> {
  return filteredCollectionPage(request, { organizationId, collection: serviceKeys.scenarios(organizationId), changes: SCENARIO_CHANGES, filters: { isActive, tradeServiceId } }, fromScenarioItem);
}

/** Every service of the organization, oldest first: a small catalog, one Query. */
export async function listAllServices(organizationId: string): Promise<Service[]> {
  return (await queryAll(serviceKeys.services(organizationId))).map(fromServiceItem);
}
