import * as v from 'valibot';
import { DeletedSchema, NonEmptyString, PageQuery, pageSchema, partialUpdateBody, PrefixedId, Timestamp } from '../../shared/schema';

/** What a sender may post to an inbound endpoint: far above any form or parsed email. */
export const MAX_INBOUND_BYTES = 256 * 1024;

export const INBOUND_SOURCES = ['WEBFORM', 'EMAIL', 'CALL', 'CHATBOT'] as const;
export type InboundSource = (typeof INBOUND_SOURCES)[number];

/** A form's own field names → ours (email, phone, name, firstName, lastName, message), for forms that name them otherwise. */
export const FIELD_MAP_TARGETS = ['email', 'phone', 'name', 'firstName', 'lastName', 'message'] as const;

const FieldMap = v.pipe(
  v.record(
    v.pipe(v.string(), v.minLength(1, 'fieldMap keys must not be empty'), v.maxLength(100, 'fieldMap keys must be at most 100 characters')),
    v.picklist(FIELD_MAP_TARGETS, `fieldMap values must be one of ${FIELD_MAP_TARGETS.join(', ')}`),
    'fieldMap must be an object',
  ),
  v.check((map) => Object.keys(map).length <= 50, 'fieldMap must have at most 50 entries'),
  v.metadata({ jsonSchema: { maxProperties: 50 } }),
);

const inboundEndpointFields = {
  name: NonEmptyString('name', 100),
  source: v.picklist(INBOUND_SOURCES, `source must be one of ${INBOUND_SOURCES.join(', ')}`),
  fieldMap: v.nullable(FieldMap),
};

export const CreateInboundEndpointBody = v.strictObject({ ...inboundEndpointFields, fieldMap: v.optional(inboundEndpointFields.fieldMap, null) });
export type CreateInboundEndpointBody = v.InferOutput<typeof CreateInboundEndpointBody>;

/** Any subset of the fields a create sets; `fieldMap: null` removes the map. The URL, token and secret stay. */
export const UpdateInboundEndpointBody = partialUpdateBody(inboundEndpointFields);
export type InboundEndpointChanges = v.InferOutput<typeof UpdateInboundEndpointBody>;

export const InboundEndpoint = v.object({
  id: v.string(),
  name: v.string(),
  source: v.picklist(INBOUND_SOURCES),
  fieldMap: v.nullable(v.record(v.string(), v.string())),
  createdAt: Timestamp,
  /** When it was created or last changed: the sync order (updatedSince). */
  updatedAt: Timestamp,
});
export type InboundEndpoint = v.InferOutput<typeof InboundEndpoint>;

/** The create and rotate answers: the URL with its token, and the signing secret, shown only here. */
export const InboundEndpointWithSecrets = v.object({ ...InboundEndpoint.entries, url: v.string(), secret: v.string() });

export const InboundEndpointIdPath = v.object({ inboundEndpointId: PrefixedId('inbound', 'inboundEndpointId') });
export const InboundEndpointCreated = v.object({ inboundEndpoint: InboundEndpointWithSecrets });
export const InboundEndpointPage = pageSchema('inboundEndpoints', InboundEndpoint);
/** One endpoint as the list shows it: never its token (only its hash is stored) nor its secret. */
export const InboundEndpointResponse = v.object({ inboundEndpoint: InboundEndpoint });
export const InboundEndpointDeleted = DeletedSchema;
export const InboundEndpointListQuery = PageQuery;

/** POST /v1/inbound/{id}: the token, unless the body is signed. */
export const InboundQuery = v.object({ token: v.optional(v.pipe(v.string(), v.maxLength(200, 'token must be at most 200 characters'))) });
