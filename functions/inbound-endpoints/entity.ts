import * as v from 'valibot';
import { InboundEndpoint } from './schema';
import { emptyFieldsOf } from '#shared/schema';
import { changeLogKey } from '#shared/store/keys';
import { organizationPartition, SAMPLE_ORGANIZATION_ID, type Collection, type Key, type KeySamples } from '#shared/store/keys';
import type { AuditedRecord } from '#shared/resource';

const org = organizationPartition;

/** Inbound endpoints: URLs that senders without an API key post inquiries to. */
export const inboundEndpointKeys = {
  inboundEndpoint: (o: string, endpointId: string): Key => ({ pk: org(o), sk: `INBOUND#${endpointId}` }),
  inboundEndpoints: (o: string): Collection => ({ pk: org(o), skPrefix: 'INBOUND#' }),
  /** gsi1: an inbound endpoint by its id alone, for POST /v1/inbound/{id}, which carries no API key to name the organization. */
  inboundEndpointById: (endpointId: string) => ({ gsi1pk: `INBOUND#${endpointId}`, gsi1sk: 'ENDPOINT' }),
} as const;

/** The names of the inbound endpoints' counter items (`COUNT#<name>`). */
export const inboundEndpointCounterNames = {
  inboundEndpoints: 'INBOUND_ENDPOINTS',
} as const;

export const INBOUND_ENDPOINT_ENTITY = 'INBOUND_ENDPOINT';

/** The inbound endpoints' change log (updatedSince). */
export const INBOUND_ENDPOINT_CHANGES = 'INBOUND_ENDPOINTS';

const O = SAMPLE_ORGANIZATION_ID;

export const inboundEndpointKeySamples: KeySamples<typeof inboundEndpointKeys> = {
  inboundEndpoint: () => inboundEndpointKeys.inboundEndpoint(O, 'inbound_1'),
  inboundEndpoints: () => inboundEndpointKeys.inboundEndpoints(O),
  inboundEndpointById: () => inboundEndpointKeys.inboundEndpointById('inbound_1'),
};

/** A secret as stored: sealed (functions/inbound-endpoints/endpoint-secrets.ts), or plain in an item written before sealing. */
const StoredSecret = v.union([v.instance(Uint8Array), v.string()]);

/**
 * What the item holds beyond the API's fields: the token's hash (never the token), the signing secret and, for a
 * platform that signs with a key of its own (Retell), that key: each sealed, opened only to check a post.
 */
export const InboundEndpointRecord = v.object({
  ...InboundEndpoint.entries,
  organizationId: v.string(),
  tokenHash: v.string(),
  secret: StoredSecret,
  platformSecret: v.optional(StoredSecret),
});
export type InboundEndpointRecord = v.InferOutput<typeof InboundEndpointRecord>;

export const toInboundEndpointItem = (endpoint: InboundEndpointRecord) => ({
  ...inboundEndpointKeys.inboundEndpoint(endpoint.organizationId, endpoint.id),
  ...inboundEndpointKeys.inboundEndpointById(endpoint.id),
  ...changeLogKey(endpoint.organizationId, INBOUND_ENDPOINT_CHANGES),
  entity: INBOUND_ENDPOINT_ENTITY,
  ...endpoint,
});

/** An endpoint stored before a setting existed reads as one without it (no redirect, no allowed origin, the native format). */
const UNSET = { ...emptyFieldsOf(InboundEndpoint), format: 'native' };

export const fromInboundEndpointItem = (item: Record<string, unknown>): InboundEndpointRecord => v.parse(InboundEndpointRecord, { ...UNSET, ...item });

/** An inbound endpoint, as the audit log names it (GET /v1/audit-log). */
export const inboundEndpointAudit: AuditedRecord = { entity: INBOUND_ENDPOINT_ENTITY, resourceType: 'inbound_endpoint' };
