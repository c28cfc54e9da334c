import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { filterSignature } from '#shared/filters';
import { linkScenario, unlinkScenario, type ScenarioReferrer } from '../services/scenario-links';
import { fromTransferItem, TRANSFER_CHANGES, transferKeys, type VersionedTransfer } from './entity';
import { ValidationError } from '#shared/errors';
import type { Page } from '#shared/pagination';
import type { Transfer, TransferListQuery } from './schema';
import { filteredPage } from '#shared/store/collection-page';
import { changeLogKey, listOrChanges } from '#shared/store/change-log';
import type { TransactWrite } from '#shared/store/transact';

/** How the transfer names its scenario, so the scenario's delete can clear it (functions/services/scenario-links.ts). */
const referrer = (organizationId: string, transferId: number): ScenarioReferrer => ({ key: transferKeys.transfer(organizationId, transferId), attribute: 'scenarioId' });

/** The linked scenario must exist in this organization: linked inside the write's transaction, 400 when absent. */
function scenarioLink(organizationId: string, transferId: number, scenarioId: number | null): TransactWrite[] {
  if (scenarioId === null) return [];
  const missing = () => new ValidationError([{ path: 'scenarioId', message: `scenarioId ${scenarioId} does not match any scenario of the organization` }]);
  return linkScenario(organizationId, scenarioId, referrer(organizationId, transferId), missing);
}

const scenarioUnlink = (organizationId: string, transferId: number, scenarioId: number | null): TransactWrite[] =>
  scenarioId === null ? [] : unlinkScenario(organizationId, scenarioId, referrer(organizationId, transferId));

/** A rule's link to its scenario, in the rule's own transaction: made on create, moved when scenarioId changes, undone on delete. */
export function scenarioWrites(organizationId: string, next: Transfer | undefined, current: Transfer | undefined): TransactWrite[] {
  if (next?.scenarioId === current?.scenarioId) return [];
  return [...(current ? scenarioUnlink(organizationId, current.id, current.scenarioId) : []), ...(next ? scenarioLink(organizationId, next.id, next.scenarioId) : [])];
}

export async function getTransfer(organizationId: string, transferId: number): Promise<VersionedTransfer | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: transferKeys.transfer(organizationId, transferId), ConsistentRead: true }));
  return Item && fromTransferItem(Item);
}

/**
 * The page of the organization's rules that pass the filters; an exact totalCount (docs/decisions/store.md).
 * `usableNow` is whether a rule that keeps business hours can take a call now (the organization's hours, read by the
 * caller): with `availableNow`, only the enabled rules usable now, or with false the others.
 */
export async function listTransfersPage(organizationId: string, { isEnabled, scenarioId, availableNow, ...request }: TransferListQuery, usableNow = true): Promise<Page<Transfer>> {
  const { page, limit } = request;
  const available = (item: Record<string, unknown>) => item.isEnabled === true && ((item.settings as Transfer['settings'] | undefined)?.ignore_business_hours === true || usableNow);
  const keep = (item: Record<string, unknown>) =>
    (isEnabled === undefined || item.isEnabled === isEnabled) && (scenarioId === undefined || item.scenarioId === scenarioId) && (availableNow === undefined || available(item) === availableNow);
  const log = { partition: changeLogKey(organizationId, TRANSFER_CHANGES).gsi6pk, filters: { isEnabled, scenarioId, availableNow } };
  const result = await listOrChanges(request, log, (at) => filteredPage(transferKeys.transfers(organizationId), { keep, filter: filterSignature({ isEnabled, scenarioId, availableNow, usableNow: availableNow === undefined ? undefined : usableNow }) }, at));
  return { ...result, items: result.items.map((item) => fromTransferItem(item).value), totalCount: result.totalCount ?? 0, page, limit };
}
