import { GetCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '../../shared/config';
import { dynamo } from '../../shared/dynamo';
import { INBOUND_ENDPOINT_CHANGES, fromInboundEndpointItem, inboundEndpointCounterNames, inboundEndpointKeys, toInboundEndpointItem, type InboundEndpointRecord } from './entity';
import { NotFoundError } from '../../shared/errors';
import { now } from '../../shared/ids';
import type { Page, PageRequest } from '../../shared/pagination';
import { counterUpdate } from '../../shared/store/counters';
import { countedPage } from '../../shared/store/query-page';
import { changeLogKey, listOrChanges } from '../../shared/store/change-log';
import { deleteItem, insertIfAbsent, transact, writeAlone } from '../../shared/store/transact';
import { setFields, updateExistingItem } from '../../shared/store/update-fields';
import type { InboundEndpointChanges } from './schema';

export const INBOUND_ENDPOINT_NOT_FOUND = 'Inbound endpoint not found';
const notFound = () => new NotFoundError(INBOUND_ENDPOINT_NOT_FOUND);

export async function createInboundEndpoint(endpoint: InboundEndpointRecord): Promise<void> {
  await transact([insertIfAbsent(toInboundEndpointItem(endpoint)), counterUpdate(endpoint.organizationId, inboundEndpointCounterNames.inboundEndpoints, 1)]);
}

export async function listInboundEndpointsPage(organizationId: string, request: PageRequest): Promise<Page<InboundEndpointRecord>> {
  const { page, limit } = request;
  const log = { partition: changeLogKey(organizationId, INBOUND_ENDPOINT_CHANGES).gsi6pk };
  const { items, totalCount, nextCursor } = await listOrChanges(request, log, (at) => countedPage(inboundEndpointKeys.inboundEndpoints(organizationId), organizationId, inboundEndpointCounterNames.inboundEndpoints, at));
  return { items: items.map(fromInboundEndpointItem), totalCount: totalCount ?? 0, page, limit, nextCursor };
}

export async function getInboundEndpoint(organizationId: string, endpointId: string): Promise<InboundEndpointRecord | undefined> {
  const { Item } = await dynamo.send(new GetCommand({ TableName: config.tableName, Key: inboundEndpointKeys.inboundEndpoint(organizationId, endpointId), ConsistentRead: true }));
  return Item && fromInboundEndpointItem(Item);
}

/** The endpoint a public post names, by its id alone (gsi1): the post carries no API key. */
export async function findInboundEndpoint(endpointId: string): Promise<InboundEndpointRecord | undefined> {
  const { gsi1pk } = inboundEndpointKeys.inboundEndpointById(endpointId);
  const { Items } = await dynamo.send(new QueryCommand({ TableName: config.tableName, IndexName: 'gsi1', KeyConditionExpression: 'gsi1pk = :pk', ExpressionAttributeValues: { ':pk': gsi1pk }, Limit: 1 }));
  return Items?.[0] && fromInboundEndpointItem(Items[0]);
}

/** One conditional UpdateItem of the fields sent (no rule spans them): the id, and so the URL, token and secret, stay. */
export async function updateInboundEndpoint(organizationId: string, endpointId: string, changes: InboundEndpointChanges): Promise<InboundEndpointRecord> {
  return fromInboundEndpointItem(await updateExistingItem(inboundEndpointKeys.inboundEndpoint(organizationId, endpointId), { ...changes, updatedAt: now() }, notFound));
}

/** A new token hash and secret; the old ones stop working at once. */
export async function replaceInboundCredentials(organizationId: string, endpointId: string, credentials: { tokenHash: string; secret: string }): Promise<void> {
  await writeAlone(setFields(inboundEndpointKeys.inboundEndpoint(organizationId, endpointId), credentials, { onConditionFailed: notFound }));
}

export async function deleteInboundEndpoint(organizationId: string, endpointId: string): Promise<void> {
  await transact([deleteItem(inboundEndpointKeys.inboundEndpoint(organizationId, endpointId), notFound), counterUpdate(organizationId, inboundEndpointCounterNames.inboundEndpoints, -1)]);
}
