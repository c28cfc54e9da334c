import * as v from 'valibot';
import { privateUrls } from '#shared/private-urls';
import { DeletedSchema, everyKeyKept, isPlainObject, NonEmptyString, PageQuery, pageSchema, partialUpdateBody, PrefixedId, Timestamp } from '#shared/schema';
import { TrimmedString } from '#shared/schema/trimmed';
import { prose } from '#shared/prose';

/** What a sender may post to an inbound endpoint: far above any form or parsed email. */
export const MAX_INBOUND_BYTES = 256 * 1024;
/**
 * What a voice platform may post: a long call's webhook carries its transcript two or three times, with a timing for
 * every word. Below Lambda's 6 MB invocation limit once API Gateway has base64-encoded it.
 */
export const MAX_CALL_PLATFORM_BYTES = 3 * 1024 * 1024;
/** What a multipart form with files may post: its files are dropped, its text fields still held to MAX_INBOUND_BYTES. */
export const MAX_FORM_WITH_FILES_BYTES = 3 * 1024 * 1024;

export const INBOUND_SOURCES = ['WEBFORM', 'EMAIL', 'CALL', 'CHATBOT'] as const;
export type InboundSource = (typeof INBOUND_SOURCES)[number];

/**
 * How a post is read: `native`, the shapes of its source (a form, a parsed email, POST /v1/inquiries' body), or a voice
 * platform's post-call webhook exactly as the platform sends it, verified by that platform's own scheme.
 */
export const INBOUND_FORMATS = ['native', 'retell', 'vapi'] as const;
export type InboundFormat = (typeof INBOUND_FORMATS)[number];
/** The formats that are a voice platform's webhook: each records calls, so only an endpoint of source CALL takes one. */
export const CALL_PLATFORMS = ['retell', 'vapi'] as const satisfies readonly InboundFormat[];
export type CallPlatform = (typeof CALL_PLATFORMS)[number];
export const isCallPlatform = (format: InboundFormat | undefined): format is CallPlatform => (CALL_PLATFORMS as readonly string[]).includes(format ?? '');

/** A form's own field names → ours (email, phone, name, firstName, lastName, message), for forms that name them otherwise. */
export const FIELD_MAP_TARGETS = ['email', 'phone', 'name', 'firstName', 'lastName', 'message'] as const;

const FieldMapRecord = v.record(
  v.pipe(v.string(), v.minLength(1, 'fieldMap keys must not be empty'), v.maxLength(100, 'fieldMap keys must be at most 100 characters')),
  v.picklist(FIELD_MAP_TARGETS, `fieldMap values must be one of ${FIELD_MAP_TARGETS.join(', ')}`),
  'fieldMap must be an object',
);

const FieldMap = v.pipe(
  v.custom<Record<string, unknown>>(isPlainObject, 'fieldMap must be an object'),
  // A form field may be named constructor (a post reads it as any name): refused here rather than dropped by the record.
  everyKeyKept('fieldMap'),
  // The document states the whole rule where the guard stands (what follows a documentedAs is not read).
  v.metadata({ documentedAs: v.pipe(FieldMapRecord, v.metadata({ jsonSchema: { maxProperties: 50 } })) }),
  FieldMapRecord,
  v.check((map) => Object.keys(map).length <= 50, 'fieldMap must have at most 50 entries'),
);

const isHttpsUrl = (value: string) => URL.canParse(value) && new URL(value).protocol === 'https:';

/** The host names of this machine as a browser writes them in a URL. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * A page served from this machine over http (`http://localhost:3000`): taken only where webhooks take loopback
 * receivers (`npm start` and the tests, WEBHOOK_URLS_ALLOW_PRIVATE=true), so a form can be tried before its site
 * exists; deployed, refused as any http URL is. Read at each check, not once, as the webhooks' switch is.
 */
const isLocalPageUrl = (value: string) => privateUrls.allowed && URL.canParse(value) && new URL(value).protocol === 'http:' && LOOPBACK_HOSTS.has(new URL(value).hostname);
const isPageUrl = (value: string) => isHttpsUrl(value) || isLocalPageUrl(value);
/** What the document states of it: https, or http on a loopback host (taken under `npm start` only). */
const LOCAL_PAGE = 'http://(?:localhost|127\\.0\\.0\\.1|\\[::1\\])';

/** Where a visitor's browser is sent after a form post: https only (the form's own site), stored as the URL parser writes it. */
const RedirectUrl = (name: string) =>
  v.nullable(
    v.pipe(
      v.string(`${name} must be a string`),
      v.trim(),
      v.maxLength(2048, `${name} must be at most 2048 characters`),
      v.check(isPageUrl, `${name} must be an https URL`),
      v.metadata({ jsonSchema: { format: 'uri', pattern: `^(?:https://|${LOCAL_PAGE}(?:[:/?#]|$))` } }),
    ),
  );

export const MAX_ALLOWED_ORIGINS = 20;

/**
 * An origin exactly as a browser sends it in `Origin`: https, the host in lower case, no default port, no path
 * and no trailing slash; compared with the header as text, so it must be written that way.
 */
const isOrigin = (value: string) => isPageUrl(value) && new URL(value).origin === value;

/** What `isOrigin` takes, as the document states it: lower-case host names (the last label not numeric, or it would be read as an IPv4 address) and a port other than 443. */
const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const PORT = '(?:[1-9][0-9]{0,3}|[1-5][0-9]{4}|6[0-4][0-9]{3}|65[0-4][0-9]{2}|655[0-2][0-9]|6553[0-5])';
const ORIGIN_PATTERN = `^(?:https://(?:${LABEL}\\.)*[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?(?::(?!443$)${PORT})?|${LOCAL_PAGE}(?::(?!80$)${PORT})?)$`;

const AllowedOrigins = v.pipe(
  v.array(
    v.pipe(
      v.string('allowedOrigins items must be strings'),
      v.check(isOrigin, 'allowedOrigins items must be origins written as a browser sends them: https://host or https://host:port, in lower case, without a path or a trailing slash'),
      v.metadata({ jsonSchema: { pattern: ORIGIN_PATTERN } }),
    ),
    'allowedOrigins must be an array of origins',
  ),
  v.maxLength(MAX_ALLOWED_ORIGINS, `allowedOrigins must have at most ${MAX_ALLOWED_ORIGINS} origins`),
  v.check((origins) => new Set(origins).size === origins.length, 'allowedOrigins must not repeat an origin'),
  v.metadata({ jsonSchema: { uniqueItems: true } }),
);

/** The endpoint's settings, written once: the create and PATCH bodies and the answers all take them from here. */
const inboundEndpointFields = {
  name: NonEmptyString('name', 100),
  source: v.picklist(INBOUND_SOURCES, `source must be one of ${INBOUND_SOURCES.join(', ')}`),
  fieldMap: v.nullable(FieldMap),
  /** A form post that records an inquiry is answered 303 to here, with `inquiryId` added to the query. */
  redirectUrl: RedirectUrl('redirectUrl'),
  /** A form post refused after its token was checked is answered 303 to here, with `error=<code>` added. */
  errorRedirectUrl: RedirectUrl('errorRedirectUrl'),
  /** Origins whose pages may post JSON from a browser (CORS); none when empty. */
  allowedOrigins: AllowedOrigins,
  /**
   * Whether a post must come from a page on one of allowedOrigins: its Origin header one of them, else refused (403
   * ORIGIN_NOT_ALLOWED), a post without Origin too (browsers send it with every POST; a server does not).
   */
  enforceOrigin: v.pipe(
    v.boolean('enforceOrigin must be a boolean'),
    v.description(prose`
      Refuse posts whose \`Origin\` header is not one of \`allowedOrigins\` (403 \`ORIGIN_NOT_ALLOWED\`, nothing
      recorded), posts without \`Origin\` too: browsers send it with every POST, servers do not. Not for formats
      retell and vapi, whose platforms post from their servers. Off unless set.
    `),
  ),
  /** A form field real visitors never see nor fill (hidden by the page's CSS): a post that fills it is answered as recorded and records nothing. */
  honeypotField: v.nullable(
    TrimmedString(
      'honeypotField',
      100,
      v.description('A field of the form that people never fill (hidden with CSS, e.g. `website`): a post with any text in it is answered as if recorded (201, or 303 to `redirectUrl`) and records nothing. Left empty, it is not kept among the inquiry’s fields. Null for none.'),
    ),
  ),
  format: v.picklist(INBOUND_FORMATS, `format must be one of ${INBOUND_FORMATS.join(', ')}`),
  /**
   * Write-only: the secret the platform signs with when it is not one we issue. Retell signs its webhooks with the
   * account's API key (the one with the webhook badge), so a `retell` endpoint needs it; never answered.
   */
  platformSecret: TrimmedString('platformSecret', 500, v.metadata({ jsonSchema: { writeOnly: true } })),
};

export const CreateInboundEndpointBody = v.strictObject({
  ...inboundEndpointFields,
  fieldMap: v.optional(inboundEndpointFields.fieldMap, null),
  redirectUrl: v.optional(inboundEndpointFields.redirectUrl, null),
  errorRedirectUrl: v.optional(inboundEndpointFields.errorRedirectUrl, null),
  allowedOrigins: v.optional(inboundEndpointFields.allowedOrigins, []),
  enforceOrigin: v.optional(inboundEndpointFields.enforceOrigin, false),
  honeypotField: v.optional(inboundEndpointFields.honeypotField, null),
  format: v.optional(inboundEndpointFields.format, 'native'),
  platformSecret: v.optional(inboundEndpointFields.platformSecret),
});
export type CreateInboundEndpointBody = v.InferOutput<typeof CreateInboundEndpointBody>;

/**
 * Any subset of the fields a create sets; `fieldMap: null` removes the map. The URL, token and secret stay; a
 * platformSecret goes when the format stops being `retell`.
 */
export const UpdateInboundEndpointBody = partialUpdateBody(inboundEndpointFields);
export type InboundEndpointChanges = v.InferOutput<typeof UpdateInboundEndpointBody>;

export const InboundEndpoint = v.object({
  id: v.string(),
  name: v.string(),
  source: v.picklist(INBOUND_SOURCES),
  fieldMap: v.nullable(v.record(v.string(), v.string())),
  redirectUrl: inboundEndpointFields.redirectUrl,
  errorRedirectUrl: inboundEndpointFields.errorRedirectUrl,
  allowedOrigins: inboundEndpointFields.allowedOrigins,
  enforceOrigin: inboundEndpointFields.enforceOrigin,
  honeypotField: inboundEndpointFields.honeypotField,
  format: inboundEndpointFields.format,
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
export const ListInboundEndpointsQuery = PageQuery;

/**
 * A repeat of a sender's id to an inbound URL (200): the ids its sender was answered the first time, and never what
 * was recorded (the summary, a transcript, the lead's name or contacts). The URL is public in a page, and a repeat is
 * recognized by an email or phone anyone may type, so its answer holds nothing its sender did not already have.
 */
export const InboundRepeat = v.object({
  inquiry: v.object({ id: v.string(), leadId: v.string() }),
  created: v.pipe(v.literal(false), v.description('Always false: nothing was recorded, the id was seen before.')),
});
export type InboundRepeat = v.InferOutput<typeof InboundRepeat>;

/** POST /v1/inbound/{id}: the token, unless the body is signed. */
/**
 * The inbound URL's query: its token, checked only by comparing it with the endpoint's (a wrong one, of any length,
 * answers the same 401 as an unknown endpoint, so ids cannot be probed); other parameters, such as a page's
 * campaign tags copied onto the form's action, are ignored rather than refused.
 */
export const InboundQuery = v.looseObject({ token: v.optional(v.pipe(v.string(), v.metadata({ jsonSchema: { maxLength: 200 } }))) });


/** The data of `inbound_endpoint.source_limited`: a client address met its share of the organization's inbound day. */
export const InboundSourceLimited = v.object({
  inboundEndpointId: v.pipe(v.string(), v.description('The endpoint whose post met the share. The source’s posts to any of the organization’s inbound URLs are refused until `until`.')),
  source: v.pipe(v.string(), v.description('The client address (an IPv6 address by its /64).')),
  limit: v.pipe(v.number(), v.description('Posts one client address may make to the organization’s inbound URLs in a UTC day.')),
  until: v.pipe(Timestamp, v.description('When its posts are answered again: the next 00:00 UTC.')),
  createdAt: Timestamp,
});
export type InboundSourceLimited = v.InferOutput<typeof InboundSourceLimited>;
