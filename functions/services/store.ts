import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../shared/config';
import { dynamo } from '../../shared/dynamo';
import { fromScenarioItem, toScenarioItem } from './scenario-entity';
import { fromServiceItem, serviceCounterNames, serviceKeys, toServiceItem, toServiceNameItem } from './entity';
import { ConflictError, NotFoundError } from '../../shared/errors';
import type { Scenario } from './scenario-schema';
import type { Service } from './schema';
import { counterUpdate } from '../../shared/store/counters';
import { queryAll } from '../../shared/store/query-page';
import { insertIfAbsent, transact } from '../../shared/store/transact';

export const SERVICE_SEQUENCE = 'SERVICE';
export const SCENARIO_SEQUENCE = 'SCENARIO';

/** The name claim, the service (with its scenario summary) and the scenario, in one transaction: a taken name → 409, nothing written. */
export async function insertServiceWithScenario(organizationId: string, service: Service, scenario: Scenario): Promise<void> {
  await transact([
    insertIfAbsent(toServiceNameItem(organizationId, service), () => new ConflictError(`A service named "${service.name}" already exists`)),
    insertIfAbsent(toServiceItem(organizationId, service)),
    insertIfAbsent(toScenarioItem(organizationId, scenario)),
    counterUpdate(organizationId, serviceCounterNames.services, 1),
  ]);
}

export async function getService(organizationId: string, serviceId: number): Promise<Service> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: serviceKeys.service(organizationId, serviceId), ConsistentRead: true }));
  if (!Item) throw new NotFoundError('Service not found');
  return fromServiceItem(Item);
}

export async function getScenario(organizationId: string, scenarioId: number): Promise<Scenario> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: serviceKeys.scenario(organizationId, scenarioId), ConsistentRead: true }));
  if (!Item) throw new NotFoundError('Scenario not found');
  return fromScenarioItem(Item);
}

/** Every service of the organization, oldest first: a small catalog, one Query. */
export async function listAllServices(organizationId: string): Promise<Service[]> {
  return (await queryAll(serviceKeys.services(organizationId))).map(fromServiceItem);
}
