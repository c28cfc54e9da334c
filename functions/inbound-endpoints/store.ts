import { GetCommand, QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { config } from '#shared/config';
import { dynamo } from '#shared/dynamo';
import { fromInboundEndpointItem, INBOUND_ENDPOINT_CHANGES, inboundEndpointAudit, inboundEndpointCounterNames, inboundEndpointKeys, type InboundEndpointRecord, toInboundEndpointItem } from './entity';
import { NotFoundError } from '#shared/errors';
import { now } from '#shared/ids';
import type { Page, PageRequest } from '#shared/pagination';
import { counterUpdate } from '#shared/store/counters';
import { countedCollectionPage } from '#shared/store/change-log';
import { deleteItem, insertIfAbsent, transact, writeAlone } from '#shared/store/transact';
import { setFields, updateExistingItem } from '#shared/store/update-fields';
import type { InboundEndpointChanges, InboundFormat } from './schema';
import { auditDeletion } from '#shared/audit/deletion';
import type { Sealed } from '#shared/envelope-encryption';

/** A change as written: a platformSecret sent is sealed first (./endpoint-secrets.ts). */
export type StoredChanges = Omit<InboundEndpointChanges, 'platformSecret'> & { platformSecret?: Sealed };

export const INBOUND_ENDPOINT_NOT_FOUND = 'Inbound endpoint not found';
const notFound = () => new NotFoundError(INBOUND_ENDPOINT_NOT_FOUND);

export async function createInboundEndpoint(endpoint: InboundEndpointRecord): Promise<void> {
  await transact([insertIfAbsent(toInboundEndpointItem(endpoint)), counterUpdate(endpoint.organizationId, inboundEndpointCounterNames.inboundEndpoints, 1)]);
}

export async function listInboundEndpointsPage(organizationId: string, request: PageRequest): Promise<Page<InboundEndpointRecord>> {
  const endpoints = { organizationId, collection: inboundEndpointKeys.inboundEndpoints(organizationId), counter: inboundEndpointCounterNames.inboundEndpoints, changes: INBOUND_ENDPOINT_CHANGES };
  return countedCollectionPage(request, endpoints, fromInboundEndpointItem);
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

/** The endpoint moved (another change of its source or format) between the read a rule was checked on and the write. */
export class InboundEndpointMoved extends Error {}

/** What a change that spans source, format and platformSecret was checked against, and what it drops. */
export interface ReadSettings {
  source: string;
  format: InboundFormat;
  /** The format leaves `retell`: Retell's key goes with it. */
  removePlatformSecret: boolean;
}

/**
 * One conditional UpdateItem of the fields sent: the id, and so the URL, token and secret, stay. Without `readAs` no
 * rule spans the fields sent; with it, the write also holds only while source and format are still what the rule
 * was checked on (an endpoint stored before formats existed has none: `native`), else InboundEndpointMoved.
 */
export async function updateInboundEndpoint(organizationId: string, endpointId: string, changes: StoredChanges, readAs?: ReadSettings): Promise<InboundEndpointRecord> {
  const key = inboundEndpointKeys.inboundEndpoint(organizationId, endpointId);
  if (!readAs) return fromInboundEndpointItem(await updateExistingItem(key, { ...changes, updatedAt: now() }, notFound));
  const format = readAs.format === 'native' ? '(attribute_not_exists(#format) OR #format = :format)' : '#format = :format';
  const { item } = setFields(key, { ...changes, updatedAt: now() }, {
    remove: readAs.removePlatformSecret ? ['platformSecret'] : [],
    condition: { expression: `#source = :source AND ${format}`, names: { '#source': 'source', '#format': 'format' }, values: { ':source': readAs.source, ':format': readAs.format } },
    onConditionFailed: () => new InboundEndpointMoved(),
  });
  const { Attributes } = await dynamo.send(new UpdateCommand({ ...item.Update!, ReturnValues: 'ALL_NEW' })).catch((error: unknown) => {
    throw (error as Error).name === 'ConditionalCheckFailedException' ? new InboundEndpointMoved() : error;
  });
  return fromInboundEndpointItem(Attributes ?? {});
}

/** A new token hash and secret; the old ones stop working at once. A write of the endpoint, it moves updatedAt: answered. */
export async function replaceInboundCredentials(organizationId: string, endpointId: string, credentials: { tokenHash: string; secret: Sealed }): Promise<string> {
  const updatedAt = now();
  await writeAlone(setFields(inboundEndpointKeys.inboundEndpoint(organizationId, endpointId), { ...credentials, updatedAt }, { onConditionFailed: notFound }));
  return updatedAt;
}

export async function deleteInboundEndpoint(organizationId: string, endpointId: string): Promise<void> {
  await transact([
    deleteItem(inboundEndpointKeys.inboundEndpoint(organizationId, endpointId), notFound),
    counterUpdate(organizationId, inboundEndpointCounterNames.inboundEndpoints, -1),
    ...auditDeletion(organizationId, inboundEndpointAudit, endpointId),
  ]);
}
